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

// detach puts cmd in a session of its own, out of this process's group:
// neither a signal to the terminal's foreground group (^C) nor a kill of
// this process's group reaches it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// killGroupOf kills the process group that pid leads, whatever is left of
// it.
func killGroupOf(pid int) {
	syscall.Kill(-pid, syscall.SIGKILL)
}
