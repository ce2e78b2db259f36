package compare

import (
	"math"
	"strings"

	"github.com/serbench/serbench/results"
)

// A holdReason says why the gate does not judge a row it shows.
type holdReason int

const (
	judged   holdReason = iota
	byCounts            // both runs counted the benchmark's instructions: they decide
	bySpeeds            // a time change within a busy machine's two speeds
	byWait              // a time change where a side waited for the CPU
	unstable            // a unit gated only where stable, whose runs spread too wide
)

// hold returns why g does not judge r, or judged. A row of time (a unit
// Timed says is one) is left to the counts when both runs counted the
// benchmark (counted holds its name): a count is what a busy machine does
// not move. Otherwise, when either run's machine was busy (Speeds > 1), a
// time change no larger than its slowdown is undecided: the two runs may
// have sampled the same code at the machine's two speeds; and when either
// side of the benchmark waited for the CPU (waited holds its name: its
// wall time per op beyond its CPU time per op by more than WaitTolerance),
// its time is undecided: that side measured its share of a busy machine,
// and the contention that took the CPU from it also slows what it did
// run (caches, a sibling hyperthread). allocs/op and cpu-sec/op are
// judged only where their runs' spread leaves room to see a change of the
// threshold's size (not Gate.Blind): json's allocs/op move with the
// runtime's accounting between identical builds; B/op and allocs/op of
// an op whose allocation is amortized (amortizedNames) are not judged.
func (g Gate) hold(r Row, counted, waited, amortized map[string]bool) holdReason {
	if Timed(r.Unit) {
		if counted[r.Name] {
			return byCounts
		}
		if s := g.speeds(); s > 1 && withinSpeeds(r, s) {
			return bySpeeds
		}
		if waited[r.Name] {
			return byWait
		}
	}
	if stableOnly(r.Unit) && g.Blind(r) {
		return unstable
	}
	if (r.Unit == "B/op" || r.Unit == "allocs/op") && amortized[r.Name] {
		return unstable
	}
	return judged
}

// amortizedNames returns the benchmarks whose allocations per op are not
// a whole number on either side (by more than a twentieth): part of the
// op's allocation is amortized (a pool refilled after each collection, a
// buffer grown now and then), and how often it happens follows when the
// collector runs, which the machine's speed moves. Their B/op and
// allocs/op are not judged.
func amortizedNames(rows []Row) map[string]bool {
	m := map[string]bool{}
	frac := func(x float64) bool { return math.Abs(x-math.Round(x)) > 0.05 }
	for _, r := range rows {
		if r.Unit == "allocs/op" && (frac(r.Old.Center) || frac(r.New.Center)) {
			m[r.Name] = true
		}
	}
	return m
}

// WaitTolerance is how much longer than its CPU time per op a benchmark's
// wall time per op may be before its time is held undecided (Gate.hold):
// on a machine whose CPUs the run had to itself the two agree within a
// few percent (the collector's background work runs beside the op).
const WaitTolerance = 0.10

// waitedNames returns the benchmarks a side of which waited for the CPU:
// its median wall time per op (sec/op) more than WaitTolerance above its
// median CPU time per op (cpu-sec/op, the process's). A benchmark without
// CPU time (go test's output) is not among them.
func waitedNames(rows []Row) map[string]bool {
	wall := map[string]Row{}
	for _, r := range rows {
		if r.Unit == "sec/op" {
			wall[r.Name] = r
		}
	}
	m := map[string]bool{}
	for _, c := range rows {
		w, ok := wall[c.Name]
		if c.Unit != "cpu-sec/op" || !ok {
			continue
		}
		waited := func(wall, cpu float64) bool { return cpu > 0 && wall > (1+WaitTolerance)*cpu }
		if waited(w.Old.Center, c.Old.Center) || waited(w.New.Center, c.New.Center) {
			m[c.Name] = true
		}
	}
	return m
}

// Timed reports whether unit is a measure of time, which a busy machine
// moves: time per op (benchstat's sec/op and cpu-sec/op) and rates.
func Timed(unit string) bool {
	return unit == "sec/op" || strings.HasSuffix(unit, "-sec/op") || strings.HasSuffix(unit, "-ns") || higherIsBetter(unit)
}

// stableOnly reports whether unit is judged only where its runs agree
// with themselves.
func stableOnly(unit string) bool { return unit == "allocs/op" || unit == "cpu-sec/op" }

// countedNames returns the benchmarks both runs counted instructions of.
func countedNames(rows []Row) map[string]bool {
	m := map[string]bool{}
	for _, r := range rows {
		if r.Unit == results.UnitInstructions && r.Old.Center > 0 && r.New.Center > 0 {
			m[r.Name] = true
		}
	}
	return m
}

// flaggedCount judges a row of counts: a change beyond the threshold
// whose two counts' intervals (their processes' smallest and largest
// count, results.Spread) are apart. Two processes counting the same code
// differ by what their random hash seeds make map lookups probe
// (docs/harness.md): a change within that spread is not the code's. A
// side counted by one process has no spread, and then only a change
// beyond results.CountGap, what such processes were seen to differ by,
// is flagged.
func flaggedCount(g Gate, r Row) bool {
	if !interval(r.Old).Known() || !interval(r.New).Known() {
		return math.Abs(r.Change()) > max(g.Threshold, results.CountGap)+1e-9
	}
	return math.Abs(r.Change()) > g.Threshold+1e-9 && apart(r.Old, r.New)
}

// speeds returns the largest slowdown of the two runs' machines that
// their meters found busy (results.MinBusy of the run or more), 0 when
// neither was.
func (g Gate) speeds() float64 {
	s := 0.0
	for _, m := range g.Machines {
		if m != nil && m.Probes > 0 && m.Busy >= results.MinBusy {
			s = max(s, m.Slowdown)
		}
	}
	return s
}

// withinSpeeds reports whether r's change, either way, is no larger than
// slowdown s: the ratio of two medians of the same code sampled in the
// machine's two phases.
func withinSpeeds(r Row, s float64) bool {
	if r.Old.Center <= 0 || r.New.Center <= 0 {
		return false
	}
	ratio := r.New.Center / r.Old.Center
	return math.Max(ratio, 1/ratio) <= s
}
