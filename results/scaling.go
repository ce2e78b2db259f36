package results

import "fmt"

// Throughput returns the result's messages per second and megabytes (1e6
// bytes of encoding) per second at its median: with Procs above 1, those
// of all its goroutines together. Both are 0 when it has no median.
func (r *Result) Throughput() (msgsPerSec, mbPerSec float64) {
	m := r.NsPerOp.Median
	if m <= 0 {
		return 0, 0
	}
	return 1e9 / m, float64(r.Bytes) * 1e3 / m
}

// A Scaling is how one benchmark's throughput grows from one goroutine
// at GOMAXPROCS 1 to Procs goroutines at GOMAXPROCS Procs (run -cpu).
type Scaling struct {
	Op             Op
	Codec          string
	Dataset, Shape string
	Procs          int
	// Speedup is the one-goroutine time per op over the Procs-goroutine
	// one: Procs for a codec that scales perfectly. Its bounds are the
	// ratio's worst and best from the two medians' intervals (0 when
	// either interval is unknown).
	Speedup Stat
	// Efficiency is Speedup over Procs: 1 for perfect scaling; below it,
	// what shared state (a pool, a cache, a lock, the collector) costs.
	Efficiency Stat
	// Base and At are the two results compared.
	Base, At *Result
}

// Scalings returns, for every ranked result at a GOMAXPROCS above 1, its
// scaling against the same benchmark at GOMAXPROCS 1, in the order of
// rs. A result whose one-goroutine twin is missing or not ranked has none.
func Scalings(rs []Result) []Scaling {
	type key struct {
		op                    Op
		codec, dataset, shape string
	}
	base := map[key]*Result{}
	for i := range rs {
		if r := &rs[i]; r.Procs == 1 && r.Ranked() {
			base[key{r.Op, r.Codec, r.Dataset, r.Shape}] = r
		}
	}
	var out []Scaling
	for i := range rs {
		r := &rs[i]
		if r.Procs <= 1 || !r.Ranked() || r.NsPerOp.Median <= 0 {
			continue
		}
		b, ok := base[key{r.Op, r.Codec, r.Dataset, r.Shape}]
		if !ok {
			continue
		}
		s := Scaling{Op: r.Op, Codec: r.Codec, Dataset: r.Dataset, Shape: r.Shape, Procs: r.Procs, Base: b, At: r}
		s.Speedup = Stat{Median: b.NsPerOp.Median / r.NsPerOp.Median}
		if b.NsPerOp.Lo > 0 && r.NsPerOp.Lo > 0 && b.NsPerOp.Hi > 0 && r.NsPerOp.Hi > 0 {
			s.Speedup.Lo = b.NsPerOp.Lo / r.NsPerOp.Hi
			s.Speedup.Hi = b.NsPerOp.Hi / r.NsPerOp.Lo
		}
		n := float64(r.Procs)
		s.Efficiency = Stat{Median: s.Speedup.Median / n, Lo: s.Speedup.Lo / n, Hi: s.Speedup.Hi / n}
		out = append(out, s)
	}
	return out
}

// FlagScaling flags (Result.Flagged) every result at a GOMAXPROCS above 1
// whose speed-up over its one-goroutine twin is beyond the machine's
// ceiling there (Env.SpinSpeedup, up to Env.SpinSpeedupHi: the ceilings
// measured as the run started and as it ended), interval against
// interval: the speed-up's lower bound above the ceiling's highest
// reading. A loop of pure arithmetic is as far as work can scale on
// those cores; a codec that goes further did not do on every goroutine
// the work it reported (issue 41). A result already flagged keeps its
// reason.
func FlagScaling(rs []Result, env Env) {
	ceiling := map[int]float64{}
	for i, n := range env.CPUList {
		c := 0.0
		if i < len(env.SpinSpeedup) {
			c = env.SpinSpeedup[i]
		}
		if i < len(env.SpinSpeedupHi) {
			c = max(c, env.SpinSpeedupHi[i])
		}
		if c > 0 {
			ceiling[n] = c
		}
	}
	for _, s := range Scalings(rs) {
		c, ok := ceiling[s.Procs]
		if !ok || s.Speedup.Lo <= c || s.At.Flagged != "" {
			continue
		}
		s.At.Flagged = fmt.Sprintf("a speed-up of %.2f× (at least %.2f×) on %d goroutines, where a loop of pure arithmetic reached %.2f× at most on this machine in this run: "+
			"the goroutines did not all do the work the figure counts", s.Speedup.Median, s.Speedup.Lo, s.Procs, c)
	}
}
