package runner

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/results"
)

// A bench is one op of one job being sampled.
type bench struct {
	job, slot int // where its result goes in runGroup
	res       results.Result
	loop      loop
	ctl       *control                           // its loop's order and verified iterations; nil for a plain loop
	check     func(*results.Result) (int, error) // verifies after timing (see checkBench)
	pool      *budgetPool                        // the budget it shares with the benches sampled beside it
	owner     *Job
	n         int              // iterations per batch, from calibration
	gc        gcMode           // how its samples meet the collector (see collects)
	ns        []float64        // the quiet samples' ns/op
	busy      []results.Sample // samples set aside: the machine was busy
	waits     int              // turns let pass in a row while the machine was busy
	spent     time.Duration    // wall time charged: samples, probes, waits
	waited    time.Duration    // the part of spent waiting for a quiet phase
	first     time.Time        // when its first sample started
	done      bool
}

// fail ends the bench with an error result.
// A timed iteration that failed its verification (a checkFailure) fails
// the bench with the check's status and reason.
func (b *bench) fail(err error) {
	st, reason := results.Error, fmt.Sprintf("%s: %v", b.res.Op, err)
	var cf *checkFailure
	var ce *CheckError
	switch {
	case errors.As(err, &cf) && errors.As(cf.err, &ce):
		st, reason = ce.Status, fmt.Sprintf("%s: a timed iteration: %s", b.res.Op, ce.Reason)
	case errors.As(err, &ce):
		// An op's own checks before timing (a stream read back) say
		// failed or error themselves.
		st, reason = ce.Status, fmt.Sprintf("%s: %s", b.res.Op, ce.Reason)
	}
	b.res = results.Result{Op: b.res.Op, Codec: b.res.Codec, Dataset: b.res.Dataset, Shape: b.res.Shape,
		Items: b.res.Items, Procs: b.res.Procs, Status: st, Reason: reason}
	b.done = true
}

// timeBatch runs l(n) once and times it on the runner's clock, a panic
// an error with its stack. The one guard of codec calls (codec.Guard)
// wraps the whole batch, not each operation: it costs one deferred call
// per batch, outside what a sample divides among its operations.
func (r *Runner) timeBatch(l loop, n int) (time.Duration, error) {
	start := r.now()
	err := codec.Guard(func() error { return l(n) })
	if pe := (*codec.PanicError)(nil); errors.As(err, &pe) {
		return 0, fmt.Errorf("panic: %v\n%s", pe.Value, pe.Stack)
	}
	return r.since(start), err
}

// timeCtl runs l(n) once as timeBatch does, its verified iteration drawn
// by ctl (nil: none), and returns its time without the verification's.
func (r *Runner) timeCtl(ctl *control, l loop, n int) (time.Duration, error) {
	if ctl == nil {
		return r.timeBatch(l, n)
	}
	ctl.arm(n)
	d, err := r.timeBatch(l, n)
	d -= ctl.paused
	ctl.at, ctl.paused = -1, 0
	if err == nil && !ctl.holding {
		err = ctl.settle()
	}
	return d, err
}

// A gcMode is how a sample meets the garbage collector.
type gcMode int

const (
	// gcFirst: a collection before the sample, so that it does not pay
	// for other benchmarks' garbage.
	gcFirst gcMode = iota
	// gcRunning: no collection; the sample runs in the collector's
	// running state (Options.NoGC).
	gcRunning
	// gcCycles: no collection, and the sample spans whole collection
	// cycles of the operation's own, from the end of one to the end of
	// another: an operation that allocates fast, unless Options.GCFirst.
	gcCycles
)

func (m gcMode) String() string {
	return [...]string{"collection first", "running", "whole cycles"}[m]
}

