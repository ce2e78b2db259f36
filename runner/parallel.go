package runner

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/codec"
)

// A job with Procs above 1 is timed as go test -cpu times a benchmark
// that calls RunParallel: at GOMAXPROCS Procs, its timed loop on Procs
// goroutines at once, each with a Prepared of its own (its own case of
// each build and its own pool of messages, so that nothing is shared but
// what the codec itself shares: pools, caches, locks), each verifying
// random timed iterations on the spot as the single loop does. A batch
// of n iterations gives each goroutine its share of n, and its time is
// the wall time until the last goroutine is done, so that a sample's
// ns/op is wall time over all the goroutines' operations (throughput),
// as RunParallel's is. The samples, the budget, the checks after timing
// and the verdicts are the single loop's: a parallel loop is a loop and
// its control, not a runner of its own.

// share returns goroutine i's share of n iterations split among procs.
func share(n, procs, i int) int {
	s := n / procs
	if i < n%procs {
		s++
	}
	return s
}

// armParts arms each goroutine's control for its share of a batch of n,
// the first of them forced to verify when c is, and counts the batch as
// verified when any of them does.
func (c *control) armParts(n int) {
	armed := false
	for i, p := range c.parts {
		p.each = c.each
		p.force = c.force && i == 0
		p.arm(max(share(n, len(c.parts), i), 1))
		armed = armed || p.at >= 0
	}
	if armed {
		c.verified++
	}
	c.force = false
}

// parallelLoop runs loops[i], whose control is parts[i], on goroutine i,
// each its share of a batch's iterations, and returns the loop of all of
// them with the control that draws for all (control.parts). A
// goroutine's verification pauses that goroutine alone: the batch's
// time without the verifications is the latest a goroutine would have
// finished without its own, and the rest is taken out as paused time.
// What the verifications allocated is summed into the control's.
func parallelLoop(loops []loop, parts []*control, now func() time.Time) (loop, *control) {
	agg := &control{at: -1, now: now, parts: parts}
	return func(n int) error {
		procs := len(loops)
		var wg sync.WaitGroup
		errs := make([]error, procs)
		ends := make([]time.Duration, procs)
		start := now()
		run := func(i int) {
			errs[i] = codec.Guard(func() error {
				if k := share(n, procs, i); k > 0 {
					return loops[i](k)
				}
				return nil
			})
			if pe := (*codec.PanicError)(nil); errors.As(errs[i], &pe) {
				errs[i] = fmt.Errorf("panic on goroutine %d of %d: %v\n%s", i+1, procs, pe.Value, pe.Stack)
				return
			}
			ends[i] = now().Sub(start)
		}
		for i := 1; i < procs; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run(i)
			}()
		}
		run(0)
		wg.Wait()
		var last, lastUnpaused time.Duration
		for i, p := range parts {
			last = max(last, ends[i])
			lastUnpaused = max(lastUnpaused, ends[i]-p.paused)
			agg.allocs[0] += p.allocs[0]
			agg.allocs[1] += p.allocs[1]
			p.allocs = [2]uint64{}
			p.at, p.paused = -1, 0
		}
		agg.paused = max(last-lastUnpaused, 0)
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}, agg
}

