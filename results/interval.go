package results

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// An Interval is a figure with its confidence interval: a median time with
// the bounds benchmath gives it, a sum of such times, or an exact figure
// such as a size (Lo = Hi = Mid). An Interval whose bounds are both zero
// is unknown: too few samples for an interval. It is the one interval
// algebra of serbench: every report and verdict that calls two figures
// apart, tied or undecided asks it.
//
// The rule: an unknown interval is never apart from anything. It is not a
// point at its median (that would call two medians of three samples
// apart), and a sum or ratio with an unknown part is unknown.
type Interval struct {
	Mid, Lo, Hi float64
	exact       bool // known even at zero: a size or an allocation count
}

// Exact returns the interval of an exact figure, such as a size in bytes
// (zero included).
func Exact(x float64) Interval { return Interval{x, x, x, true} }

// Interval returns the median with its confidence interval.
func (s Stat) Interval() Interval { return Interval{Mid: s.Median, Lo: s.Lo, Hi: s.Hi} }

// Known reports whether v has bounds.
func (v Interval) Known() bool { return v.exact || v.Lo > 0 || v.Hi > 0 }

// Plus adds two intervals bound to bound: a conservative interval for the
// sum, such as a round trip's encode plus decode. The sum is unknown when
// either part is: half an interval is not an interval.
func (v Interval) Plus(w Interval) Interval {
	if !v.Known() || !w.Known() {
		return Interval{Mid: v.Mid + w.Mid}
	}
	return Interval{v.Mid + w.Mid, v.Lo + w.Lo, v.Hi + w.Hi, v.exact && w.exact}
}

// Times returns v scaled by k > 0, such as a time per op times a size.
func (v Interval) Times(k float64) Interval {
	return Interval{v.Mid * k, v.Lo * k, v.Hi * k, v.exact}
}

// Over returns the ratio v/w with its bounds (v.Lo/w.Hi to v.Hi/w.Lo),
// unknown when either is unknown or a bound of w is not positive.
func (v Interval) Over(w Interval) Interval {
	if w.Mid == 0 {
		return Interval{}
	}
	if !v.Known() || !w.Known() || w.Lo <= 0 {
		return Interval{Mid: v.Mid / w.Mid}
	}
	return Interval{v.Mid / w.Mid, v.Lo / w.Hi, v.Hi / w.Lo, v.exact && w.exact}
}

// Compare returns -1 if a lies wholly below b, +1 if wholly above, and 0
// if they overlap; known is false when either interval is unknown, and
// then the answer is 0: an unknown interval is never apart.
func Compare(a, b Interval) (c int, known bool) {
	switch {
	case !a.Known() || !b.Known():
		return 0, false
	case a.Hi < b.Lo:
		return -1, true
	case a.Lo > b.Hi:
		return 1, true
	}
	return 0, true
}

// Apart reports whether a and b are apart beyond their intervals: both
// known and not overlapping.
func Apart(a, b Interval) bool {
	c, _ := Compare(a, b)
	return c != 0
}

// Tied reports whether a and b are within noise of each other: both known
// and overlapping. Two figures are neither apart nor tied when either
// interval is unknown.
func Tied(a, b Interval) bool {
	c, known := Compare(a, b)
	return known && c == 0
}

// Spread returns the interval of a figure measured once in each of
// several processes whose outcome varies only by what differs between
// processes (instruction counts: a process's random hash seeds decide how
// many probes its maps' lookups make): the median, bounded by the
// smallest and the largest figure. It is unknown for fewer than two
// figures: one process says nothing of what the next would count.
func Spread(xs []float64) Interval {
	if len(xs) == 0 {
		return Interval{}
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	mid := s[n/2]
	if n%2 == 0 {
		mid = (s[n/2-1] + s[n/2]) / 2
	}
	if n < 2 {
		return Interval{Mid: mid}
	}
	return Interval{Mid: mid, Lo: s[0], Hi: s[n-1], exact: true}
}

// Summarize returns the median of xs with its confidence interval at
// confidence (0.95: benchstat's), as x/perf's benchmath computes it
// assuming nothing of the distribution; bounds it cannot give (too few
// samples) are zero: an unknown interval.
func Summarize(xs []float64, confidence float64) Stat {
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), confidence)
	st := Stat{Median: s.Center, Lo: s.Lo, Hi: s.Hi}
	if math.IsInf(st.Lo, 0) || math.IsInf(st.Hi, 0) {
		st.Lo, st.Hi = 0, 0
	}
	return st
}