// timeSample takes one sample of n-iteration batches of l, SampleTime
// long, meeting the collector as mode says. Its ns/op, B/op and
// allocs/op are the whole sample's, as testing.B reports them.
//
// The collection before a sample (gcFirst) gives it a heap free of other
// benchmarks' garbage, whose collection it would otherwise pay for. But it
// also leaves the heap swept and a whole heap goal (4 MB or more) from the
// next cycle, so an operation that allocates fast pays for none of its
// own: short samples of one-shot gob's decode, about half a goal each,
// read well below testing.B, whose one-second runs hold dozens of cycles.
// Without the collection (gcRunning) such a sample holds zero, one or two
// cycles, by chance, and varies with them, so fewer benchmarks meet their
// interval target. gcCycles (the default for an operation that allocates
// fast) takes out the chance: the operation runs untimed to the end of a
// cycle, then timed until SampleTime has passed and another cycle has
// ended, so each sample pays for a whole number of its own cycles, as a
// program's steady state does; its figures then agree with testing.B's
// (the measurements are in notes/noise-log.md). A cycle that does not end
// within cycleWait ends the wait and the sample anyway.
// With aligned, the previous sample of l ended at a cycle's end just now
// (see sampleVisit) and there is no wait. atCycleEnd reports whether the
// sample ended at a cycle's end.
//
// ctl (nil for a plain loop) draws a new order of the pool for the
// sample and the iterations it verifies. The sample's CPU time is the
// process's over the same batches, the verifications' taken out.
func (r *Runner) timeSample(l loop, ctl *control, n int, mode gcMode, aligned bool) (s results.Sample, elapsed time.Duration, atCycleEnd bool, err error) {
	return r.timeSampleOf(nil, l, ctl, n, mode, aligned)
}

// The steps a sample's batches announce on Beat: stepTimed while they
// run, stepVerify while a long verification on the spot of one of their
// iterations does (control.mark).
const (
	stepTimed  = "timed"
	stepVerify = "verify"
)

