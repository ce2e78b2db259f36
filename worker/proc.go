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

// waitDelay is how long the pipes of a child that has exited are read
// before they are closed.
const waitDelay = 2 * time.Second

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
	dir     string // its own directory (Pool.Isolated), removed when it ends
	unwrap  func() // removes what the pool's Wrapper made for the child
	// ack closes the request's pipe: the parent has read the child's last
	// event, and the child may exit.
	ack func()
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
	cleanup := func() {}
	if p.Wrap != nil {
		var err error
		if cleanup, err = p.Wrap.Wrap(cmd); err != nil {
			return nil, err
		}
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	stderr := &tail{}
	cmd.Stderr = stderr
	cmd.Stdout = io.Discard // a codec's own printing; events have their own pipe
	evR, evW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	cmd.ExtraFiles = []*os.File{evW} // the child's EventsFD
	// A process the child leaves behind may hold its stdout and stderr:
	// once the child has exited, they are closed after waitDelay, and its
	// process group killed (killGroup).
	cmd.WaitDelay = waitDelay
	dieWithParent(cmd)
	w := &proc{cmd: cmd, evR: evR, stderr: stderr, limits: req.Limits, oom: readOOM(), unwrap: cleanup}
	if p.Isolated {
		if w.dir, err = isolate(cmd); err != nil {
			evR.Close()
			evW.Close()
			w.cleanup()
			return nil, err
		}
	}
	// The request goes down a pipe the parent keeps open until it has read
	// the child's last event (ack): the child waits for its end before it
	// exits.
	stdin, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		w.cleanup()
		evR.Close()
		evW.Close()
		return nil, fmt.Errorf("worker: starting %s: %w", cmd.Path, err)
	}
	w.started = time.Now()
	evW.Close()
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		// A child that dies before it reads the request makes this fail;
		// its exit says why.
		stdin.Write(b)
	}()
	var once sync.Once
	w.ack = func() {
		once.Do(func() {
			<-sent
			stdin.Close()
		})
	}
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

// kill kills the child and its process group; its events end when it is
// gone.
func (w *proc) kill() {
	w.cmd.Process.Kill()
	killGroup(w.cmd)
}

// abandon kills the child and waits for it: the run was interrupted.
func (w *proc) abandon() {
	w.kill()
	w.ack()
	for range w.events { // drain until the pipe closes
	}
	w.cmd.Wait()
	w.evR.Close()
	w.cleanup()
}

// wait waits for a child whose events have ended, kills what it left in
// its process group, and returns its wait error and peak resident set
// size.
func (w *proc) wait() (error, uint64) {
	for range w.events {
	}
	w.ack()
	err := w.cmd.Wait()
	killGroup(w.cmd)
	w.evR.Close()
	w.cleanup()
	return err, peakRSS(w.cmd)
}

// cleanup removes the child's own directory, if it has one (Pool.Isolated),
// and what the pool's Wrapper made for it.
func (w *proc) cleanup() {
	if w.dir != "" {
		os.RemoveAll(w.dir)
	}
	if w.unwrap != nil {
		w.unwrap()
	}
}

// isolate runs cmd in a new temporary directory of its own, which it
// returns, with an environment of only what the Go runtime and serbench's
// own switches read (keepEnv), HOME and TMPDIR pointing at the directory.
func isolate(cmd *exec.Cmd) (string, error) {
	dir, err := os.MkdirTemp("", "serbench-child-")
	if err != nil {
		return "", fmt.Errorf("worker: a directory for an isolated child: %w", err)
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	var kept []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if keepEnv(k) {
			kept = append(kept, kv)
		}
	}
	cmd.Env = append(kept, "HOME="+dir, "TMPDIR="+dir)
	cmd.Dir = dir
	return dir, nil
}

// keepEnv reports whether an isolated child keeps the environment variable
// named k: the Go runtime's settings and serbench's own switches.
func keepEnv(k string) bool {
	switch k {
	case "GOGC", "GOMEMLIMIT", "GODEBUG", "GOMAXPROCS", "GOTRACEBACK", "PATH":
		return true
	}
	return strings.HasPrefix(k, "SERBENCH_")
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

// DieWithParent makes the kernel kill the process cmd starts when this
// one dies, where the OS can: for a program a child runs beside itself
// (a study's peer in another language), which must not outlive the child
// that a timeout killed.
func DieWithParent(cmd *exec.Cmd) { dieWithParent(cmd) }
