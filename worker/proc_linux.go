package worker

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the worker when the process that
// started it dies, even by SIGKILL: an orphaned worker would go on
// measuring, or spinning in a hung codec, beside the run that resumes it.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// peakRSS returns an ended child's peak resident set size, in bytes.
func peakRSS(cmd *exec.Cmd) uint64 {
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
			return uint64(ru.Maxrss) * 1024 // Linux reports KiB
		}
	}
	return 0
}
