package worker

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"github.com/serbench/serbench/machine"
	"os"
	"runtime/debug"
	"strings"
	"sync"
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
	// Timeout is how long the child may stay in one step before it is
	// killed as hung: the caller's, so that a study never sets a field of
	// a pool it was handed. Zero means the Pool's TaskTimeout.
	Timeout time.Duration `json:"-"`
}

// Limits are the resource caps of a child process, which it sets on
// itself before it runs any of its work.
type Limits struct {
	// Memory caps the child's address space (RLIMIT_AS, where the OS has
	// it), in bytes, so that a huge allocation is a fatal "out of memory"
	// in the child and not the machine's. Default 4 GiB.
	Memory uint64 `json:"memory,omitempty"`
	// Stack caps the size of one goroutine's stack (debug.SetMaxStack), in
	// bytes, so that unbounded recursion is a quick stack overflow. Default
	// 64 MiB.
	Stack int `json:"stack,omitempty"`
	// Uncapped makes the child a default Go process: no address-space
	// cap, Go's own stack maximum, Memory and Stack ignored. The parent
	// then guards the machine instead: it kills the child when its
	// resident set passes Guard (default DefaultGuard()), an Exit of
	// kind ExitGuard.
	Uncapped bool   `json:"uncapped,omitempty"`
	Guard    uint64 `json:"guard,omitempty"`
}

// DefaultLimits are the caps of a task whose Limits are zero.
var DefaultLimits = Limits{Memory: 4 << 30, Stack: 64 << 20}

// DefaultGuard is the resident set at which an uncapped child is killed:
// a quarter of the machine's memory, at most 4 GiB (4 GiB where the
// machine's is unknown), room for a goroutine stack at Go's 1 GB maximum
// and the copy the runtime makes when it grows.
func DefaultGuard() uint64 {
	if mem := physicalMemory(); mem > 0 {
		return min(mem/4, 4<<30)
	}
	return 4 << 30
}

// JobLimits returns the caps of a benchmark worker: generous, so that the
// largest datasets of the slowest codecs still fit, and still a cap. Its
// address space may reach the machine's memory (at least 16 GiB, where
// the machine's is unknown 64 GiB): beyond it a run would only swap or
// meet the kernel's out-of-memory killer, which leaves no trace in the
// child. Its stack may reach 256 MiB, a quarter of Go's own limit and
// far beyond what any dataset's nesting needs, so that a codec recursing
// without bound dies quicker.
func JobLimits() Limits {
	mem := physicalMemory()
	if mem == 0 {
		mem = 64 << 30
	}
	return Limits{Memory: max(mem, 16<<30), Stack: 256 << 20}
}

// PhysicalMemory returns the machine's memory in bytes, 0 where the OS
// does not say.
func PhysicalMemory() uint64 { return physicalMemory() }

func (l Limits) orDefault() Limits {
	if l.Uncapped {
		return Limits{Uncapped: true, Guard: cmp.Or(l.Guard, DefaultGuard())}
	}
	return Limits{Memory: cmp.Or(l.Memory, DefaultLimits.Memory), Stack: cmp.Or(l.Stack, DefaultLimits.Stack)}
}

// apply sets the caps on this process; a zero cap is left as it is.
func (l Limits) apply() {
	if l.Stack > 0 {
		debug.SetMaxStack(l.Stack)
	}
	if l.Memory > 0 {
		if err := limitMemory(l.Memory); err != nil {
			fmt.Fprintf(os.Stderr, "serbench worker: %v; running without a memory cap\n", err)
		}
	}
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
	// CPU is the CPU time (user and system) the child used, where the OS
	// reports it.
	CPU time.Duration
	// Wall is the wall time from the child's start to its end, by the
	// parent's clock: what the task cost the pool, for an estimate.
	Wall time.Duration
}

// guardEvery is how often the parent reads an uncapped child's resident
// set.
const guardEvery = 50 * time.Millisecond

// startGrace is the time a task's child has, beyond the step timeout, to
// start (a race-detector build on a loaded machine takes seconds).
const startGrace = 10 * time.Second

// RunRounds runs tasks in rounds until round returns none: each round's
// tasks, each in a child of its own, with round's done called as each
// ends. A study whose child an input killed, or whose cells a child left
// unfinished, gives those cells again in the next round, from past the
// input that killed it; cells whose outcomes are all in are left out. It
// returns the first error that ends a round (ctx's when cancelled).
func (p *Pool) RunRounds(ctx context.Context, round func() (tasks []Task, done func(i int, r TaskResult))) error {
	for {
		tasks, done := round()
		if len(tasks) == 0 {
			return nil
		}
		if _, err := p.RunTasksEach(ctx, tasks, done); err != nil {
			return err
		}
	}
}

