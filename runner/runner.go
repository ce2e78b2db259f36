package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/results"
)

// A Job is one codec on one value: it yields a Result per op.
type Job struct {
	Codec   codec.Info
	Dataset string // name for reports; any label for a user's own type
	Shape   string
	Items   int // dataset elements in the value, for per-item figures
	Ops     []results.Op
	// Value builds a fresh pointer to the value. It is called twice: once
	// for the codec and once for the reference that verification compares
	// against, so a codec that mutates its input is caught.
	Value func() (any, error)
	// Alt, if set, builds a second value of the same type, distinct from
	// Value's: without ValueAt, the pool the benchmarks time is Value's
	// and Alt's, so that a codec returning its input, a cache or a memo
	// of one value fails.
	Alt func() (any, error)
	// ValueAt, if set, builds build k (k >= 0) of the value, a fresh
	// pointer each call: build 0 equals Value's, every other differs from
	// it and from the others, with the same type. The benchmarks time a
	// pool of builds (up to PoolSize, fewer of a large value) in an order
	// drawn for each sample; without ValueAt the pool is Value's and
	// Alt's.
	ValueAt func(k int) (any, error)
	// Procs, if set, is the GOMAXPROCS the job's benchmarks run at, each
	// on as many goroutines (see parallelLoop): go test -cpu's. 0 runs one
	// goroutine at the process's GOMAXPROCS.
	Procs int
	// Skip, if set, records the job as skipped with this reason.
	Skip string
	// Reads, if set, are the paths the get ops read from the single
	// value (dataset.Dataset.Reads), written "a.3.b".
	Reads []string
	// MinMemory, if set, is the memory (bytes) the OS must report available
	// before the job starts; with less the job is skipped, not run into an
	// out-of-memory kill.
	MinMemory uint64
}

// builds returns the function that builds build k of the job's value:
// ValueAt, or Value for build 0 and Alt for the others.
func (job *Job) builds() func(int) (any, error) {
	if job.ValueAt != nil {
		return job.ValueAt
	}
	return func(k int) (any, error) {
		if k == 0 || job.Alt == nil {
			return job.Value()
		}
		return job.Alt()
	}
}

// poolOf returns how many builds the job's pool holds, its first message
// being size bytes.
func (job *Job) poolOf(size int) int {
	switch {
	case job.ValueAt != nil:
		return poolSize(size)
	case job.Alt != nil:
		return 2
	}
	return 1
}

// An Event reports progress: Done of Total jobs finished, the last with
// these Results.
type Event struct {
	Done, Total int
	Job         *Job
	Results     []results.Result
	Elapsed     time.Duration
	// Refining says the event is of a run's refining pass (package
	// measure), which samples contested benchmarks again; Done and Total
	// then count that pass's jobs.
	Refining bool
	// Counting says the event is of a run's count pass after timing
	// (run -measure both); Done and Total then count that pass's jobs.
	// An event of it without a Job says the pass begins.
	Counting bool
}

// A Runner measures jobs.
type Runner struct {
	opts Options
	// Progress, if set, is called after each job.
	Progress func(Event)
	// Finished, if set, is called with each benchmark's result the moment
	// it is final, before the rest of its job or group: a journal
	// appends it there.
	Finished func(job *Job, res results.Result)
	// Beat, if set, is called before each step that runs codec code
	// (preparing a job, calibrating, each visit to a benchmark's samples,
	// the checks after timing), with the benchmark's op ("" while the
	// whole job is prepared): a supervising process learns where a codec
	// that crashes or hangs was.
	Beat      func(job *Job, op results.Op, step string)
	lastBeat  atomic.Pointer[beatAt]
	peakHeap  atomic.Uint64
	gauge     *machine.Gauge // nil without Gate
	meter     *machine.Meter // the machine's speed over the run
	warmed    sync.Once      // the gauge learns the machine's speed before the first sample
	timerOnce sync.Once
	timer     float64 // the cost of reading the clock, in ns (timerCost)
	// now is the clock that times batches, samples and budgets: time.Now,
	// or a test's, so that what the test asserts of them does not depend
	// on the machine's speed.
	now func() time.Time
}

// Peak returns the highest heap in use seen between samples, and the
// process's peak resident set size where the OS reports it.
func (r *Runner) Peak() results.Memory {
	return results.Memory{HeapBytes: r.peakHeap.Load(), RSSBytes: peakRSS()}
}

