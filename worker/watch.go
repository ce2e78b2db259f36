package worker

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// WatchCommandName is the hidden command a watcher is started with (Watch):
// the program's main hands its standard input to AwaitParent, then does
// the watcher's work, named by the arguments after it.
const WatchCommandName = "watch-parent"

// A Watcher is a child that cleans up after this process however it ends.
// It is this program again (os.Executable, with WatchCommandName and the
// arguments given to Watch), in a session of its own and without the
// parent-death signal: the one child the supervisor lets outlive
// serbench, and only to clean up. Its standard input is a pipe whose write
// end this process alone holds; the watcher waits for the pipe's end
// (AwaitParent), which comes the moment this process exits or is killed
// (kill -9 too: the kernel closes the write end), or Release closes it,
// and then does its work and exits. Its standard output and error are
// /dev/null, so that a pipe of this process's output (serbench ... | tee)
// ends with this process. The process groups Guard names are killed
// before the work: what this process's children started (go build's
// compilers), which the parent-death signal does not reach.
type Watcher struct {
	mu   sync.Mutex
	w    *os.File
	done chan struct{}
}

// Watch starts a watcher with args.
func Watch(args ...string) (*Watcher, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("worker: starting a watcher: %w", err)
	}
	r, w, err := os.Pipe() // close-on-exec: no other child holds the write end
	if err != nil {
		return nil, fmt.Errorf("worker: starting a watcher: %w", err)
	}
	cmd := exec.Command(exe, append([]string{WatchCommandName}, args...)...)
	cmd.Stdin = r
	detach(cmd)
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("worker: starting a watcher: %w", err)
	}
	wt := &Watcher{w: w, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(wt.done)
	}()
	return wt, nil
}

// Guard names the process group that pid leads (a command of External)
// to the watcher: if this process ends while the group lives, the watcher
// kills the group before its work. The function returned says the group
// has ended.
func (wt *Watcher) Guard(pid int) (ended func()) {
	wt.say('+', pid)
	return func() { wt.say('-', pid) }
}

// say writes one line to the watcher: op and a process group's id.
func (wt *Watcher) say(op byte, pid int) {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	wt.w.Write(append(strconv.AppendInt([]byte{op}, int64(pid), 10), '\n')) // one write, below PIPE_BUF: atomic
}

// Release ends the watch with this process alive: the watcher does its
// work now, and Release waits at most wait for it to exit.
func (wt *Watcher) Release(wait time.Duration) error {
	wt.mu.Lock()
	wt.w.Close()
	wt.mu.Unlock()
	select {
	case <-wt.done:
		return nil
	case <-time.After(wait):
		return errors.New("worker: the watcher did not finish its work in " + wait.String())
	}
}

// AwaitParent is the watcher's side: it returns once the process that
// started the watcher has exited, been killed or released it, having
// killed the process groups it guarded that had not ended.
func AwaitParent(stdin io.Reader) {
	groups := map[int]bool{}
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		pid, err := strconv.Atoi(line[1:])
		if err != nil || pid <= 1 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pid] = true
		case '-':
			delete(groups, pid)
		}
	}
	io.Copy(io.Discard, stdin) // a line too long for the scanner: wait for the end all the same
	for pid := range groups {
		killGroupOf(pid)
	}
}
