package worker

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A Task is a unit of generic work a Pool runs in a child process of its
// own: the Handler named Name, given Input, under the memory and stack
// caps of Limits and the Pool's per-step timeout.
type Task struct {
	// Name names the Handler the child runs.
	Name string `json:"name"`
	// Input is the handler's input, as JSON.
	Input json.RawMessage `json:"input,omitempty"`
	// Limits are the caps the child sets on itself before it runs the
	// handler. The zero value means DefaultLimits.
	Limits Limits `json:"limits"`
}

// Limits are the resource caps of a task's child process.
type Limits struct {
	// Memory caps the child's address space (RLIMIT_AS, where the OS has
	// it), in bytes, so that a huge allocation is a fatal "out of memory"
	// in the child and not the machine's. Default 4 GiB.
	Memory uint64 `json:"memory,omitempty"`
	// Stack caps the size of one goroutine's stack (debug.SetMaxStack), in
	// bytes, so that unbounded recursion is a quick stack overflow. Default
	// 64 MiB.
	Stack int `json:"stack,omitempty"`
}

// DefaultLimits are the caps of a task whose Limits are zero.
var DefaultLimits = Limits{Memory: 4 << 30, Stack: 64 << 20}

func (l Limits) orDefault() Limits {
	return Limits{Memory: cmp.Or(l.Memory, DefaultLimits.Memory), Stack: cmp.Or(l.Stack, DefaultLimits.Stack)}
}

// A Handler is the child's side of a Task: Run does the work, calling step
// before each part of it that may crash or hang (the parent blames the
// last step, and restarts its timeout there), and returns the output as
// JSON.
type Handler struct {
	Name string
	Run  func(ctx context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error)
}

// A TaskResult is how a task ended.
type TaskResult struct {
	// Output is the handler's output; nil when it failed or the child
	// died.
	Output json.RawMessage
	// Err is the handler's error, if it returned one.
	Err string
	// Exit says how the child died; nil when it ended cleanly.
	Exit *Exit
	// Step is the last step the child announced before it ended.
	Step string
	// PeakRSS is the child's peak resident set size, in bytes, where the
	// OS reports it.
	PeakRSS uint64
}

// An Exit says how a task's child process died.
type Exit struct {
	// Kind is one of the Exit kinds.
	Kind string `json:"kind"`
	// Detail is what the runtime said ("fatal error: ..."), or the signal.
	Detail string `json:"detail,omitempty"`
	// Stderr is the start and the end of the child's stderr.
	Stderr string `json:"stderr,omitempty"`
}

// The Exit kinds.
const (
	ExitStackOverflow = "stack overflow"
	ExitOutOfMemory   = "out of memory"
	ExitFatal         = "fatal error"       // any other fatal runtime error
	ExitPanic         = "unrecovered panic" // a panic on a goroutine nobody recovers
	ExitSignal        = "signal"
	ExitTimeout       = "timeout" // no step for the pool's TaskTimeout; killed
	ExitOther         = "exit"    // a non-zero exit status
)

// DefaultTaskTimeout is how long a task's child may stay in one step
// before it is killed as hung.
const DefaultTaskTimeout = 10 * time.Second

// RunTasks runs each task in a child process of its own, at most
// Parallel at a time, and returns their results in task order. The pool
// survives whatever a task does to its child. It returns ctx's error when
// cancelled, with the results finished so far (the others zero).
func (p *Pool) RunTasks(ctx context.Context, tasks []Task) ([]TaskResult, error) {
	out := make([]TaskResult, len(tasks))
	sem := make(chan struct{}, max(p.Parallel, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for i := range tasks {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r, err := p.runTask(ctx, tasks[i])
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				return
			}
			out[i] = r
			if p.TaskDone != nil {
				p.TaskDone(i, r)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return out, err
	}
	return out, firstErr
}

// runTask runs one task in a new child.
func (p *Pool) runTask(ctx context.Context, t Task) (TaskResult, error) {
	t.Limits = t.Limits.orDefault()
	cmd := p.command()
	req, err := json.Marshal(request{Task: &t})
	if err != nil {
		return TaskResult{}, err
	}
	cmd.Stdin = strings.NewReader(string(req))
	stderr := &tail{}
	cmd.Stderr = stderr
	cmd.Stdout = io.Discard
	evR, evW, err := os.Pipe()
	if err != nil {
		return TaskResult{}, fmt.Errorf("worker: %w", err)
	}
	cmd.ExtraFiles = []*os.File{evW}
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		evR.Close()
		evW.Close()
		return TaskResult{}, fmt.Errorf("worker: starting %s: %w", cmd.Path, err)
	}
	evW.Close()
	p.mu.Lock()
	p.starts++
	p.mu.Unlock()

	events := make(chan event)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(evR)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				events <- e
			}
		}
	}()
	timeout := cmp.Or(p.TaskTimeout, DefaultTaskTimeout)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var res TaskResult
	var done *taskEnd
	hung := false