// timeSampleOf is timeSample for bench b (nil: none), which it announces
// on Beat as step "timed" while its batches run, and as "sample" again
// once they end: the collection or the wait for a cycle's end before
// them and the bookkeeping after are not the sample's time, and a parent
// that measures the worker's time itself (package worker) charges the
// sample only the timed steps.
func (r *Runner) timeSampleOf(b *bench, l loop, ctl *control, n int, mode gcMode, aligned bool) (s results.Sample, elapsed time.Duration, atCycleEnd bool, err error) {
	var cycles cycleCounter
	if ctl != nil {
		ctl.shuffle()
	}
	switch {
	case mode == gcFirst:
		runtime.GC()
	case mode == gcCycles && !aligned:
		c0 := cycles.read()
		for start := r.now(); cycles.read() == c0 && r.since(start) < r.cycleWait(); {
			if _, err := r.timeCtl(ctl, l, n); err != nil {
				return s, 0, false, err
			}
		}
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	gc0 := gcCPU()
	last := cycles.read()
	batches := 0
	var checked [2]uint64 // what the verifications allocated
	if ctl != nil {
		ctl.allocs, ctl.verified = checked, 0
		ctl.holding = true
		defer func() { ctl.holding = false }()
	}
	if b != nil {
		r.beat(b.owner, b.res.Op, stepTimed)
		if ctl != nil && ctl.parts == nil && r.Beat != nil {
			// Goroutines verifying at once (parts) would announce two
			// steps at a time: theirs stay in the timed step.
			ctl.mark = func(step string) { r.beat(b.owner, b.res.Op, step) }
			defer func() { ctl.mark, ctl.long = nil, false }()
		}
	}
	cpu0, cpuOK := machine.CPUTime()
	wall0 := r.now()
	for {
		var d time.Duration
		d, err = r.timeCtl(ctl, l, n)
		elapsed += d
		if err != nil {
			return s, elapsed, false, err
		}
		batches++
		if r.sampleDone(batches, elapsed, mode, &atCycleEnd, &cycles, last) {
			if ctl == nil || ctl.verified > 0 || batches >= maxBatches+1 {
				break
			}
			ctl.force = true // one batch more: every sample verifies an iteration
		}
	}
	paused := r.since(wall0) - elapsed // the verifications', and the loop's own bookkeeping
	if b != nil {
		r.beat(b.owner, b.res.Op, "sample")
	}
	cpu1, _ := machine.CPUTime()
	runtime.ReadMemStats(&m1)
	gc1 := gcCPU()
	if ctl != nil {
		checked = ctl.allocs
		// The verifications left for the sample's end, after its
		// figures are read: what they cost is not the sample's.
		ctl.holding = false
		if err := ctl.settle(); err != nil {
			return s, elapsed, false, err
		}
	}
	r.peakHeap.Store(max(r.peakHeap.Load(), m1.HeapAlloc, m0.HeapAlloc))
	iters := float64(n * batches)
	s = results.Sample{
		Iters:       n * batches,
		Batches:     batches,
		NsPerOp:     float64(elapsed.Nanoseconds()) / iters,
		BPerOp:      float64(m1.TotalAlloc-m0.TotalAlloc-min(checked[0], m1.TotalAlloc-m0.TotalAlloc)) / iters,
		AllocsPerOp: float64(m1.Mallocs-m0.Mallocs-min(checked[1], m1.Mallocs-m0.Mallocs)) / iters,
		GCs:         int(m1.NumGC - m0.NumGC),
		GCCPUNs:     max(gc1-gc0, 0),
	}
	if cpuOK {
		s.CPUNsPerOp = max(float64((cpu1-cpu0-max(paused, 0)).Nanoseconds()), 0) / iters
	}
	return s, elapsed, atCycleEnd, nil
}

// sampleDone reports whether a sample of batches batches and elapsed time
// is complete (see timeSample), setting atCycleEnd when it ends at the end
// of a collection cycle.
func (r *Runner) sampleDone(batches int, elapsed time.Duration, mode gcMode, atCycleEnd *bool, cycles *cycleCounter, last uint64) bool {
	if batches >= maxBatches {
		return true
	}
	if elapsed < r.opts.SampleTime {
		return false
	}
	if mode != gcCycles {
		return true
	}
	if c := cycles.read(); c != last {
		*atCycleEnd = true // a cycle ended in this batch
		return true
	}
	return elapsed >= r.cycleWait()
}

// cycleWait is the longest a gcCycles sample waits for a cycle to end, and
// the longest it runs: twice the longest cycle of an operation that
// allocates fast.
func (r *Runner) cycleWait() time.Duration {
	return 2 * fastAllocFactor * r.opts.SampleTime
}

// A cycleCounter reads how many collection cycles have ended, without
// stopping the world (runtime.ReadMemStats does).
type cycleCounter struct{ s [1]metrics.Sample }

func (c *cycleCounter) read() uint64 {
	c.s[0].Name = "/gc/cycles/total:gc-cycles"
	metrics.Read(c.s[:])
	if c.s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return c.s[0].Value.Uint64()
}

// collects returns how the samples of loop l, calibrated to n iterations
// per batch, meet the collector: gcRunning with NoGC or a LiveHeap (a
// service's heap is collected as it runs, and a collection of it before
// every sample would take longer than the sample); gcFirst with
// GCFirst; otherwise gcCycles if the loop allocates fast (measured on one
// untimed batch), else gcFirst.
func (r *Runner) collects(l loop, n int) (gcMode, error) {
	if r.opts.NoGC || r.opts.LiveHeap > 0 {
		return gcRunning, nil
	}
	if r.opts.GCFirst {
		return gcFirst, nil
	}
	a, err := r.allocationOf(l, n)
	if err != nil {
		return gcFirst, err
	}
	if r.allocatesFast(a) {
		return gcCycles, nil
	}
	return gcFirst, nil
}

// allocatesFast reports whether an operation allocating a per iteration
// fills a heap goal within fastAllocFactor sample times: enough that a
// collection before its samples would hide a share of its cost worth
// reporting.
func (r *Runner) allocatesFast(a allocation) bool {
	if a.bytes <= 0 || a.ns <= 0 {
		return false
	}
	return heapGoal()/a.bytes*a.ns <= float64(fastAllocFactor*r.opts.SampleTime.Nanoseconds())
}

// fastAllocFactor: an operation that allocates a heap goal within this
// many sample times allocates fast.
const fastAllocFactor = 10

// maxBatches caps the batches of one sample.
const maxBatches = 10000

// An allocation is what one iteration of a loop allocates, and how long
// it takes.
type allocation struct{ bytes, ns float64 }

// heapGoal is the heap size at which the collector aims to finish its
// next cycle, in bytes.
func heapGoal() float64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 4 << 20 // the runtime's smallest goal
	}
	return float64(s[0].Value.Uint64())
}

