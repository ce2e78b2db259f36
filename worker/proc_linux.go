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
	// A process group of its own, killed when the child ends (killGroup):
	// a process the codec starts (no parent-death signal of its own) dies
	// with its worker.
	cmd.SysProcAttr.Setpgid = true
}

// killGroup kills what is left of the child's process group: processes
// a codec started and left behind. One that made a session of its own
// (setsid) has left the group; only a cgroup would hold it.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.Process.Pid > 0 {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
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

// closeOnExec keeps fd from the processes this one starts.
func closeOnExec(fd int) { syscall.CloseOnExec(fd) }
