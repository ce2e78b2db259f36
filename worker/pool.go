package worker

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// A Pool measures jobs in worker processes, one group of jobs (see
// runner.Groups) at a time, and survives whatever a codec does to its
// worker.
type Pool struct {
	// Options are the runner options each worker measures with.
	Options runner.Options
	// Timeout is how long a worker may go without a beat before it is
	// killed as hung. Default DefaultTimeout.
	Timeout time.Duration
	// Command returns the command that starts a worker. Default: this
	// executable with the argument "worker".
	Command func() *exec.Cmd
	// Progress, if set, is called after each job, as runner.Runner's.
	Progress func(runner.Event)
	// Finished, if set, is called with each benchmark's result the moment
	// it is final.
	Finished func(job *runner.Job, res results.Result)
	// Waiting, if set, is called about every WaitEvery while a worker has
	// not beaten for that long: the cell it is in and how long it has
	// been quiet.
	Waiting func(cell string, quiet, timeout time.Duration)
	// WaitEvery is how often Waiting is called. Default 10s.
	WaitEvery time.Duration

	// Parallel is how many task children RunTasks runs at once. Default 1.
	Parallel int
	// TaskTimeout is how long a task's child may stay in one step before
	// it is killed as hung. Default DefaultTaskTimeout.
	TaskTimeout time.Duration
	// TaskDone, if set, is called after each task RunTasks finishes, with
	// its index.
	TaskDone func(i int, r TaskResult)

	mu     sync.Mutex
	probes []float64
	peak   results.Memory
	starts int
}

// DefaultTimeout is the default hang timeout: one step of the slowest
// codecs on the largest values (a YAML decode of 69,000 Bigs) can take a
// minute on a busy machine. A worker beats before every step, and during
// long ones, so the timeout does not grow with the budget.
const DefaultTimeout = 2 * time.Minute

// Machine describes the machine probes of every worker so far.
func (p *Pool) Machine() results.Machine {
	p.mu.Lock()
	defer p.mu.Unlock()
	return runner.MachineOf(p.probes)
}

// Peak returns the highest heap and resident set size of any worker.
func (p *Pool) Peak() results.Memory {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}

// Starts returns how many worker processes the pool has started.
func (p *Pool) Starts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.starts
}

