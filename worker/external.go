package worker

import (
	"context"
	"os/exec"
	"time"
)

// External returns the command name with args, run in dir, under the
// supervisor's rules for a program that is not a worker (git, go, a
// serbench built from another commit): it dies with this process (the
// kernel's parent-death signal on Linux), it leads a process group of its
// own, and when ctx ends the whole group is killed, so that nothing it
// started (go build's compilers, a built serbench and its workers)
// outlives it. WaitDelay bounds the wait for a process that still holds
// its output.
func External(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 10 * time.Second
	dieWithParent(cmd)
	ownGroup(cmd)
	return cmd
}
