package worker

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// CommandName is the hidden command that makes the serbench binary a
// child of a Pool: the one way every child of serbench starts.
const CommandName = "worker"

// EventsFD is the file descriptor on which a child writes its events.
const EventsFD = 3

// A proc is a started child process: its command, the events it sends on
// their own pipe, the ends of its stderr, and what it needs for its death
// to be read: when it started, its caps and the kernel's out-of-memory
// counters at its start.
type proc struct {
	cmd     *exec.Cmd
	events  <-chan eventMsg
	evR     *os.File
	stderr  *tail
	started time.Time
	limits  Limits
	oom     oomCounters
}

// An eventMsg is one event read from a child, or why it could not be.
type eventMsg struct {
	e   event
	err error
}

// spawn starts a child on req, under req's caps, that dies with this
// process, and reads its events.
func (p *Pool) spawn(req request) (*proc, error) {
	cmd := p.command()
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd.Stdin = strings.NewReader(string(b))
	stderr := &tail{}
	cmd.Stderr = stderr
	cmd.Stdout = io.Discard // a codec's own printing; events have their own pipe
	evR, evW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	cmd.ExtraFiles = []*os.File{evW} // the child's EventsFD
	dieWithParent(cmd)
	w := &proc{cmd: cmd, evR: evR, stderr: stderr, limits: req.Limits, oom: readOOM()}
	if err := cmd.Start(); err != nil {
		evR.Close()
		evW.Close()
		return nil, fmt.Errorf("worker: starting %s: %w", cmd.Path, err)
	}
	w.started = time.Now()
	evW.Close()
	p.mu.Lock()
	p.starts++
	p.mu.Unlock()

	events := make(chan eventMsg)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(evR)
		sc.Buffer(make([]byte, 1<<20), 1<<30) // a result carries every sample
		for sc.Scan() {
			var e event
			err := json.Unmarshal(sc.Bytes(), &e)
			events <- eventMsg{e, err}
		}
	}()
	w.events = events
	return w, nil
}

// kill kills the child; its events end when it is gone.
func (w *proc) kill() { w.cmd.Process.Kill() }

// abandon kills the child and waits for it: the run was interrupted.
func (w *proc) abandon() {
	w.kill()
	for range w.events { // drain until the pipe closes
	}
	w.cmd.Wait()
	w.evR.Close()
}

// wait waits for a child whose events have ended and returns its wait
// error and peak resident set size.
func (w *proc) wait() (error, uint64) {
	for range w.events {
	}
	err := w.cmd.Wait()
	w.evR.Close()
	return err, peakRSS(w.cmd)
}

// exit classifies the death of a child wait returned err for.
func (w *proc) exit(err error, peak uint64) *Exit {
	return classify(err, w.stderr.String(), w.oom.since(readOOM())).withPeak(peak, w.limits.Memory)
}

// cpuTime returns an ended child's CPU time, user and system.
func cpuTime(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// command returns the command that starts a child.
func (p *Pool) command() *exec.Cmd {
	if p.Command != nil {
		return p.Command()
	}
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	// Args[0] stays this process's own, so that a binary that dispatches
	// on its name (a test binary under testscript) reaches the same main.
	return &exec.Cmd{Path: exe, Args: []string{os.Args[0], CommandName}}
}

// A tail keeps the start and the end of a child's stderr: the first lines
// of a fatal error and the last lines of its trace.
type tail struct {
	mu   sync.Mutex
	head []byte
	end  []byte
	cut  bool
}

const tailKeep = 2048

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if room := tailKeep - len(t.head); room > 0 {
		k := min(room, len(b))
		t.head = append(t.head, b[:k]...)
		b = b[k:]
	}
	t.end = append(t.end, b...)
	if len(t.end) > tailKeep {
		t.end = slices.Clone(t.end[len(t.end)-tailKeep:])
		t.cut = true
	}
	return n, nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(t.head)
	if t.cut {
		s += "\n...\n"
	}
	return strings.TrimSpace(s + string(t.end))
}
