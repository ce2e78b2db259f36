package worker

import (
	"cmp"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// A Pool measures jobs in worker processes, one group of jobs (consecutive
// jobs of one codec, see runner.Groups) at a time, and survives whatever a codec does to its
// worker. It also runs generic Tasks (RunTasks).
type Pool struct {
	// Options are the runner options each worker measures with.
	Options runner.Options
	// Timeout is how much CPU time a worker may spend without a beat
	// before it is killed as hung (or how long it may sit blocked):
	// judgeStall's rule, so a busy machine does not make it a hang.
	// Default DefaultTimeout.
	Timeout time.Duration
	// Command returns the command that starts a child. Default: this
	// executable with the argument CommandName.
	Command func() *exec.Cmd
	// Limits are the caps of a benchmark worker. Default JobLimits().
	Limits Limits
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
	// Isolated runs each child in a new temporary directory of its own,
	// removed when it ends, with HOME and TMPDIR there and no environment
	// but the Go runtime's settings and serbench's own switches: a child
	// that is to know nothing another process left for it (the fresh
	// process that decodes verified encodings) finds none of it where a
	// codec would look.
	Isolated bool
	// Wrap, if set, starts every child under another program (Valgrind,
	// to count instructions), with the same caps, events and checks.
	Wrap Wrapper

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
	return machine.Of(p.probes)
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

// Run measures the jobs, each group in worker processes of its own, and
// returns their results in job order. When ctx is cancelled, Run kills the worker
// and returns the results of the jobs finished so far with ctx's error.
func (p *Pool) Run(ctx context.Context, jobs []runner.Job) ([]results.Result, error) {
	if err := p.Options.Validate(); err != nil {
		return nil, err
	}
	return runner.Schedule(ctx, p.Options, jobs, p.Progress, p.runGroup)
}

// A cell is where a worker is: a job of its request and an op ("" while
// the job is prepared), at a step.
type cell struct {
	job  int
	op   results.Op
	step string
}

// runGroup measures one group, starting a new worker after each crash or
// hang until every job has its results. A benchmark a worker died in is
// run again alone in a fresh worker, and recorded as crashed only when it
// fails there too: a crash another benchmark of the worker caused (memory
// it held, a goroutine it left) costs nothing. A worker that breaks the
// event protocol is not given that second chance: its claim is discarded
// and the benchmark it names (or was in) is recorded with the violation. finished is
// called per job.
//
// Results are recorded as they come, so that a journal keeps them should
// the parent die; a violation later in the worker replaces the result of
// the benchmark it names.
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
	// set records a benchmark's result, in place of any before it: a
	// protocol violation replaces the result a forged line had given.
	set := func(k int, res results.Result) {
		_, had := got[k][res.Op]
		got[k][res.Op] = res
		if p.Finished != nil {
			p.Finished(group[k], res)
		}
		if !had && len(remaining(k)) == 0 {
			finished(group[k], p.ordered(group[k], got[k]))
		}
	}
	record := func(k int, res results.Result) {
		if _, dup := got[k][res.Op]; !dup {
			set(k, res)
		}
	}
	done := func() int {
		n := 0
		for k := range got {
			n += len(got[k])
		}
		return n
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
		before := done()
		c, err := p.runWorker(ctx, opts, specs, func(i int, res results.Result) { record(from[i], res) })
		if err != nil {
			return p.partial(group, got), err
		}
		if c == nil {
			if done() > before {
				continue // a clean end; any job left gets a new worker
			}
			// A clean end without a result would loop forever.
			c = &crash{at: cell{step: "prepare"}, exit: &Exit{Kind: ExitOther, Detail: "the worker ended without its results"}}
		}
		// The culprit is the cell the worker last reported; a worker that
		// died before its first beat blames the first job it was given.
		k := from[min(max(c.at.job, 0), len(from)-1)]
		if c.exit.Kind == ExitProtocol {
			// The violation is recorded at once, over any result the
			// violating line or one before it gave the benchmark.
			ops := remaining(k)
			if c.at.op != "" && slices.Contains(group[k].Ops, c.at.op) {
				ops = []results.Op{c.at.op}
				// Each violation settles a benchmark, so the loop ends.
				if _, had := got[k][c.at.op]; had && done() == before {
					ops = append(ops, remaining(k)...)
				}
			}
			for _, op := range ops {
				res := group[k].Results(results.Error, c.reason())[0]
				res.Op = op
				set(k, res)
			}
			continue
		}
		ops := remaining(k)
		if c.at.op != "" && slices.Contains(ops, c.at.op) {
			ops = []results.Op{c.at.op}
		}
		alone := len(specs) == 1 && len(specs[0].Ops) == len(ops)
		if !alone {
			again, err := p.alone(ctx, opts, group[k], ops, func(res results.Result) { record(k, res) })
			if err != nil {
				return p.partial(group, got), err
			}
			if again == nil {
				continue // it was another benchmark's doing
			}
			c = again
		} else {
			c.alone = alone
		}
		for _, op := range remaining(k) {
			if slices.Contains(ops, op) {
				res := group[k].Results(results.Error, c.reason())[0]
				res.Op = op
				if p.Wrap != nil {
					res = p.Wrap.Crashed(res)
				}
				record(k, res)
			}
		}
	}
	return p.partial(group, got), nil
}

// alone runs the benchmarks ops of job alone in a fresh worker, recording
// what it measures. It returns the crash when one of them fails again,
// nil when all were measured.
func (p *Pool) alone(ctx context.Context, opts runner.Options, job *runner.Job, ops []results.Op, record func(results.Result)) (*crash, error) {
	s := SpecOf(job)
	s.Ops = ops
	got := 0
	c, err := p.runWorker(ctx, opts, []Spec{s}, func(_ int, res results.Result) {
		got++
		record(res)
	})
	if err != nil || c != nil {
		return c, err
	}
	if got < len(ops) {
		return &crash{at: cell{step: "prepare"}, exit: &Exit{Kind: ExitOther, Detail: "the worker ended without its results"}}, nil
	}
	return nil, nil
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

// partial returns the results the group's jobs have so far, in their
// ops' order (nil for a job with none): an interrupted run keeps every
// benchmark it measured, a job's encode without its decode too.
func (p *Pool) partial(group []*runner.Job, got []map[results.Op]results.Result) [][]results.Result {
	out := make([][]results.Result, len(group))
	for k, job := range group {
		out[k] = p.ordered(job, got[k])
	}
	return out
}

// A crash is how a worker ended before its jobs did: where, and how it
// died.
type crash struct {
	at    cell
	exit  *Exit
	alone bool // the benchmark was alone in its worker the first time: no second run
}

func (c *crash) reason() string {
	where := c.at.step
	if c.at.op != "" {
		where += " " + string(c.at.op)
	}
	switch c.exit.Kind {
	case ExitTimeout:
		return fmt.Sprintf("hung while %s: %s; the worker was killed and the run went on", stepName(where), c.exit.Detail)
	case ExitProtocol:
		return fmt.Sprintf("protocol violation while %s: %s; the worker was killed, its claim discarded, and the run went on", stepName(where), c.exit.Detail)
	}
	again := ", and again alone in a fresh worker"
	if c.alone {
		again = ", alone in its worker"
	}
	msg := fmt.Sprintf("crashed the worker process (%s) while %s%s; the run went on in a new worker", c.exit, stepName(where), again)
	if c.exit.Stderr != "" {
		msg += ". Its stderr ends:\n" + c.exit.Stderr
	}
	return msg
}

// stepName turns a beat's step into words: "sample decode" to "sampling
// decode".
func stepName(s string) string {
	for _, r := range [][2]string{{"prepare", "preparing (verifying) the job"}, {"calibrate", "calibrating"}, {"sample", "sampling"}, {"timed", "sampling"}, {"verify", "verifying a timed call"}, {"check", "checking after timing"}} {
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
	w, err := p.spawn(request{Options: opts, Jobs: specs, Limits: p.jobLimits(specs)})
	if err != nil {
		return nil, err
	}
	st, err := p.watch(ctx, opts, w, specs, record)
	if err != nil {
		return nil, err
	}
	return p.outcome(w, st)
}

// jobLimits returns the caps of a worker on specs: the pool's Limits, or
// JobLimits, with room for the memory any job sets aside.
func (p *Pool) jobLimits(specs []Spec) Limits {
	l := p.Limits
	if l == (Limits{}) {
		l = JobLimits()
	}
	l = l.orDefault()
	for _, s := range specs {
		l.Memory = max(l.Memory, 2*s.MinMemory)
	}
	return l
}

// A watched is what watching a worker saw: the cell it last reported,
// its end event if it sent one, and the crash the watchdog declared (a
// hang, broken events or a claim it cannot believe), if any.
type watched struct {
	at    cell
	ended *end
	crash *crash
}

// watch follows a worker's events until its pipe closes: it keeps the
// results it believes (see claims.check), tracks the cell the worker is in, says
// on p.Waiting when it is quiet, and kills it when it makes no progress
// for the timeout or breaks the protocol. When ctx ends it kills the
// worker, waits for it and returns ctx's error.
func (p *Pool) watch(ctx context.Context, opts runner.Options, w *proc, specs []Spec, record func(int, results.Result)) (watched, error) {
	timeout := cmp.Or(p.Timeout, DefaultTimeout)
	st := watched{at: cell{job: -1, step: "prepare"}}
	lastBeat := time.Now()
	lastWait := lastBeat
	// The worker's usage near its last beat (read at the first tick after
	// it, stale until then) and at the parent's last look: what a quiet
	// worker is judged by, as a task's child is (judgeStall), so that a
	// busy machine slows a worker without making it a hang.
	pid := w.cmd.Process.Pid
	var atBeat, last machine.Usage
	stale := true
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	cl := &claims{seen: map[string]bool{}}
	if p.Wrap == nil && !opts.Count {
		// Under Valgrind, or counting, a sample is not the worker's time.
		cl.clock = func() (time.Duration, time.Time, bool) {
			cpu, ok := machine.ProcessCPU(pid)
			return cpu, time.Now(), ok
		}
	}
	violate := func(why string, op results.Op) {
		if st.crash == nil {
			st.crash = &crash{at: st.at, exit: &Exit{Kind: ExitProtocol, Detail: why}}
			if op != "" {
				st.crash.at.op = op
			}
			w.kill()
		}
	}
	for {
		select {
		case m, ok := <-w.events:
			if !ok {
				if st.at.job < 0 {
					st.at.job = 0
				}
				return st, nil
			}
			lastBeat, lastWait = time.Now(), time.Now()
			stale = true
			cl.spend(st.at)
			switch {
			case st.crash != nil:
				// Nothing a killed worker still says is believed.
			case m.err != nil:
				violate("an event that is not one: "+m.err.Error(), "")
			case m.e.Beat != nil:
				if b := m.e.Beat; b.Job < 0 || b.Job >= len(specs) {
					violate(fmt.Sprintf("a beat for job %d of a worker given %d", b.Job, len(specs)), "")
				} else {
					st.at = cell{job: b.Job, op: b.Op, step: b.Step}
				}
			case m.e.Result != nil:
				if why, op := cl.check(specs, st.at.job, m.e.Result, time.Since(w.started)); why != "" {
					violate(why, op)
				} else {
					cl.judge(m.e.Result)
					record(m.e.Result.Job, m.e.Result.Result)
				}
			case m.e.End != nil:
				st.ended = m.e.End
			}
			if m.err == nil && m.e.End != nil {
				w.ack() // the child waits for it to exit
			}
		case <-tick.C:
			if stale {
				atBeat, stale = machine.ReadUsage(pid), false
				atBeat.At, last = lastBeat, atBeat
			}
			quiet := time.Since(lastBeat)
			if quiet > timeout && st.crash == nil {
				now := machine.ReadUsage(pid)
				if j := judgeStall(atBeat, last, now, timeout); j.kill != nil {
					j.kill.Detail = fmt.Sprintf("no progress for %v (-timeout %v): %s", quiet.Round(time.Second), timeout.Round(time.Second), j.kill.Detail)
					st.crash = &crash{at: st.at, exit: j.kill}
					w.kill()
				}
				last = now
			}
			if st.crash == nil && p.Waiting != nil && time.Since(lastWait) >= cmp.Or(p.WaitEvery, 10*time.Second) {
				lastWait = time.Now()
				p.Waiting(p.cellName(specs, st.at), quiet.Round(time.Second), timeout)
			}
		case <-ctx.Done():
			w.abandon()
			return st, ctx.Err()
		}
	}
}

// claims is what a worker has claimed so far: the benchmarks it sent a
// result for and the time their samples add up to; and what the parent
// saw it spend, on clocks of its own, in each benchmark's sampling.
type claims struct {
	seen    map[string]bool
	sampled time.Duration
	// clock reads the worker's CPU time (the kernel's clock of the
	// process) and the parent's wall clock; nil where neither is held to.
	clock func() (cpu time.Duration, wall time.Time, ok bool)
	last  struct {
		cpu  time.Duration
		wall time.Time
		ok   bool
	}
	spent map[cell]spending
}

// spending is what the worker spent in a cell, by the parent's clocks.
type spending struct{ cpu, wall time.Duration }

// spend charges what the worker spent since the last event to at, the
// cell it was in: the worker beats step "timed" as each sample's batches
// start and "sample" as they end (runner.Runner.Beat), so a benchmark's
// timed cells hold its samples and nothing of the untimed work around
// them (a collection before a sample, the wait for a cycle's end, the
// waits for a quiet machine) nor of another benchmark's.
func (c *claims) spend(at cell) {
	if c.clock == nil {
		return
	}
	cpu, wall, ok := c.clock()
	if ok && c.last.ok && at.step == "timed" {
		if c.spent == nil {
			c.spent = map[cell]spending{}
		}
		s := c.spent[at]
		s.cpu += cpu - c.last.cpu
		s.wall += wall.Sub(c.last.wall)
		c.spent[at] = s
	}
	c.last.cpu, c.last.wall, c.last.ok = cpu, wall, ok
}

// judge records, on a believed result, what the parent saw the worker
// spend in its timed steps, and flags a figure whose samples (those set
// aside too) add up to less than tooFastRatio of it: the worker's
// figures were scaled down on their way to the parent. What a timed step
// spent is the lesser of its wall time and the worker's CPU time in it:
// the samples are their steps' wall time (so a codec on several threads,
// or a loop on several goroutines, Result.Procs, uses more CPU time than
// that), and on a busy machine the parent reads its wall clock late, by
// as much as a sample at times, while the worker, not running, spends no
// CPU time. So a figure scaled by k is caught only while the worker gets
// more than 2/k of a CPU.
func (c *claims) judge(r *result) {
	if c.clock == nil {
		return
	}
	res := &r.Result
	s, ok := c.spent[cell{job: r.Job, op: res.Op, step: "timed"}]
	if !ok || len(res.Samples) == 0 {
		return
	}
	res.SamplingCPUNs, res.SamplingWallNs = float64(s.cpu.Nanoseconds()), float64(s.wall.Nanoseconds())
	claimed := time.Duration(res.BusyNs)
	for _, smp := range res.Samples {
		claimed += time.Duration(float64(smp.Iters) * smp.NsPerOp)
	}
	spent := min(s.wall, s.cpu)
	if spent < tooFastFloor || float64(claimed) >= tooFastRatio*float64(spent) || res.Flagged != "" {
		return
	}
	res.Flagged = fmt.Sprintf("its samples add up to %v, where the worker spent %v in them by serbench's own clocks (%v of CPU time, %v of wall time): %.2g of it; "+
		"a figure below the time spent measuring it was scaled down in the worker", claimed.Round(time.Microsecond), spent.Round(time.Microsecond),
		s.cpu.Round(time.Microsecond), s.wall.Round(time.Microsecond), float64(claimed)/float64(spent))
}

// A figure is flagged when its samples add up to less than tooFastRatio
// of what the worker spent in their timed steps, and that is
// tooFastFloor or more (a 20ms floor left nine in ten of a -budget 20ms
// run's results on a busy machine unjudged). The samples are their timed steps but for the
// verified iterations' pauses (notes/noise-log.md has honest codecs'
// ratios).
const (
	tooFastRatio = 0.5
	tooFastFloor = 2 * time.Millisecond
)

// wallSlack is what the samples of a worker may add up to beyond its wall
// time: a clock read on each side of a pipe.
const wallSlack = 100 * time.Millisecond

// check says why a result line cannot be believed, or "": it must name
// the job the worker last said it was in (by index, codec, dataset and
// shape), one of the ops the worker was given, for the first time, and
// the samples of every result so far must fit in the worker's wall time.
// For a second result, it also returns the op named twice: the first
// result for it, believed then, is not to be kept.
func (c *claims) check(specs []Spec, running int, r *result, wall time.Duration) (string, results.Op) {
	if r.Job < 0 || r.Job >= len(specs) {
		return fmt.Sprintf("a result for job %d of a worker given %d", r.Job, len(specs)), ""
	}
	s, res := specs[r.Job], r.Result
	named := fmt.Sprintf("%s %s/%s%s %s", res.Codec, res.Dataset, res.Shape, results.ProcsSuffix(res.Procs), res.Op)
	switch {
	case res.Codec != s.Codec || res.Dataset != s.Dataset || res.Shape != s.Shape || res.Procs != s.Procs:
		return fmt.Sprintf("a result naming %s for job %d, which is %s", named, r.Job, specName(specs, r.Job)), ""
	case r.Job != running:
		return fmt.Sprintf("a result for %s while the worker was in %s", named, specName(specs, running)), ""
	case !slices.Contains(s.Ops, res.Op):
		return fmt.Sprintf("a result for %s, an op the worker was not given", named), ""
	case c.seen[named]:
		return fmt.Sprintf("a second result for %s", named), res.Op
	}
	c.seen[named] = true
	for _, smp := range res.Samples {
		c.sampled += time.Duration(float64(smp.Iters) * smp.NsPerOp)
	}
	if c.sampled > wall+wall/10+wallSlack {
		return fmt.Sprintf("results whose samples add up to %v from a worker that has run for %v", c.sampled.Round(time.Millisecond), wall.Round(time.Millisecond)), res.Op
	}
	return "", ""
}

// specName names a job of specs.
func specName(specs []Spec, i int) string {
	if i < 0 || i >= len(specs) {
		return "no job yet"
	}
	return fmt.Sprintf("%s %s/%s%s", specs[i].Codec, specs[i].Dataset, specs[i].Shape, results.ProcsSuffix(specs[i].Procs))
}

// outcome waits for a watched worker to exit, merges its probes and
// memory into the pool's, and says how it ended: nil for a clean end, the
// crash the watchdog declared or the exit shows, or the error the worker
// reported.
func (p *Pool) outcome(w *proc, st watched) (*crash, error) {
	waitErr, peak := w.wait()
	p.account(peak, st.ended)
	switch {
	case st.crash != nil:
		st.crash.exit.Stderr, st.crash.exit.PeakRSS = w.stderr.String(), peak
		if st.crash.exit.Kind == ExitProtocol {
			st.crash.exit.Stderr = ""
		}
		return st.crash, nil
	case st.ended != nil && st.ended.Error != "" && waitErr == nil:
		return nil, fmt.Errorf("worker: %s", st.ended.Error)
	case st.ended != nil && waitErr == nil:
		return nil, nil
	}
	return &crash{at: st.at, exit: w.exit(waitErr, peak)}, nil
}

// cellName names where a worker is, for the heartbeat.
func (p *Pool) cellName(specs []Spec, at cell) string {
	if at.job < 0 || at.job >= len(specs) {
		return "the worker"
	}
	name := specName(specs, at.job)
	if at.op != "" {
		name += " " + string(at.op)
	}
	return name + " (" + stepName(at.step) + ")"
}

// account merges a finished worker's probes and memory into the pool's.
func (p *Pool) account(peak uint64, e *end) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e != nil {
		p.probes = append(p.probes, e.Probes...)
		p.peak.HeapBytes = max(p.peak.HeapBytes, e.Peak.HeapBytes)
		p.peak.RSSBytes = max(p.peak.RSSBytes, e.Peak.RSSBytes)
	}
	p.peak.RSSBytes = max(p.peak.RSSBytes, peak)
}