// Machine describes how steadily the machine ran during the runner's
// sampling so far: a probe timed about every 10ms between samples.
func (r *Runner) Machine() results.Machine { return r.meter.Summary() }

// Probes returns the times of the machine probes taken so far, in ns, for
// a supervisor that merges several runners' (MachineOf).
func (r *Runner) Probes() []float64 { return r.meter.Probes() }

// New returns a Runner with the given options.
func New(opts Options) (*Runner, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	r := &Runner{opts: opts.withDefaults(), meter: machine.NewMeter(), now: time.Now}
	if r.opts.Gate {
		r.gauge = machine.NewGauge(r.opts.GateTolerance)
	}
	return r, nil
}

// Options returns the runner's options with defaults filled in.
func (r *Runner) Options() Options { return r.opts }

// Run runs the jobs, group by group (see Groups), with Options.LiveHeap
// kept alive throughout: the benchmarks of a group, one codec's, are
// sampled interleaved, one sample of each in a shuffled order, round after
// round, so that a slow phase of a noisy machine falls on all of them
// alike (Google Benchmark's random interleaving). Jobs that need memory
// set aside (MinMemory) run alone, and a job whose encoding is LargeBytes
// or more is sampled on its own as soon as it is prepared.
//
// It returns the results in job order. When ctx is cancelled Run stops
// and returns the results of the jobs finished so far with ctx's error.
func (r *Runner) Run(ctx context.Context, jobs []Job) ([]results.Result, error) {
	live := newLiveHeap(r.opts.LiveHeap)
	defer runtime.KeepAlive(live)
	all := r.opts
	defer func() { r.opts = all }()
	return Schedule(ctx, all, jobs, r.Progress, func(ctx context.Context, o Options, g []*Job, finished func(*Job, []results.Result)) ([][]results.Result, error) {
		r.opts = o
		return r.runGroup(ctx, g, finished)
	})
}

// Place puts the results of a group's jobs at those jobs' indices in
// jobs.
func Place(byJob [][]results.Result, jobs []Job, group []*Job, res [][]results.Result) {
	for k, j := range group {
		if k < len(res) && res[k] != nil {
			byJob[indexOf(jobs, j)] = res[k]
		}
	}
}

// indexOf returns the index in jobs of a pointer into it.
func indexOf(jobs []Job, j *Job) int {
	for i := range jobs {
		if &jobs[i] == j {
			return i
		}
	}
	panic("runner: a group's job is not one of the run's jobs")
}

// Groups splits jobs into the groups Run samples interleaved: runs of
// consecutive jobs of one codec. A codec is measured in a process of its
// own (worker), never beside a rival, so that one that hogs memory or the
// cache, or kills its process, costs no rival anything; and the groups
// keep the order of the jobs, which a run with a whole-run time chooses
// (smallest values first). A job with MinMemory, or every job when alone
// is set (Options.NoInterleave), is a group of its own.
func Groups(jobs []Job, alone bool) [][]*Job {
	var gs [][]*Job
	for i := range jobs {
		j := &jobs[i]
		if n := len(gs); n > 0 && !alone && j.MinMemory == 0 {
			last := gs[n-1][len(gs[n-1])-1]
			if last.MinMemory == 0 && last.Codec.Name == j.Codec.Name {
				gs[n-1] = append(gs[n-1], j)
				continue
			}
		}
		gs = append(gs, []*Job{j})
	}
	return gs
}

// Benchmarks counts the benchmarks (ops) of a group of jobs.
func Benchmarks(group []*Job) int {
	n := 0
	for _, j := range group {
		n += len(j.Ops)
	}
	return n
}

// plan returns the Plan of a run of jobs with a whole-run time, or nil.
func (o Options) plan(jobs []Job) *Plan {
	if o.Total <= 0 {
		return nil
	}
	n := 0
	for i := range jobs {
		n += len(jobs[i].Ops)
	}
	return NewPlan(o.Total, n, o.Budget)
}

// Plan returns the Plan of a run of jobs under o, or nil when o sets no
// whole-run time (Total): for a supervisor that runs groups elsewhere.
func (o Options) Plan(jobs []Job) *Plan { return o.WithDefaults().plan(jobs) }