// calibrate finds the iteration count for one batch to last about
// BatchTime, the way testing.B grows b.N, then warms up for a sample's
// length: caches, pools and lazily built codec state. A batch that
// reaches BatchTime (but not SampleTime) is timed again and the faster
// run counts, so that one stall (a first call's page faults, a
// neighbour's burst) cannot end calibration early: a count too small
// would make a sample's batches mostly timer calls.
func (r *Runner) calibrate(ctx context.Context, l loop) (n int, err error) {
	return r.calibrateCtl(ctx, l, nil, r.opts.BatchTime)
}

// calibrateCtl calibrates as calibrate does a loop whose batches ctl
// verifies (timeCtl), without the verifications' time, to batches of
// batch (see batchOf).
func (r *Runner) calibrateCtl(ctx context.Context, l loop, ctl *control, batch time.Duration) (n int, err error) {
	cold, err := r.timeCtl(ctl, l, 1) // a first, cold call
	if err != nil {
		return 0, err
	}
	// best is the least time an iteration has taken so far: what a batch
	// of n should take at most, uninterrupted.
	best := float64(cold.Nanoseconds())
	n = 1
	for {
		r.alive()
		if r.forcesGC() {
			runtime.GC()
		}
		var d time.Duration
		if d, err = r.timeCtl(ctl, l, n); err != nil {
			return 0, err
		}
		// A batch far longer than its iterations took before was
		// interrupted (the machine's other work took the CPU): it is
		// timed again, twice at most, and the shortest kept, so that a
		// busy machine does not stop the count short of the batch time.
		for try := 0; try < 2 && d >= batch && float64(d.Nanoseconds()) > 4*best*float64(n) && best*float64(n) < float64(r.opts.SampleTime.Nanoseconds()); try++ {
			again, err := r.timeCtl(ctl, l, n)
			if err != nil {
				return 0, err
			}
			d = min(d, again)
		}
		if perOp := float64(d.Nanoseconds()) / float64(n); perOp > 0 && perOp < best {
			best = perOp
		}
		if d >= batch && d < r.opts.SampleTime {
			again, err := r.timeCtl(ctl, l, n)
			if err != nil {
				return 0, err
			}
			d = min(d, again)
		}
		if d >= batch || n >= 1e9 {
			for warm := d; warm < r.opts.SampleTime; {
				d, err := r.timeCtl(ctl, l, n)
				if err != nil {
					return 0, err
				}
				warm += d
			}
			return n, nil
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		// The time per iteration is a float: an operation under a
		// nanosecond (a self-timed loop) must still grow n towards the
		// batch time, not by one at a time.
		prev := n
		next := 100 * int64(prev) // too short to read: as fast as allowed
		if perOp := float64(d.Nanoseconds()) / float64(n); perOp > 0 {
			next = int64(float64(batch.Nanoseconds()) / perOp * 1.2)
		}
		next = min(next, 100*int64(prev), 1e9)
		n = int(max(next, int64(prev)+1))
	}
}

// allocationOf runs one batch of n, untimed, and returns what one
// iteration allocated and how long it took.
func (r *Runner) allocationOf(l loop, n int) (allocation, error) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	d, err := r.timeBatch(l, n)
	if err != nil {
		return allocation{}, err
	}
	runtime.ReadMemStats(&m1)
	return allocation{
		bytes: float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n),
		ns:    float64(d.Nanoseconds()) / float64(n),
	}, nil
}