// Run measures the jobs, each group in worker processes, and returns
// their results in job order. When ctx is cancelled, Run kills the worker
// and returns the results of the jobs finished so far with ctx's error.
func (p *Pool) Run(ctx context.Context, jobs []runner.Job) ([]results.Result, error) {
	if err := p.Options.Validate(); err != nil {
		return nil, err
	}
	var out []results.Result
	start := time.Now()
	done := 0
	plan := p.Options.Plan(jobs)
	for _, g := range runner.Groups(jobs, p.Options.NoInterleave) {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		// A worker measures its group with the group's share of the
		// run's time as its budget; it plans nothing itself.
		opts := p.Options
		opts.Total = 0
		if plan != nil {
			opts.Budget = plan.Budget(runner.Benchmarks(g))
		}
		res, err := p.runGroup(ctx, opts, g, func(job *runner.Job, rs []results.Result) {
			done++
			if p.Progress != nil {
				p.Progress(runner.Event{Done: done, Total: len(jobs), Job: job, Results: rs, Elapsed: time.Since(start)})
			}
		})
		for _, rs := range res {
			out = append(out, rs...)
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// A cell is where a worker is: a job of its request and an op ("" while
// the job is prepared), at a step.
type cell struct {
	job  int
	op   results.Op
	step string
}

// runGroup measures one group, starting a new worker after each crash or
// hang until every job has its results. finished is called per job.
func (p *Pool) runGroup(ctx context.Context, opts runner.Options, group []*runner.Job, finished func(*runner.Job, []results.Result)) ([][]results.Result, error) {
	got := make([]map[results.Op]results.Result, len(group))
	for k := range got {
		got[k] = map[results.Op]results.Result{}
	}
	remaining := func(k int) []results.Op {
		var ops []results.Op
		for _, op := range group[k].Ops {
			if _, ok := got[k][op]; !ok {
				ops = append(ops, op)
			}
		}
		return ops
	}
	record := func(k int, res results.Result) {
		if _, dup := got[k][res.Op]; dup {
			return
		}
		got[k][res.Op] = res
		if p.Finished != nil {
			p.Finished(group[k], res)
		}
		if len(remaining(k)) == 0 {
			finished(group[k], p.ordered(group[k], got[k]))
		}
	}
	for {
		// The jobs still to measure, as Specs, and where each came from.
		var specs []Spec
		var from []int
		for k, job := range group {
			if ops := remaining(k); len(ops) > 0 {
				s := SpecOf(job)
				s.Ops = ops
				specs = append(specs, s)
				from = append(from, k)
			}
		}
		if len(specs) == 0 {
			break
		}
		before := 0
		for k := range got {
			before += len(got[k])
		}
		c, err := p.runWorker(ctx, opts, specs, func(i int, res results.Result) { record(from[i], res) })
		if err != nil {
			return p.partial(group, got), err
		}
		if c == nil {
			after := 0
			for k := range got {
				after += len(got[k])
			}
			if after > before {
				continue // a clean end; any job left gets a new worker
			}
			// A clean end without a result would loop forever.
			c = &crash{at: cell{step: "prepare"}, kind: "ended without its results"}
		}
		// The culprit is the cell the worker last reported; a worker that
		// died before its first beat blames the first job it was given.
		// Each crash settles at least one benchmark, so the loop ends.
		k := from[min(max(c.at.job, 0), len(from)-1)]
		ops := remaining(k)
		if c.at.op != "" && slices.Contains(ops, c.at.op) {
			ops = []results.Op{c.at.op}
		}
		for _, op := range ops {
			res := group[k].Results(results.Error, c.reason())[0]
			res.Op = op
			record(k, res)
		}
	}
	return p.partial(group, got), nil
}

// ordered returns a job's results in the order of its ops.
func (p *Pool) ordered(job *runner.Job, got map[results.Op]results.Result) []results.Result {
	var rs []results.Result
	for _, op := range job.Ops {
		if r, ok := got[op]; ok {
			rs = append(rs, r)
		}
	}
	return rs
}

// partial returns the results of the group's finished jobs, nil for the
// others.
func (p *Pool) partial(group []*runner.Job, got []map[results.Op]results.Result) [][]results.Result {
	out := make([][]results.Result, len(group))
	for k, job := range group {
		if len(got[k]) == len(job.Ops) {
			out[k] = p.ordered(job, got[k])
		}
	}
	return out
}

// A crash is how a worker ended before its jobs did.
type crash struct {
	at     cell
	kind   string // "stack overflow", "out of memory", "hang", ...
	detail string // the end of the worker's stderr, or what the pool saw
}

func (c *crash) reason() string {
	where := c.at.step
	if c.at.op != "" {
		where += " " + string(c.at.op)
	}
	if c.kind == "hang" {
		return fmt.Sprintf("hung while %s: %s; the worker was killed and the run went on", stepName(where), c.detail)
	}
	msg := fmt.Sprintf("crashed the worker process (%s) while %s; the run went on in a new worker", c.kind, stepName(where))
	if c.detail != "" {
		msg += ". Its stderr ends:\n" + c.detail
	}
	return msg
}

// stepName turns a beat's step into words: "sample decode" to "sampling
// decode".
func stepName(s string) string {
	for _, r := range [][2]string{{"prepare", "preparing (verifying) the job"}, {"calibrate", "calibrating"}, {"sample", "sampling"}, {"check", "checking after timing"}} {
		if rest, ok := strings.CutPrefix(s, r[0]); ok {
			return r[1] + rest
		}
	}
	return s
}

// runWorker runs one worker process on specs, calling record with each
// result. It returns nil when the worker ended cleanly, the crash when it
// did not, or ctx's error when the run was interrupted (the worker is
// killed).
func (p *Pool) runWorker(ctx context.Context, opts runner.Options, specs []Spec, record func(int, results.Result)) (*crash, error) {
	w, err := p.start(opts, specs)
	if err != nil {
		return nil, err
	}
	st, err := p.watch(ctx, w, specs, record)
	if err != nil {
		return nil, err
	}
	return p.outcome(w, st)
}

// A proc is a started worker process: its command, the events it sends
// on their own pipe, and the end of its stderr.
type proc struct {
	cmd    *exec.Cmd
	events <-chan eventMsg
	evR    *os.File
	stderr *tail
}

// An eventMsg is one event read from a worker, or why it could not be.
type eventMsg struct {
	e   event
	err error
}

// start starts a worker process on specs and reads its events.
func (p *Pool) start(opts runner.Options, specs []Spec) (*proc, error) {
	cmd := p.command()
	req, err := json.Marshal(request{Options: opts, Jobs: specs})
	if err != nil {
		return nil, err
	}
	cmd.Stdin = strings.NewReader(string(req))
	stderr := &tail{}
	cmd.Stderr = stderr
	cmd.Stdout = io.Discard // a codec's own printing; events have their own pipe
	evR, evW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	cmd.ExtraFiles = []*os.File{evW} // the worker's EventsFD
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		evR.Close()
		evW.Close()
		return nil, fmt.Errorf("worker: starting %s: %w", cmd.Path, err)
	}
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
	return &proc{cmd: cmd, events: events, evR: evR, stderr: stderr}, nil
}

// A watched is what watching a worker saw: the cell it last reported,
// its end event if it sent one, and the crash the watchdog declared (a
// hang or broken events), if any.
type watched struct {
	at    cell
	ended *end
	crash *crash
}

// watch follows a worker's events until its pipe closes: it records the
// results, tracks the cell it works on, says on p.Waiting when it is
// quiet, and kills it when it makes no progress for the timeout or sends
// an event that cannot be read. When ctx ends it kills the worker, waits
// for it and returns ctx's error.
func (p *Pool) watch(ctx context.Context, w *proc, specs []Spec, record func(int, results.Result)) (watched, error) {
	timeout := cmp.Or(p.Timeout, DefaultTimeout)
	st := watched{at: cell{step: "prepare"}}
	lastBeat := time.Now()
	lastWait := lastBeat
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	kill := func() { w.cmd.Process.Kill() }
	for {
		select {
		case m, ok := <-w.events:
			if !ok {
				return st, nil
			}
			lastBeat, lastWait = time.Now(), time.Now()
			switch {
			case m.err != nil:
				st.crash = &crash{at: st.at, kind: "broken events", detail: m.err.Error()}
				kill()
			case m.e.Beat != nil:
				st.at = cell{job: m.e.Beat.Job, op: m.e.Beat.Op, step: m.e.Beat.Step}
			case m.e.Result != nil:
				if i := m.e.Result.Job; i >= 0 && i < len(specs) {
					record(i, m.e.Result.Result)
				}
			case m.e.End != nil:
				st.ended = m.e.End
			}
		case <-tick.C:
			quiet := time.Since(lastBeat)
			if quiet > timeout && st.crash == nil {
				st.crash = &crash{at: st.at, kind: "hang", detail: fmt.Sprintf("no progress for %v (-timeout)", timeout.Round(time.Second))}
				kill()
			} else if p.Waiting != nil && time.Since(lastWait) >= cmp.Or(p.WaitEvery, 10*time.Second) {
				lastWait = time.Now()
				p.Waiting(p.cellName(specs, st.at), quiet.Round(time.Second), timeout)
			}
		case <-ctx.Done():
			kill()
			for range w.events { // drain until the pipe closes
			}
			w.cmd.Wait()
			w.evR.Close()
			return st, ctx.Err()
		}
	}
}

// outcome waits for a watched worker to exit, merges its probes and
// memory into the pool's, and says how it ended: nil for a clean end, the
// crash the watchdog declared or the exit shows, or the error the worker
// reported.
func (p *Pool) outcome(w *proc, st watched) (*crash, error) {
	waitErr := w.cmd.Wait()
	w.evR.Close()
	p.account(w.cmd, st.ended)
	switch {
	case st.crash != nil:
		return st.crash, nil
	case st.ended != nil && st.ended.Error != "" && waitErr == nil:
		return nil, fmt.Errorf("worker: %s", st.ended.Error)
	case st.ended != nil && waitErr == nil:
		return nil, nil
	}
	return &crash{at: st.at, kind: exitKind(waitErr, w.stderr.String()), detail: w.stderr.String()}, nil
}

// cellName names where a worker is, for the heartbeat.
func (p *Pool) cellName(specs []Spec, at cell) string {
	if at.job < 0 || at.job >= len(specs) {
		return "the worker"
	}
	s := specs[at.job]
	name := fmt.Sprintf("%s %s/%s", s.Codec, s.Dataset, s.Shape)
	if at.op != "" {
		name += " " + string(at.op)
	}
	return name + " (" + stepName(at.step) + ")"
}

// account merges a finished worker's probes and memory into the pool's.
func (p *Pool) account(cmd *exec.Cmd, e *end) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e != nil {
		p.probes = append(p.probes, e.Probes...)
		p.peak.HeapBytes = max(p.peak.HeapBytes, e.Peak.HeapBytes)
		p.peak.RSSBytes = max(p.peak.RSSBytes, e.Peak.RSSBytes)
	}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru != nil {
			p.peak.RSSBytes = max(p.peak.RSSBytes, uint64(ru.Maxrss)*1024) // Linux reports KiB
		}
	}
}