loop:
	for {
		select {
		case e, ok := <-events:
			if !ok {
				break loop
			}
			switch {
			case e.Beat != nil:
				res.Step = e.Beat.Step
				timer.Reset(timeout)
			case e.Task != nil:
				done = e.Task
			}
		case <-timer.C:
			hung = true
			cmd.Process.Kill()
		case <-ctx.Done():
			cmd.Process.Kill()
			for range events {
			}
			cmd.Wait()
			evR.Close()
			return TaskResult{}, ctx.Err()
		}
	}
	waitErr := cmd.Wait()
	evR.Close()
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && ru != nil {
			res.PeakRSS = uint64(ru.Maxrss) * 1024 // Linux reports KiB
		}
	}
	switch {
	case hung:
		res.Exit = &Exit{Kind: ExitTimeout, Detail: fmt.Sprintf("no step for %v; killed", timeout), Stderr: stderr.String()}
	case done != nil:
		res.Output, res.Err = done.Output, done.Error
	default:
		res.Exit = taskExit(waitErr, stderr.String())
	}
	return res, nil
}

// taskExit classifies how a task's child died.
func taskExit(err error, stderr string) *Exit {
	e := &Exit{Stderr: stderr}
	kind := exitKind(err, stderr)
	switch {
	case kind == "stack overflow":
		e.Kind = ExitStackOverflow
	case kind == "out of memory":
		e.Kind = ExitOutOfMemory
	case strings.HasPrefix(kind, "fatal error: "):
		e.Kind = ExitFatal
	case kind == "unrecovered panic":
		e.Kind = ExitPanic
	case strings.HasPrefix(kind, "killed by "):
		e.Kind = ExitSignal
	default:
		e.Kind = ExitOther
	}
	e.Detail = firstLine(stderr, kind)
	return e
}

// firstLine returns the first line of stderr that says what killed the
// child ("fatal error: ...", "runtime: ...", "panic: ..."), or kind.
func firstLine(stderr, kind string) string {
	for _, line := range strings.Split(stderr, "\n") {
		for _, p := range []string{"fatal error: ", "runtime: ", "panic: "} {
			if strings.HasPrefix(line, p) {
				return line
			}
		}
	}
	return kind
}

// taskEnd closes a task child's events: the handler's output or error.
type taskEnd struct {
	Output json.RawMessage `json:"output,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// serveTask runs the handler t names, under t's limits, writing a beat
// per step and the end.
func serveTask(ctx context.Context, t *Task, w *writer, handlers []Handler) error {
	var h *Handler
	var names []string
	for i := range handlers {
		names = append(names, handlers[i].Name)
		if handlers[i].Name == t.Name {
			h = &handlers[i]
		}
	}
	if h == nil {
		err := fmt.Errorf("worker: no task handler %q; known: %s", t.Name, strings.Join(names, ", "))
		w.write(event{Task: &taskEnd{Error: err.Error()}})
		return err
	}
	l := t.Limits.orDefault()
	debug.SetMaxStack(l.Stack)
	if err := limitMemory(l.Memory); err != nil {
		fmt.Fprintf(os.Stderr, "serbench worker: %v; running without a memory cap\n", err)
	}
	out, err := h.Run(ctx, t.Input, func(step string) { w.write(event{Beat: &beat{Step: step}}) })
	e := &taskEnd{Output: out}
	if err != nil {
		e.Error = err.Error()
	}
	w.write(event{Task: e})
	return nil
}