// sampleOnce takes one sample of b, unless the gauge says the machine is
// busy and b has not waited maxWaits turns already, and decides whether b
// is finished: its interval is within the target after MinSamples and its
// samples span half the budget in wall time, it has MaxSamples, or it has
// spent its budget. The budget is wall time: the samples, the collections
// before them, the gauge's probes and b's share of the waits for a quiet
// phase (charged by sample), so a busy machine makes a run less precise,
// not longer. Waiting stops once it has taken
// half the budget: a machine busy throughout is then sampled at once. A
// sample that starts or ends in a busy phase is set aside; if fewer than
// MinSamples quiet samples come within the budget, the figure is made
// from all of them, and an operation too slow for MinSamples in one
// budget gets three budgets for three samples. Each sample records the
// meter's latest probe of the machine (Sample.Probe). aligned is
// timeSample's. It reports whether it sampled, and whether b's loop now
// stands at the end of a collection cycle (aligned, if it did not sample).
func (r *Runner) sampleOnce(b *bench, aligned bool) (sampled, atCycleEnd bool) {
	start := r.now()
	if b.first.IsZero() {
		b.first = start
	}
	quiet := true
	if r.gauge != nil {
		if quiet = r.gauge.Quiet(); !quiet && b.waits < maxWaits && b.waited < r.opts.Budget/2 {
			b.waits++
			b.wait(r.since(start))
			return false, aligned
		}
		b.waits = 0
	}
	probe := r.meter.Tick()
	restore := useProcs(b.res.Procs)
	s, _, atCycleEnd, err := r.timeSampleOf(b, b.loop, b.ctl, b.n, b.gc, aligned)
	restore()
	s.Probe = probe
	if err != nil {
		b.charge(r.since(start))
		b.fail(err)
		return true, false
	}
	if quiet && r.gauge != nil {
		quiet = r.gauge.Quiet()
	}
	b.charge(r.since(start))
	if quiet {
		b.res.Samples = append(b.res.Samples, s)
		b.ns = append(b.ns, s.NsPerOp)
	} else {
		b.busy = append(b.busy, s)
	}
	o := r.opts
	if len(b.ns) >= o.MinSamples {
		b.res.NsPerOp = summarize(b.ns, o.Confidence)
		b.res.TargetMet = b.res.NsPerOp.RelCI() <= o.Target
	}
	all := len(b.ns) + len(b.busy)
	// The interval assumes independent samples, but a shared machine's
	// slow and fast phases last from a hundred milliseconds to more than
	// half a second: samples taken within one phase agree with each other
	// and not with the next run. The interval is trusted once the samples
	// span half the budget.
	spanned := start.Sub(b.first) >= o.Budget/2
	enough := b.res.TargetMet && spanned || len(b.ns) >= o.MaxSamples ||
		b.overBudget(o.Budget) && len(b.ns) >= o.MinSamples ||
		b.spent >= 3*o.Budget && len(b.ns) >= min(3, o.MinSamples)
	if !enough && (b.overBudget(o.Budget) && all >= o.MinSamples || b.spent >= 3*o.Budget || all >= 2*o.MaxSamples) {
		// The machine was busy for most of the budget: use every sample.
		b.res.Samples = append(b.res.Samples, b.busy...)
		b.busy = nil
		b.ns = b.ns[:0]
		for _, s := range b.res.Samples {
			b.ns = append(b.ns, s.NsPerOp)
		}
		enough = true
	}
	if enough {
		b.res.NsPerOp = summarize(b.ns, o.Confidence)
		b.res.TargetMet = len(b.ns) >= o.MinSamples && b.res.NsPerOp.RelCI() <= o.Target
		b.res.PooledNsPerOp = pooled(b.res.Samples)
		b.res.BPerOp = median(b.res.Samples, func(s results.Sample) float64 { return s.BPerOp })
		b.res.Allocs = median(b.res.Samples, func(s results.Sample) float64 { return s.AllocsPerOp })
		b.res.CPUNsPerOp = median(b.res.Samples, func(s results.Sample) float64 { return s.CPUNsPerOp })
		b.res.MultiThreaded = multiThreaded(b.res.Samples, b.res.Procs)
		gcCost(&b.res)
		b.res.Busy = len(b.busy)
		for _, s := range b.busy {
			b.res.BusyNs += s.NsPerOp * float64(s.Iters)
		}
		b.done = true
	}
	return true, atCycleEnd
}