// LargeBytes is the encoded size from which a job is sampled on its own
// rather than interleaved with the rest of its group.
const LargeBytes = 4 << 20

// RunJob verifies and measures one job on its own. If ctx is cancelled
// first, the results say "interrupted".
func (r *Runner) RunJob(ctx context.Context, job *Job) []results.Result {
	res, err := r.runGroup(ctx, []*Job{job}, nil)
	if err != nil || res[0] == nil {
		return job.Results(results.Error, fmt.Sprintf("interrupted: %v", err))
	}
	return res[0]
}

// Results returns one result per op of the job with the same status and
// reason.
func (job *Job) Results(st results.Status, reason string) []results.Result {
	out := make([]results.Result, 0, len(job.Ops))
	for _, op := range job.Ops {
		out = append(out, job.result(op, st, reason))
	}
	return out
}

// Key returns the key (results.Result.Key) of the job's benchmark of op.
func (job *Job) Key(op results.Op) string {
	r := job.result(op, "", "")
	return r.Key()
}

func (job *Job) result(op results.Op, st results.Status, reason string) results.Result {
	return results.Result{Op: op, Codec: job.Codec.Name, Dataset: job.Dataset, Shape: job.Shape, Items: job.Items, Procs: job.Procs, Status: st, Reason: reason}
}

// runGroup prepares, verifies and calibrates every job of the group, then
// samples all their benchmarks interleaved. finished, if set, is called
// with each job's results as soon as they are complete. It returns the
// results in job order; if ctx was cancelled, only those of the jobs that
// finished, the others nil, with ctx's error.
func (r *Runner) runGroup(ctx context.Context, group []*Job, finished func(*Job, []results.Result)) ([][]results.Result, error) {
	out := make([][]results.Result, len(group))
	pending := make([]int, len(group)) // benches still sampling, per job
	var benches []*bench               // to sample interleaved
	var all []*bench
	jobDone := func(k int) {
		if finished != nil {
			finished(group[k], out[k])
		}
	}
	done := func(b *bench) {
		b.loop, b.ctl, b.busy, b.check = nil, nil, nil, nil // let the case and its values go
		out[b.job][b.slot] = b.res
		r.finishedResult(group[b.job], b.res)
		if pending[b.job]--; pending[b.job] == 0 {
			jobDone(b.job)
		}
	}
	for k, job := range group {
		r.beat(job, "", "prepare")
		bs, final := r.prepareJob(ctx, job)
		if err := ctx.Err(); err != nil {
			for k2 := range out[:k+1] {
				if k2 == k || pending[k2] > 0 {
					out[k2] = nil // not finished
				}
			}
			return out, err
		}
		if final != nil {
			out[k] = final
			for _, res := range final {
				r.finishedResult(job, res)
			}
			jobDone(k)
			continue
		}
		out[k] = make([]results.Result, len(bs))
		var mine []*bench
		for i, b := range bs {
			b.job, b.slot, b.owner = k, i, job
			if b.done {
				out[k][i] = b.res
			} else {
				pending[k]++
				mine = append(mine, b)
			}
		}
		if pending[k] == 0 {
			for _, res := range out[k] {
				r.finishedResult(job, res)
			}
			jobDone(k)
		}
		all = append(all, mine...)
		// A large value is sampled at once, on its own: holding the
		// cases of a whole group of them alive would cost gigabytes and
		// make every garbage collection before a sample slow.
		if len(mine) > 0 && mine[0].res.Bytes >= LargeBytes {
			r.sample(ctx, mine, done)
		} else {
			benches = append(benches, mine...)
		}
	}
	r.sample(ctx, benches, done)
	var err error
	for _, b := range all {
		if !b.done {
			out[b.job], err = nil, ctx.Err()
		}
	}
	return out, err
}

// beat calls Beat, if set.
func (r *Runner) beat(job *Job, op results.Op, step string) {
	if r.Beat != nil {
		r.lastBeat.Store(&beatAt{job, op, step})
		r.Beat(job, op, step)
	}
}

// A beatAt is where the runner last said it was.
type beatAt struct {
	job  *Job
	op   results.Op
	step string
}

// alive repeats the last beat: a long step (a slow codec verifying or
// calibrating on a large value) says it still moves.
func (r *Runner) alive() {
	if b := r.lastBeat.Load(); b != nil && r.Beat != nil {
		r.Beat(b.job, b.op, b.step)
	}
}

