package worker

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/internal/valgrind"
	"github.com/serbench/serbench/results"
)

// A Wrapper changes the command that starts a child, so that the child
// runs under another program (Valgrind) with the same request, caps,
// events and checks. A Pool with a Wrapper wraps every child it starts.
type Wrapper interface {
	// Wrap rewrites cmd to start the child under the wrapper; cleanup,
	// called once the child is gone, removes what Wrap made for it.
	Wrap(cmd *exec.Cmd) (cleanup func(), err error)
	// Crashed returns what the result of a benchmark whose child died
	// (or hung) under the wrapper, alone in it, is to say: res as the
	// pool would record it, with the reason of the crash.
	Crashed(res results.Result) results.Result
}

// Valgrind wraps a benchmark worker in Valgrind's callgrind tool, set up
// to count instructions (package internal/valgrind): the child runs at
// GOMAXPROCS 1 with GOGC 100, no asynchronous preemption (whose signals
// callgrind 3.19 cannot follow) and no memory profiling (whose samples,
// thousands of instructions each, fall at random about every 512 KiB
// allocated: a window may hold one or none), so that counts repeat; the
// runner counts when its Options.Count is set.
type Valgrind struct {
	// Path is the valgrind program.
	Path string
	// Program, if set, is the program Valgrind runs in place of the one
	// a child would run: a build of it whose runtime seeds from a
	// constant (FixSeeds), so that counts repeat between processes.
	Program string
}

// Stretch is how many times the CPU time of a timed worker a worker
// under Valgrind may spend without a beat before it is killed as hung
// (Pool.Timeout): Valgrind starts a program, and runs code, several times
// slower, uninstrumented, and many times slower while it counts.
const Stretch = 10

// InstallHint says how to install Valgrind where it is missing.
const InstallHint = "install it with scripts/apt-install valgrind (as root; Debian's package), or apt-get install --no-install-recommends valgrind"

// FindValgrind returns the Valgrind on PATH, or an error that says how to
// install it.
func FindValgrind() (*Valgrind, error) {
	path, err := exec.LookPath("valgrind")
	if err != nil {
		return nil, fmt.Errorf("counting instructions needs Valgrind, which is not on PATH: %s", InstallHint)
	}
	return &Valgrind{Path: path}, nil
}

// Wrap starts cmd's program under callgrind, its dumps in a directory of
// its own.
func (v *Valgrind) Wrap(cmd *exec.Cmd) (func(), error) {
	dir, err := os.MkdirTemp("", "serbench-callgrind-")
	if err != nil {
		return nil, fmt.Errorf("worker: a directory for callgrind's dumps: %w", err)
	}
	args := append([]string{v.Path}, valgrind.Flags(dir)...)
	args = append(args, cmp.Or(v.Program, program(cmd)))
	args = append(args, cmd.Args[1:]...)
	env := cmd.Environ()
	godebug := "asyncpreemptoff=1,memprofilerate=0"
	for _, kv := range env {
		if old, ok := strings.CutPrefix(kv, "GODEBUG="); ok && old != "" {
			godebug = old + "," + godebug
		}
	}
	cmd.Env = append(env, valgrind.DirEnv+"="+dir, "GOMAXPROCS=1", "GOGC=100", "GODEBUG="+godebug)
	cmd.Path, cmd.Args = v.Path, args
	return func() { os.RemoveAll(dir) }, nil
}

// program returns the path Valgrind is to run for cmd: its Args[0] where
// that names the program (so that a binary that dispatches on its name
// still reaches the same main), else its Path.
func program(cmd *exec.Cmd) string {
	if len(cmd.Args) > 0 && filepath.Base(cmd.Args[0]) != filepath.Base(cmd.Path) {
		if p, err := exec.LookPath(cmd.Args[0]); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
		}
	}
	return cmd.Path
}

// Crashed records a benchmark that cannot run under Valgrind as skipped
// from the count, with what happened when it was tried.
func (v *Valgrind) Crashed(res results.Result) results.Result {
	why := "tried under Valgrind and failed: " + res.Reason
	res.Status, res.Reason, res.CountSkipped = results.Skipped, why, why
	return res
}