// command returns the command that starts a worker.
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
	return &exec.Cmd{Path: exe, Args: []string{os.Args[0], "worker"}}
}

// exitKind classifies how a worker died from its exit and its stderr.
func exitKind(err error, stderr string) string {
	switch {
	case strings.Contains(stderr, "stack overflow") || strings.Contains(stderr, "stack exceeds"):
		return "stack overflow"
	case strings.Contains(stderr, "out of memory"), strings.Contains(stderr, "cannot allocate memory"),
		// How the race detector's runtime fails an allocation it cannot map.
		strings.Contains(stderr, "too many address space collisions for -race mode"):
		return "out of memory"
	case strings.Contains(stderr, "WARNING: DATA RACE"):
		return "data race, reported by the race detector"
	}
	for _, line := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(line, "fatal error: "); ok {
			return "fatal error: " + rest
		}
	}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "panic: ") {
			return "unrecovered panic"
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			if ws.Signal() == syscall.SIGKILL {
				return "killed by SIGKILL: the kernel's out-of-memory killer, or another process"
			}
			return "killed by " + ws.Signal().String()
		}
		return ee.String()
	}
	if err != nil {
		return err.Error()
	}
	return "ended without its results"
}

// A tail keeps the start and the end of a worker's stderr: the first
// lines of a fatal error and the last lines of its trace.
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