// finishedResult calls Finished, if set.
func (r *Runner) finishedResult(job *Job, res results.Result) {
	if r.Finished != nil {
		r.Finished(job, res)
	}
}

// prepareJob checks, prepares, verifies and calibrates one job under the
// watchdog. It returns the job's benchmarks ready to sample, or its final
// results when it is skipped or failed.
func (r *Runner) prepareJob(ctx context.Context, job *Job) ([]*bench, []results.Result) {
	type outcome struct {
		benches []*bench
		final   []results.Result
	}
	done := make(chan outcome, 1)
	go func() {
		if r.opts.PinCPU > 0 {
			if err := machine.Pin(r.opts.PinCPU - 1); err != nil {
				done <- outcome{final: job.Results(results.Error, err.Error())}
				return
			}
		}
		var o outcome
		err := codec.Guard(func() error {
			o.benches, o.final = r.prepare(ctx, job)
			return nil
		})
		if pe := (*codec.PanicError)(nil); errors.As(err, &pe) {
			o = outcome{final: job.Results(results.Error, fmt.Sprintf("panic: %v\n%s", pe.Value, pe.Stack))}
		}
		done <- o
	}()
	start := time.Now().UnixNano()
	sw := newStallWatch(r.opts.Timeout)
	sw.look(start)
	tick := time.NewTicker(min(r.opts.Timeout/10, time.Second))
	defer tick.Stop()
	for {
		select {
		case o := <-done:
			return o.benches, o.final
		case <-tick.C:
			if why := sw.look(start); why != "" {
				return nil, job.Results(results.Error, fmt.Sprintf("hung while prepared (-timeout %v): %s; its goroutine was abandoned", r.opts.Timeout, why))
			}
		case <-ctx.Done():
			return nil, job.Results(results.Error, "interrupted")
		}
	}
}

