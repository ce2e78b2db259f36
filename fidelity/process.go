package fidelity

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/serbench/serbench/codec"
)

// A Runner runs probes through codecs, each codec in child processes, so
// that a codec that crashes its process (a stack overflow on a cycle) or
// hangs costs the cell it was in and nothing else: the Runner records the
// cell as Crashed and starts a new child for the codec's other probes.
type Runner struct {
	// Command returns the command that starts a child, which must call
	// Serve. Default: this executable with the argument
	// "fidelity-worker".
	Command func() *exec.Cmd
	// Timeout is how long one probe may take before its child is killed
	// as hung. Default DefaultTimeout.
	Timeout time.Duration
	// Parallel is how many children run at once. Default 1.
	Parallel int
	// Progress, if set, is called after each codec, from one goroutine
	// at a time.
	Progress func(codec string, done, total int)
}

// DefaultTimeout is the default time a probe may take: a megabyte through
// the slowest text codec on a loaded machine takes seconds, not tens.
const DefaultTimeout = 30 * time.Second

// WorkerCommand is the hidden command that makes the serbench binary a
// child of a Runner.
const WorkerCommand = "fidelity-worker"

// Run runs probes through codecs and returns the matrix. When ctx is
// cancelled it returns the cells so far with ctx's error.
func (r *Runner) Run(ctx context.Context, codecs []codec.Info, probes []Probe) (*Matrix, error) {
	m := NewMatrix(codecs, probes)
	rows := make([][]Cell, len(codecs))
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range max(r.Parallel, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				rows[i] = r.codec(ctx, codecs[i].Name, probes)
				mu.Lock()
				done++
				if r.Progress != nil {
					r.Progress(codecs[i].Name, done, len(codecs))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range codecs {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	for _, row := range rows {
		for _, c := range row {
			m.Add(c)
		}
	}
	return m, ctx.Err()
}

// codec runs probes through one codec, starting a child for the probes
// left whenever one dies.
func (r *Runner) codec(ctx context.Context, name string, probes []Probe) []Cell {
	var cells []Cell
	left := Names(probes)
	for len(left) > 0 && ctx.Err() == nil {
		got, stuck, why := r.child(ctx, name, left)
		cells = append(cells, got...)
		left = left[len(got):]
		if stuck == "" {
			if len(left) > 0 { // the child ended before its first probe
				for _, p := range left {
					cells = append(cells, Cell{Codec: name, Case: p, Outcome: Crashed, Detail: why})
				}
			}
			break
		}
		cells = append(cells, Cell{Codec: name, Case: stuck, Outcome: Crashed, Detail: why})
		left = left[1:]
	}
	return cells
}

// request is what a child reads on its stdin.
type request struct {
	Codec  string   `json:"codec"`
	Probes []string `json:"probes"`
}

// event is one line a child writes on its events pipe.
type event struct {
	Start string `json:"start,omitempty"` // the probe it is about to run
	Cell  *Cell  `json:"cell,omitempty"`
}

// child runs probes through codec in one child process. It returns the
// cells the child finished and, if it died or hung in a probe, that
// probe's name and why.
func (r *Runner) child(ctx context.Context, name string, probes []string) (cells []Cell, stuck, why string) {
	cmd := r.command()
	req, _ := json.Marshal(request{Codec: name, Probes: probes})
	cmd.Stdin = bytes.NewReader(req)
	var stderr limited
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, "", "fidelity: " + err.Error()
	}
	cmd.ExtraFiles = []*os.File{pw} // EventsFD in the child
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, "", fmt.Sprintf("fidelity: starting a child: %v", err)
	}
	pw.Close()
	events := make(chan event)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				events <- e
			}
		}
	}()
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	current, hung := "", false
	cancelled := ctx.Done()