// DefaultTaskTimeout is how long a task's child may stay in one step
// before it is killed as hung.
const DefaultTaskTimeout = 10 * time.Second

// RunTasks runs each task in a child process of its own, at most
// Parallel at a time, and returns their results in task order. The pool
// survives whatever a task does to its child. It returns ctx's error when
// cancelled, with the results finished so far (the others zero).
func (p *Pool) RunTasks(ctx context.Context, tasks []Task) ([]TaskResult, error) {
	return p.RunTasksEach(ctx, tasks, nil)
}

// RunTasksEach is RunTasks calling done, if not nil, with each task's
// index and result as the task ends (one call at a time), so that a study
// records a cell and reports progress while the others still run.
func (p *Pool) RunTasksEach(ctx context.Context, tasks []Task, done func(i int, r TaskResult)) ([]TaskResult, error) {
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
			began := time.Now()
			r, err := p.runTask(ctx, tasks[i])
			r.Wall = time.Since(began)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				return
			}
			out[i] = r
			if done != nil {
				done(i, r)
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
	w, err := p.spawn(request{Task: &t, Limits: t.Limits})
	if err != nil {
		return TaskResult{}, err
	}
	timeout := cmp.Or(t.Timeout, p.TaskTimeout, DefaultTaskTimeout)
	// Starting is not a step: a child has startGrace more before its first.
	timer := time.NewTimer(timeout + startGrace)
	defer timer.Stop()
	pid := w.cmd.Process.Pid
	// The child's usage at its last step and at the parent's last look:
	// what a quiet child is judged by (judgeStall).
	atStep := machine.ReadUsage(pid)
	atStep.At = atStep.At.Add(startGrace)
	last := atStep
	var guard <-chan time.Time
	if t.Limits.Uncapped {
		tick := time.NewTicker(guardEvery)
		defer tick.Stop()
		guard = tick.C
	}
	var res TaskResult
	var done *taskEnd
	var killed *Exit // the parent's reason for killing the child
	kill := func(e *Exit) {
		if killed == nil {
			killed = e
			w.kill()
		}
	}
loop:
	for {
		select {
		case m, ok := <-w.events:
			if !ok {
				break loop
			}
			switch {
			case killed != nil:
			case m.err != nil:
				kill(&Exit{Kind: ExitProtocol, Detail: "an event that is not one: " + m.err.Error()})
			case m.e.Beat != nil:
				res.Step = m.e.Beat.Step
				atStep = machine.ReadUsage(pid)
				last = atStep
				timer.Reset(timeout)
			case m.e.Task != nil:
				done = m.e.Task
			}
			if m.err == nil && m.e.Task != nil {
				w.ack() // the child waits for it to exit
			}
		case <-timer.C:
			if killed == nil {
				now := machine.ReadUsage(pid)
				st := judgeStall(atStep, last, now, timeout)
				last = now
				if st.kill != nil {
					kill(st.kill)
				} else {
					timer.Reset(st.next)
				}
			}
		case <-guard:
			if u := machine.ReadUsage(pid); u.OK && u.RSS > t.Limits.Guard && killed == nil {
				kill(&Exit{Kind: ExitGuard, Detail: fmt.Sprintf("resident set %d MiB passed the %d MiB guard of a child without caps; killed", u.RSS>>20, t.Limits.Guard>>20)})
			}
		case <-ctx.Done():
			w.abandon()
			return TaskResult{}, ctx.Err()
		}
	}
	waitErr, peak := w.wait()
	res.PeakRSS, res.CPU = peak, cpuTime(w.cmd)
	switch {
	case killed != nil:
		killed.Stderr, killed.PeakRSS = w.stderr.String(), peak
		res.Exit = killed
	case done != nil:
		res.Output, res.Err = done.Output, done.Error
	default:
		res.Exit = w.exit(waitErr, peak)
	}
	return res, nil
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
		w.end(event{Task: &taskEnd{Error: err.Error()}})
		return err
	}
	out, err := h.Run(ctx, t.Input, func(step string) { w.write(event{Beat: &beat{Step: step}}) })
	e := &taskEnd{Output: out}
	if err != nil {
		e.Error = err.Error()
	}
	w.end(event{Task: e})
	return nil
}
