package runner

import (
	"context"
	"math"
	"runtime"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/serbench/serbench/results"
)

// A loop runs the operation under test n times.
type loop func(n int) error

// timeOnce runs l(n) once and measures it.
func (r *Runner) timeOnce(l loop, n int) (results.Sample, time.Duration, error) {
	if !r.opts.NoGC {
		runtime.GC()
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	err := l(n)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&m1)
	r.peakHeap = max(r.peakHeap, m1.HeapAlloc, m0.HeapAlloc)
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
		perOp := max(d.Nanoseconds(), 1) / int64(n)
		if perOp == 0 {
			perOp = 1
		}
		next := int64(float64(r.opts.SampleTime.Nanoseconds()) / float64(perOp) * 1.2)
		next = min(next, 100*int64(prev), 1e9)
		n = int(max(next, int64(prev)+1))
	}
}

// measure calibrates and samples l until the target or the budget.
func (r *Runner) measure(ctx context.Context, l loop, res *results.Result) error {
	n, err := r.calibrate(ctx, l)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(r.opts.Budget)
	var ns []float64
	for len(res.Samples) < r.opts.MaxSamples {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, _, err := r.timeOnce(l, n)
		if err != nil {
			return err
		}
		res.Samples = append(res.Samples, s)
		ns = append(ns, s.NsPerOp)
		if len(ns) >= r.opts.MinSamples {
			res.NsPerOp = summarize(ns, r.opts.Confidence)
			res.TargetMet = res.NsPerOp.RelCI() <= r.opts.Target
			if res.TargetMet {
				break
			}
		}
		// Past the budget, stop once MinSamples are in; an operation so
		// slow that it cannot reach them stops at three samples (a median
		// still exists) once it has spent three budgets.
		now := time.Now()
		if now.After(deadline) && len(ns) >= r.opts.MinSamples ||
			now.After(deadline.Add(2*r.opts.Budget)) && len(ns) >= min(3, r.opts.MinSamples) {
			break
		}
	}
	res.NsPerOp = summarize(ns, r.opts.Confidence)
	res.BPerOp = median(res.Samples, func(s results.Sample) float64 { return s.BPerOp })
	res.Allocs = median(res.Samples, func(s results.Sample) float64 { return s.AllocsPerOp })
	return nil
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