// multiThreaded reports whether the samples used more CPU time than wall
// time, beyond what the collector's background workers add: the
// operation ran on more than one thread, and its figure is not the
// single-threaded cost the others' are.
func multiThreaded(ss []results.Sample, procs int) bool {
	var cpu, wall float64
	for _, s := range ss {
		if s.CPUNsPerOp <= 0 {
			return false // not measured
		}
		cpu += s.CPUNsPerOp * float64(s.Iters)
		wall += s.NsPerOp * float64(s.Iters)
	}
	return wall > 0 && cpu > multiThreadedRatio*wall*float64(max(procs, 1))
}

// multiThreadedRatio: samples whose CPU time exceeds their wall time by
// this factor ran on more than one thread. The collector's background
// workers take up to a quarter of GOMAXPROCS while a cycle marks; one
// thread more than that doubles the CPU time. A loop on several
// goroutines (Result.Procs) is held to as many times its wall time.
const multiThreadedRatio = 1.5

// sampleVisit samples b once (sampleOnce); a bench sampled over whole
// collection cycles (gcCycles) goes on sampling while the visit is shorter
// than visitTime, each sample starting where the last one ended, at a
// cycle's end, so that only the first waits for one. It reports whether
// it sampled.
func (r *Runner) sampleVisit(b *bench) bool {
	start := r.now()
	sampled, aligned := r.sampleOnce(b, false)
	for sampled && aligned && !b.done && r.since(start) < r.visitTime() {
		_, aligned = r.sampleOnce(b, aligned)
	}
	return sampled
}

// since returns the time elapsed since t on the runner's clock.
func (r *Runner) since(t time.Time) time.Duration { return r.now().Sub(t) }

// visitTime is how long sampleVisit goes on sampling a gcCycles bench.
func (r *Runner) visitTime() time.Duration { return 3 * r.opts.SampleTime }

// wait charges d of waiting for a quiet phase to b's budget.
func (b *bench) wait(d time.Duration) {
	b.charge(d)
	b.waited += d
}

// maxWaits is how many turns in a row a bench lets pass while the machine
// is busy before it samples anyway: about a tenth of a second.
const maxWaits = 50

// sample samples the benches interleaved, round after round in a shuffled
// order (seeded: two runs shuffle alike), until each is done; finished is
// called for each as it ends. The sampling runs on one worker goroutine
// (pinned if asked) under a watchdog: a sample judged hung (stallWatch)
// marks its bench as hung, the worker is abandoned and a new one goes on
// with the others.
func (r *Runner) sample(ctx context.Context, benches []*bench, finished func(*bench)) {
	if r.gauge != nil {
		r.warmed.Do(func() { r.gauge.Warm(100 * time.Millisecond) })
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(benches))))
	pool := &budgetPool{total: time.Duration(len(benches)) * r.opts.Budget}
	for _, b := range benches {
		b.pool = pool
	}
	var mu sync.Mutex // guards the benches between a worker and the watchdog
	active := benches
	for len(active) > 0 {
		w := &sampler{mu: &mu, active: active, finished: finished, rng: rng}
		workerDone := make(chan struct{})
		go func() {
			defer close(workerDone)
			r.work(ctx, w)
		}()
		hung, why := r.watch(ctx, workerDone, &w.current, &w.since)
		if hung == nil {
			return
		}
		active = r.abandon(w, hung, why)
	}
}

