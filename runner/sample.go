package runner

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/serbench/serbench/results"
)

// A loop runs the operation under test n times.
type loop func(n int) error

// A bench is one op of one job being sampled.
type bench struct {
	job, slot int // where its result goes in runGroup
	res       results.Result
	loop      loop
	n         int // iterations per sample, from calibration
	ns        []float64
	spent     time.Duration // time spent sampling, GC included
	done      bool
}

// fail ends the bench with an error result.
func (b *bench) fail(err error) {
	b.res = results.Result{Op: b.res.Op, Codec: b.res.Codec, Dataset: b.res.Dataset, Shape: b.res.Shape,
		Items: b.res.Items, Status: results.Error, Reason: fmt.Sprintf("%s: %v", b.res.Op, err)}
	b.done = true
}

// timeOnce runs l(n) once and measures it, turning a panic into an error.
func (r *Runner) timeOnce(l loop, n int) (s results.Sample, elapsed time.Duration, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, firstFrames(debug.Stack()))
		}
	}()
	if !r.opts.NoGC {
		runtime.GC()
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	err = l(n)
	elapsed = time.Since(start)
	runtime.ReadMemStats(&m1)
	r.peakHeap.Store(max(r.peakHeap.Load(), m1.HeapAlloc, m0.HeapAlloc))
	fn := float64(n)
	return results.Sample{
		Iters:       n,
		NsPerOp:     float64(elapsed.Nanoseconds()) / fn,
		BPerOp:      float64(m1.TotalAlloc-m0.TotalAlloc) / fn,
		AllocsPerOp: float64(m1.Mallocs-m0.Mallocs) / fn,
	}, elapsed, err
}

// calibrate finds the iteration count for one sample to last about
// SampleTime, the way testing.B grows b.N. The runs also warm up caches,
// pools and lazily built codec state.
func (r *Runner) calibrate(ctx context.Context, l loop) (int, error) {
	n := 1
	for {
		_, d, err := r.timeOnce(l, n)
		if err != nil {
			return 0, err
		}
		if d >= r.opts.SampleTime || n >= 1e9 {
			return n, nil
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		prev := n
		perOp := max(d.Nanoseconds()/int64(n), 1)
		next := int64(float64(r.opts.SampleTime.Nanoseconds()) / float64(perOp) * 1.2)
		next = min(next, 100*int64(prev), 1e9)
		n = int(max(next, int64(prev)+1))
	}
}

// sampleOnce takes one sample of b and decides whether b is finished:
// its interval is within the target after MinSamples, it has MaxSamples,
// or it has spent its budget (MinSamples in, or three samples and three
// budgets for an operation too slow for more).
func (r *Runner) sampleOnce(b *bench) {
	s, d, err := r.timeOnce(b.loop, b.n)
	b.spent += d
	if err != nil {
		b.fail(err)
		return
	}
	b.res.Samples = append(b.res.Samples, s)
	b.ns = append(b.ns, s.NsPerOp)
	o := r.opts
	if len(b.ns) >= o.MinSamples {
		b.res.NsPerOp = summarize(b.ns, o.Confidence)
		b.res.TargetMet = b.res.NsPerOp.RelCI() <= o.Target
	}
	if b.res.TargetMet || len(b.ns) >= o.MaxSamples ||
		b.spent >= o.Budget && len(b.ns) >= o.MinSamples ||
		b.spent >= 3*o.Budget && len(b.ns) >= min(3, o.MinSamples) {
		b.res.NsPerOp = summarize(b.ns, o.Confidence)
		b.res.BPerOp = median(b.res.Samples, func(s results.Sample) float64 { return s.BPerOp })
		b.res.Allocs = median(b.res.Samples, func(s results.Sample) float64 { return s.AllocsPerOp })
		b.done = true
	}
}

// sample samples the benches interleaved, round after round in a shuffled
// order (seeded: two runs shuffle alike), until each is done; finished is
// called for each as it ends. The sampling runs on one worker goroutine
// (pinned if asked) under a watchdog: a sample that outlives Timeout marks
// its bench as hung, the worker is abandoned and a new one goes on with
// the others.
func (r *Runner) sample(ctx context.Context, benches []*bench, finished func(*bench)) {
	rng := rand.New(rand.NewPCG(1, uint64(len(benches))))
	var mu sync.Mutex // guards the benches between a worker and the watchdog
	active := benches
	for len(active) > 0 {
		var current atomic.Pointer[bench]
		var since atomic.Int64 // start of the current sample, UnixNano
		var abandoned atomic.Bool
		workerDone := make(chan struct{})
		go func() {
			defer close(workerDone)
			if r.opts.PinCPU > 0 {
				if err := pin(r.opts.PinCPU - 1); err != nil {
					mu.Lock()
					for _, b := range active {
						b.fail(err)
						finished(b)
					}
					mu.Unlock()
					return
				}
			}
			for {
				mu.Lock()
				var next []*bench
				for _, b := range active {
					if !b.done {
						next = append(next, b)
					}
				}
				mu.Unlock()
				if len(next) == 0 || ctx.Err() != nil {
					return
				}
				rng.Shuffle(len(next), func(i, j int) { next[i], next[j] = next[j], next[i] })
				for _, b := range next {
					if ctx.Err() != nil {
						return
					}
					// Work on a copy, so that an abandoned worker that
					// wakes up late cannot touch the bench.
					mu.Lock()
					if abandoned.Load() {
						mu.Unlock()
						return
					}
					work := *b
					current.Store(b)
					since.Store(time.Now().UnixNano())
					mu.Unlock()
					r.sampleOnce(&work)
					mu.Lock()
					if abandoned.Load() {
						mu.Unlock()
						return
					}
					*b = work
					if b.done {
						finished(b)
					}
					mu.Unlock()
				}
			}
		}()
		hung := r.watch(ctx, workerDone, &current, &since)
		if hung == nil {
			return
		}
		mu.Lock()
		abandoned.Store(true)
		hung.fail(fmt.Errorf("a sample timed out after %v: the codec hung; its goroutine was abandoned", r.opts.Timeout))
		finished(hung)
		var rest []*bench
		for _, b := range active {
			if !b.done {
				rest = append(rest, b)
			}
		}
		active = rest
		mu.Unlock()
	}
}

// watch waits for the worker to finish and returns nil, or returns the
// bench whose sample has run longer than Timeout.
func (r *Runner) watch(ctx context.Context, workerDone <-chan struct{}, current *atomic.Pointer[bench], since *atomic.Int64) *bench {
	tick := time.NewTicker(min(r.opts.Timeout/10, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-workerDone:
			return nil
		case <-ctx.Done():
			<-workerDone // the worker checks ctx between samples
			return nil
		case <-tick.C:
			if b := current.Load(); b != nil && time.Since(time.Unix(0, since.Load())) > r.opts.Timeout {
				return b
			}
		}
	}
}

// summarize returns the median of xs and its confidence interval, with
// unknown bounds (too few samples) as zero.
func summarize(xs []float64, confidence float64) results.Stat {
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), confidence)
	st := results.Stat{Median: s.Center, Lo: s.Lo, Hi: s.Hi}
	if math.IsInf(st.Lo, 0) || math.IsInf(st.Hi, 0) {
		st.Lo, st.Hi = 0, 0
	}
	return st
}

func median(ss []results.Sample, f func(results.Sample) float64) float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	return summarize(xs, 0.95).Median
}
