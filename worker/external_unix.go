//go:build unix

package worker

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd lead a process group of its own, which its
// cancellation kills whole.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error {
		// The group's id is its leader's pid.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