// A sampler is one worker goroutine's sampling of the active benches, and
// what it shares with the watchdog: the bench it samples now, since when,
// and whether it has been abandoned. Benches change under mu.
type sampler struct {
	mu        *sync.Mutex
	active    []*bench
	finished  func(*bench)
	rng       *rand.Rand
	current   atomic.Pointer[bench]
	since     atomic.Int64 // start of the current sample, UnixNano
	abandoned atomic.Bool
}

// work is the worker goroutine: it pins itself if asked, then samples the
// benches not done, round after round, until none is left, ctx ends or
// the watchdog abandons it.
func (r *Runner) work(ctx context.Context, w *sampler) {
	if r.opts.PinCPU > 0 {
		if err := machine.Pin(r.opts.PinCPU - 1); err != nil {
			w.mu.Lock()
			for _, b := range w.active {
				b.fail(err)
				w.finished(b)
			}
			w.mu.Unlock()
			return
		}
	}
	for {
		w.mu.Lock()
		var next []*bench
		for _, b := range w.active {
			if !b.done {
				next = append(next, b)
			}
		}
		w.mu.Unlock()
		if len(next) == 0 || ctx.Err() != nil {
			return
		}
		w.rng.Shuffle(len(next), func(i, j int) { next[i], next[j] = next[j], next[i] })
		sampled := false
		for _, b := range next {
			if ctx.Err() != nil {
				return
			}
			ok, alive := r.visit(w, b)
			if !alive {
				return
			}
			sampled = sampled || ok
		}
		if !sampled {
			w.pause(r, next)
		}
	}
}