// useProcs sets GOMAXPROCS to procs, when positive, and returns what
// restores it.
func useProcs(procs int) (restore func()) {
	if procs <= 0 {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(procs)
	if prev == procs {
		return func() {}
	}
	return func() { runtime.GOMAXPROCS(prev) }
}

// batchOf returns the batch time of a bench run on procs goroutines: the
// runner's, or for several goroutines half a sample, so that starting
// and joining them (an idle thread's wake-up takes tens of µs) stays a
// small part of every batch.
func (r *Runner) batchOf(procs int) time.Duration {
	if procs <= 1 {
		return r.opts.BatchTime
	}
	return max(r.opts.BatchTime, r.opts.SampleTime/2)
}

// parallelJob returns the job goroutine i of a parallel bench prepares:
// the job itself for the first; for the others, with ValueAt, builds of
// their own (a pool apart from every other goroutine's), so that no two
// goroutines' messages are alike.
func parallelJob(job *Job, i int) *Job {
	if i == 0 || job.ValueAt == nil {
		return job
	}
	j := *job
	at := job.ValueAt
	j.ValueAt = func(k int) (any, error) { return at(k + i*PoolSize) }
	return &j
}

// prepareProcs prepares the job once per goroutine it runs on (Job.Procs,
// one at least): the first is the job's own Prepared, which the checks
// after timing use.
func prepareProcs(job *Job, salt uint64, alive func(), now func() time.Time) ([]*Prepared, error) {
	ps := make([]*Prepared, max(job.Procs, 1))
	for i := range ps {
		p, err := prepare(parallelJob(job, i), salt, alive, now)
		if err != nil {
			if i > 0 {
				return nil, fmt.Errorf("goroutine %d of %d: %w", i+1, len(ps), err)
			}
			return nil, err
		}
		ps[i] = p
	}
	return ps, nil
}

// buildProcs builds op o's loop on each Prepared of ps (one per
// goroutine), and for several, the parallel loop of all of them. path,
// the self-timed bench's loop through the Case interface, is the first
// goroutine's.
func buildProcs(o operation, ps []*Prepared, in opInput, self bool) (loop, *control, loop, error) {
	if len(ps) == 1 {
		return o.build(ps[0], in)
	}
	loops := make([]loop, len(ps))
	ctls := make([]*control, len(ps))
	var path loop
	for i, p := range ps {
		pin := in
		pin.seed = in.seed + uint64(i)<<40
		if self {
			ls, err := loopers(p)
			if err != nil {
				return nil, nil, nil, err
			}
			pin.loopers = ls
		}
		l, ctl, pth, err := o.build(p, pin)
		if err != nil {
			return nil, nil, nil, err
		}
		if i == 0 {
			path = pth
		}
		loops[i], ctls[i] = l, ctl
	}
	l, agg := parallelLoop(loops, ctls, in.now)
	return l, agg, path, nil
}

// OnProcs returns jobs with each job repeated once per GOMAXPROCS of cpus
// (go test -cpu's list), its copies side by side so that a codec's
// benchmarks at every GOMAXPROCS are sampled interleaved; jobs as they
// are when cpus is empty.
func OnProcs(jobs []Job, cpus []int) []Job {
	if len(cpus) == 0 {
		return jobs
	}
	out := make([]Job, 0, len(jobs)*len(cpus))
	for _, j := range jobs {
		for _, n := range cpus {
			j.Procs = n
			out = append(out, j)
		}
	}
	return out
}

// ProcsOf returns the GOMAXPROCS values the jobs run at, in the order
// they first appear; none when no job sets one.
func ProcsOf(jobs []Job) []int {
	var out []int
	for _, j := range jobs {
		if j.Procs > 0 && !slices.Contains(out, j.Procs) {
			out = append(out, j.Procs)
		}
	}
	return out
}

// SpinSpeedup returns the machine's ceiling for a speed-up at procs: how
// many times as much work a loop of pure arithmetic (no memory, no
// locks) does on procs goroutines at GOMAXPROCS procs as on one at
// GOMAXPROCS 1, each timed for d, the one-goroutine figure the mean of a
// run before and one after. On a machine of its own it is procs; where
// other work holds cores it is less, and no codec's speed-up there can
// be more.
func SpinSpeedup(procs int, d time.Duration) float64 {
	before := spinWork(1, d)
	at := spinWork(procs, d)
	one := (before + spinWork(1, d)) / 2
	if one <= 0 {
		return 0
	}
	return at / one
}

// spinWork runs the arithmetic loop on procs goroutines at GOMAXPROCS
// procs for d and returns the iterations made per second.
func spinWork(procs int, d time.Duration) float64 {
	defer useProcs(procs)()
	var total atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for g := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x, n := uint64(g+1), int64(0)
			for time.Since(start) < d {
				for range spinChunk {
					x = x*6364136223846793005 + 1442695040888963407
				}
				n += spinChunk
			}
			spinSink.Store(x)
			total.Add(n)
		}()
	}
	wg.Wait()
	return float64(total.Load()) / time.Since(start).Seconds()
}

// spinChunk is how many iterations the loop makes between reads of the
// clock.
const spinChunk = 1 << 14

// spinSink keeps the loop's result alive.
var spinSink atomic.Uint64