loop:
	for {
		select {
		case e, ok := <-events:
			if !ok {
				break loop
			}
			timer.Reset(timeout)
			if e.Start != "" {
				current = e.Start
			}
			if e.Cell != nil {
				cells = append(cells, *e.Cell)
				current = ""
			}
		case <-timer.C:
			hung = true
			cmd.Process.Kill()
		case <-cancelled:
			cancelled = nil // kill once, then wait for the pipe to close
			cmd.Process.Kill()
		}
	}
	for range events {
	}
	pr.Close()
	werr := cmd.Wait()
	switch {
	case current == "" && len(cells) == len(probes):
		return cells, "", ""
	case hung:
		return cells, current, fmt.Sprintf("hung: no answer in %v; the child was killed", timeout)
	case current == "":
		return cells, "", fmt.Sprintf("the child ended before its first probe: %v: %s", werr, stderr.last())
	}
	return cells, current, fmt.Sprintf("the child died: %v: %s", werr, stderr.last())
}

func (r *Runner) command() *exec.Cmd {
	if r.Command != nil {
		return r.Command()
	}
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	// Args[0] stays this process's own, so that a binary that dispatches
	// on its name (a test binary under testscript) reaches the same main.
	return &exec.Cmd{Path: exe, Args: []string{os.Args[0], WorkerCommand}}
}

// limited keeps the first 64 KiB written to it: enough for a runtime's
// fatal error line, not its goroutine dump.
type limited struct{ bytes.Buffer }

func (l *limited) Write(p []byte) (int, error) {
	if room := 64<<10 - l.Len(); room > 0 {
		l.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// last returns the line of a child's stderr that says why it died: the
// runtime's "fatal error:" or "panic:" line, else the last line.
func (l *limited) last() string {
	lines := strings.Split(strings.TrimSpace(l.String()), "\n")
	for _, prefix := range []string{"fatal error:", "panic:", "runtime:"} {
		for _, line := range lines {
			if strings.HasPrefix(line, prefix) {
				return line
			}
		}
	}
	return lines[len(lines)-1]
}

// EventsFD is the file descriptor on which a child writes its events.
const EventsFD = 3

// MaxStack is the stack limit of a child: a codec recursing down a cycle
// fails at it in well under a second instead of growing a gigabyte.
const MaxStack = 64 << 20

// PinZone sets the process's local zone to UTC. Codecs that decode times
// into time.Local then give the same cells on every machine, and a time
// read back in the local zone shows as the UTC normalisation whatever the
// machine's TZ. Serve calls it; so must any other process that checks
// probes in itself (a generator, a test binary).
func PinZone() { time.Local = time.UTC }

// Serve is a child's main: it reads a request from in, looks its codec up
// and writes an event before and after each probe to the events pipe
// (EventsFD).
func Serve(in io.Reader, lookup func(name string) (codec.Info, error)) error {
	f := os.NewFile(EventsFD, "events")
	if f == nil {
		return fmt.Errorf("fidelity: no events pipe on file descriptor %d: the child is started by serbench fidelity, not by hand", EventsFD)
	}
	defer f.Close()
	return serve(in, f, lookup)
}

func serve(in io.Reader, out io.Writer, lookup func(name string) (codec.Info, error)) error {
	debug.SetMaxStack(MaxStack)
	PinZone()
	var req request
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		return fmt.Errorf("fidelity: reading the request: %w", err)
	}
	info, err := lookup(req.Codec)
	if err != nil {
		return err
	}
	byName := map[string]Probe{}
	for _, p := range Probes {
		byName[p.Name] = p
	}
	var probes []Probe
	for _, name := range req.Probes {
		p, ok := byName[name]
		if !ok {
			return fmt.Errorf("fidelity: unknown probe %q", name)
		}
		probes = append(probes, p)
	}
	enc := json.NewEncoder(out)
	for _, p := range probes {
		if err := enc.Encode(event{Start: p.Name}); err != nil {
			return err
		}
		cell := Check(info, p)
		if err := enc.Encode(event{Cell: &cell}); err != nil {
			return err
		}
	}
	return nil
}