// visit samples b once (sampleVisit) and checks it if that finished it.
// It works on a copy, so that an abandoned worker that wakes up late
// cannot touch the bench. It reports whether it sampled, and whether the
// worker may go on (it has not been abandoned).
func (r *Runner) visit(w *sampler, b *bench) (sampled, alive bool) {
	w.mu.Lock()
	if w.abandoned.Load() {
		w.mu.Unlock()
		return false, false
	}
	work := *b
	w.current.Store(b)
	w.since.Store(time.Now().UnixNano())
	w.mu.Unlock()
	r.beat(work.owner, work.res.Op, "sample")
	sampled = r.sampleVisit(&work)
	if work.done {
		r.checkBench(&work)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.abandoned.Load() {
		return sampled, false
	}
	*b = work
	if b.done {
		w.finished(b)
	}
	return sampled, true
}

// pause waits a millisecond when all the benches of a round are waiting
// for a quiet phase, and charges the pause to their budgets alike.
func (w *sampler) pause(r *Runner, next []*bench) {
	t0 := r.now()
	time.Sleep(time.Millisecond)
	share := r.since(t0) / time.Duration(len(next))
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.abandoned.Load() {
		for _, b := range next {
			b.wait(share)
		}
	}
}

// abandon gives up worker w, whose sample of hung the watchdog judged
// hung, for why: hung fails, and so do the other benches of its job,
// which share its case with the abandoned goroutine. It returns the
// benches left to sample.
func (r *Runner) abandon(w *sampler, hung *bench, why string) []*bench {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.abandoned.Store(true)
	hung.fail(fmt.Errorf("a sample hung (-timeout %v): %s; its goroutine was abandoned", r.opts.Timeout, why))
	w.finished(hung)
	for _, b := range w.active {
		if !b.done && b.owner != nil && b.owner == hung.owner {
			b.fail(fmt.Errorf("its job's %s hung and the abandoned goroutine holds the job's codec case", hung.res.Op))
			w.finished(b)
		}
	}
	var rest []*bench
	for _, b := range w.active {
		if !b.done {
			rest = append(rest, b)
		}
	}
	return rest
}

// watch waits for the worker to finish and returns nil, or returns the
// bench whose sample the one rule of a hang judges hung (a stallWatch),
// with the judgement.
func (r *Runner) watch(ctx context.Context, workerDone <-chan struct{}, current *atomic.Pointer[bench], since *atomic.Int64) (*bench, string) {
	tick := time.NewTicker(min(r.opts.Timeout/10, time.Second))
	defer tick.Stop()
	sw := newStallWatch(r.opts.Timeout)
	for {
		select {
		case <-workerDone:
			return nil, ""
		case <-ctx.Done():
			<-workerDone // the worker checks ctx between samples
			return nil, ""
		case <-tick.C:
			if b := current.Load(); b != nil {
				if why := sw.look(since.Load()); why != "" {
					return b, why
				}
			}
		}
	}
}

// A stallWatch judges the step the runner's own goroutine works on (a
// job's preparation, a sample and its checks) by machine.JudgeStall, the
// rule a worker child is judged by, on this process's usage since the
// step began: a step is hung when the process spent Timeout's CPU time in
// it, or sat blocked; a busy machine that keeps it waiting for a CPU slows
// it without making it a hang. Where the usage is not readable, Timeout
// of wall time decides.
type stallWatch struct {
	timeout      time.Duration
	pid          int
	step         int64 // the start (UnixNano) of the step atStep belongs to
	atStep, last machine.Usage
}

func newStallWatch(timeout time.Duration) *stallWatch {
	return &stallWatch{timeout: timeout, pid: os.Getpid()}
}

// look judges the step that began at start (UnixNano); it returns why the
// step is hung, or "". The usage at a step's start is read at the first
// look after it, dated at its start.
func (s *stallWatch) look(start int64) string {
	now := machine.ReadUsage(s.pid)
	if start != s.step {
		s.step, s.atStep, s.last = start, now, now
		s.atStep.At = time.Unix(0, start)
		return ""
	}
	j := machine.JudgeStall(s.atStep, s.last, now, s.timeout)
	s.last = now
	if j.Kind == machine.Watch {
		return ""
	}
	return j.Detail
}

// summarize returns the median of xs and its confidence interval, with
// unknown bounds (too few samples) as zero.
func summarize(xs []float64, confidence float64) results.Stat {
	return results.Summarize(xs, confidence)
}

func median(ss []results.Sample, f func(results.Sample) float64) float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	return summarize(xs, 0.95).Median
}

// pooled returns the samples' total time over their total iterations.
func pooled(ss []results.Sample) float64 {
	var ns float64
	var iters int
	for _, s := range ss {
		ns += s.NsPerOp * float64(s.Iters)
		iters += s.Iters
	}
	if iters == 0 {
		return 0
	}
	return ns / float64(iters)
}

// A budgetPool is the sampling budget of the benches sampled together: a
// Budget each. A bench that meets its interval target early leaves its
// unspent budget to those whose intervals are still wide, which may go on
// sampling past their own Budget (up to maxShare of it) while the pool
// lasts.
type budgetPool struct {
	total time.Duration
	spent atomic.Int64
}

// maxShare is how many of its own budgets a bench may spend from its pool.
const maxShare = 3

// charge adds d to the bench's spending and its pool's.
func (b *bench) charge(d time.Duration) {
	b.spent += d
	if b.pool != nil {
		b.pool.spent.Add(int64(d))
	}
}

// overBudget reports whether b has spent its budget: its own, unless its
// pool still has some left and b has spent less than maxShare budgets.
func (b *bench) overBudget(budget time.Duration) bool {
	if b.spent < budget {
		return false
	}
	return b.pool == nil || time.Duration(b.pool.spent.Load()) >= b.pool.total || b.spent >= maxShare*budget
}