// prepare does the work of prepareJob.
func (r *Runner) prepare(ctx context.Context, job *Job) ([]*bench, []results.Result) {
	if job.Skip != "" {
		return nil, job.Results(results.Skipped, job.Skip)
	}
	if avail, ok := memAvailable(); ok && job.MinMemory > 0 && avail < job.MinMemory {
		return nil, job.Results(results.Skipped, fmt.Sprintf("needs %d MiB of available memory, the OS reports %d MiB; skipped rather than risk running out", job.MinMemory>>20, avail>>20))
	}
	salt := r.opts.Salt
	if r.opts.Count {
		salt = CountSalt
	}
	ps, err := prepareProcs(job, salt, r.alive, r.now)
	if err != nil {
		var ce *CheckError
		if errors.As(err, &ce) {
			return nil, job.Results(ce.Status, ce.Reason)
		}
		return nil, job.Results(results.Error, err.Error())
	}
	p := ps[0]
	selfTimed := job.Codec.SelfTimed
	var ls []codec.Looper
	if selfTimed {
		if ls, err = loopers(p); err != nil {
			return nil, job.Results(results.Error, err.Error())
		}
	}
	mean, spread := p.poolSizes()
	size := int(math.Round(mean))
	var fl floors // the bounds of a timed figure: none for a count
	if !r.opts.Count {
		fl = r.floorTimes(size, selfTimed)
	}
	var comp []results.Compressed
	if r.opts.Compress {
		r.beat(job, "", "compress")
		if comp, err = r.compressed(p.Msgs); err != nil {
			return nil, job.Results(results.Error, fmt.Sprintf("compressing the encoding: %v", err))
		}
	}
	var bs []*bench
	for i, op := range job.Ops {
		b := &bench{res: job.result(op, results.OK, "")}
		b.res.Bytes, b.res.BytesSpread = size, spread
		b.res.CopyNs, b.res.CopyBaseNs, b.res.LoopNs, b.res.CycleNs = fl.copyNs, fl.copyBaseNs, fl.loopNs, fl.cycleNs
		b.res.SelfTimed = selfTimed
		b.res.Compressed = comp
		seed := uint64(i) + uint64(len(job.Codec.Name))<<8 + uint64(len(p.Msgs))<<16
		var path loop // the same operation through Encode and Decode, for a self-timed bench
		if o, ok := operations[op]; !ok {
			b.fail(fmt.Errorf("unknown op %q", op))
		} else if why := LeftOut(job.Codec, op); why != "" {
			b.res = job.result(op, results.Skipped, why)
			b.done = true
		} else {
			var err error
			b.loop, b.ctl, path, err = buildProcs(o, ps, opInput{job: job, loopers: ls, seed: seed, now: r.now}, selfTimed)
			if err != nil {
				var ce *CheckError
				if errors.As(err, &ce) && ce.Status == results.Skipped {
					b.res = job.result(op, results.Skipped, ce.Reason)
					b.done = true
				} else {
					b.fail(err)
				}
			}
		}
		if !b.done {
			b.ctl.each = selfTimed
			b.check = r.checks(ps, (checkRoundTrips+len(job.Ops)-1)/len(job.Ops))
			if r.opts.Count {
				r.count(job, b)
				bs = append(bs, b)
				continue
			}
			r.beat(job, op, "calibrate")
			restore := useProcs(job.Procs)
			n, err := r.calibrateCtl(ctx, b.loop, b.ctl, r.batchOf(job.Procs))
			b.n = n
			if err == nil {
				b.gc, err = r.collects(b.loop, n)
			}
			if err == nil && path != nil {
				b.res.PathNs, err = r.pathTime(ctx, path)
			}
			restore()
			if err != nil {
				b.fail(err)
			}
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// pathTime returns the time per op of loop l (a self-timed bench's
// operation through Encode and Decode): the fastest of three batches at
// its calibrated count.
func (r *Runner) pathTime(ctx context.Context, l loop) (float64, error) {
	n, err := r.calibrate(ctx, l)
	if err != nil {
		return 0, err
	}
	best := 0.0
	for range 3 {
		d, err := r.timeBatch(l, n)
		if err != nil {
			return 0, err
		}
		if ns := float64(d.Nanoseconds()) / float64(n); best == 0 || ns < best {
			best = ns
		}
	}
	return best, nil
}

// checks returns a bench's checks after timing: n round trips over the
// job's pool (Prepared.RoundTrips), fewer of a message of hundreds of
// kilobytes (checkCount), of a message of megabytes as many as its
// budget holds (checkSplit), and more while 1/checkShare of the budget
// lasts, shared among the goroutines' pools of a job on several (every
// goroutine's work is checked); then the op's calls on builds the codec
// never saw (unseenCheck); then what they saw of the calls (judge), and
// the unseen encodings for the check in a fresh process
// (Result.Verified). Each bench of a job makes its share of the job's
// checkRoundTrips: every round trip encodes and decodes. It returns the
// round trips made.
func (r *Runner) checks(ps []*Prepared, n int) func(*results.Result) (int, error) {
	return func(res *results.Result) (int, error) {
		p := ps[0]
		made := 0
		must, more := checkSplit(n, len(p.Msgs[0]), len(ps))
		bound := time.Now().Add(r.opts.Budget) // the large messages' round trips beyond must
		for i, pi := range ps {
			if err := pi.CheckMessages(); err != nil {
				return made, onGoroutine(err, i, len(ps))
			}
			k, err := pi.roundTrips(must, time.Time{}, must)
			made += k
			if err == nil && more > 0 {
				k, err = pi.roundTrips(more, bound, 0)
				made += k
			}
			if err != nil {
				return made, onGoroutine(err, i, len(ps))
			}
		}
		start := time.Now()
		// A count has no budget of time: the round trips a wall clock
		// grants under Valgrind would be few and cost much.
		if deadline := start.Add(r.opts.Budget / checkShare); !r.opts.Count && time.Now().Before(deadline) {
			more, err := p.roundTrips(100*checkRoundTrips, deadline, 0)
			made += more
			if err != nil {
				return made, err
			}
		}
		msgs, flag, err := r.unseenCheck(p, res, r.quantileOf())
		if err != nil {
			return made, err
		}
		if len(msgs) == 0 && p.salt != 0 {
			return made, checkErr(results.Failed, "no encoding of a build it never saw was verified, so none can go to a fresh process: an encoding must carry its value")
		}
		r.judge(p, res)
		if flag != "" && res.Flagged == "" {
			res.Flagged = flag
		}
		// Two collections of a live heap (LiveHeap) would cost far more
		// than the figure, which does not depend on it: it is measured
		// without one.
		if res.Op == results.Decode && r.opts.LiveHeap <= 0 {
			if res.KeptBPerOp, err = p.keptBytes(); err != nil {
				return made, checkErr(results.Error, "decoding to measure the heap a value keeps: %v", err)
			}
		}
		res.Verified = msgs
		return made, nil
	}
}

// onGoroutine says which goroutine's pool a check failed on, for a job on
// several.
func onGoroutine(err error, i, n int) error {
	var ce *CheckError
	if n > 1 && errors.As(err, &ce) {
		return checkErr(ce.Status, "goroutine %d of %d: %s", i+1, n, ce.Reason)
	}
	return err
}

// quantileOf returns what turns a list of call times into the figure the
// timed median is held to: a low quantile (checkQuantile), the timer's
// own cost taken out.
func (r *Runner) quantileOf() func([]time.Duration) float64 {
	timer := r.timerCost()
	return func(ds []time.Duration) float64 { return max(quantile(ds, checkQuantile)-timer, 0) }
}

// judge records what the checks saw of the calls, one by one, and flags
// the result when its timed figure is far below them (checkRatio times,
// and checkSlack ns: the calls the checks make are the timed loop's, on
// the same buffers, so only a codec that tells them apart is that much
// faster when timed), or, for a decode not declared lazy
// (codec.Info.Lazy) nor converting (codec.Info.ValueConverts), when Value
// costs more than Decode (the work is done where the timed loop does not
// look).
func (r *Runner) judge(p *Prepared, res *results.Result) {
	q := r.quantileOf()
	m := res.NsPerOp.Median * float64(max(res.Procs, 1)) // one goroutine's time per op
	if o, ok := operations[res.Op]; ok {
		if flag := o.judge(p, res, q); flag != "" {
			res.Flagged = flag
			return
		}
	}
	if c := res.CheckNsPerOp; m > 0 && c > checkRatio*m+checkSlack {
		res.Flagged = fmt.Sprintf("%.3gns/op timed, where the same calls on the same buffers take %.3gns each in the checks after timing (%.0f times as long): "+
			"the codec tells the timed calls from the checked ones", m, c, c/m)
	}
}

// A timed figure is flagged when the checks' calls take more than
// checkRatio times as long and checkSlack ns more (a call timed on its
// own pays a cold start the loop's do not, and the clock's own cost
// varies by tens of ns); checkQuantile is the quantile of the checks'
// calls compared. Honest codecs' checks read up to 1.5 times their timed
// figure on a loaded machine (notes/noise-log.md): a codec that does
// half its work when it sees the timed loop is beyond checkRatio.
const (
	checkRatio    = 2
	checkSlack    = 50
	checkQuantile = 0.1
)

// quantile returns the q quantile of ds in ns.
func quantile(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[int(q*float64(len(s)-1))].Nanoseconds())
}

// timerCost returns the cost of reading the runner's clock, in ns: the
// fastest of a thousand back-to-back reads.
func (r *Runner) timerCost() float64 {
	r.timerOnce.Do(func() {
		best := time.Duration(-1)
		for range 1000 {
			t0 := r.now()
			if d := r.now().Sub(t0); best < 0 || d < best {
				best = d
			}
		}
		r.timer = float64(max(best, 0).Nanoseconds())
	})
	return r.timer
}

// checkBench runs a timed bench's checks; one that fails rejects its
// result.
func (r *Runner) checkBench(b *bench) {
	if b.res.Status != results.OK || b.check == nil {
		return
	}
	r.beat(b.owner, b.res.Op, "check")
	n, err := b.check(&b.res)
	b.res.Checked = n
	if err != nil {
		b.reject(err)
	}
}

// reject marks a timed bench as failed by a check after timing.
func (b *bench) reject(err error) { rejectResult(&b.res, err) }

// rejectResult turns a measured result into one that failed a check after
// timing: its samples stay, for the record, but its status says the
// figures cannot be believed.
func rejectResult(res *results.Result, err error) {
	st, reason := results.Error, err.Error()
	var ce *CheckError
	if errors.As(err, &ce) {
		st, reason = ce.Status, ce.Reason
	}
	res.Status = st
	res.Reason = "after timing: " + reason
}

// PoolFor returns how many builds the job's pool holds when its first
// message is size bytes: what an estimate of its preparation and of its
// count's windows weighs.
func (job *Job) PoolFor(size int) int { return job.poolOf(size) }
