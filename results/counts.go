package results

import (
	"math"
	"slices"
	"sort"
)

// CountGap is the least relative difference of two counts that orders
// them: far beyond what separates two counts of the same code (a
// process's random hash seeds move a count by a fraction of a percent;
// docs/harness.md).
const CountGap = 0.02

// A CountPair is two codecs' results of one op on one category that time
// and instruction counts judge: A runs fewer instructions than B.
type CountPair struct {
	Category Category
	Op       Op
	A, B     *Result
}

// Gap is how many more instructions B runs than A, relative to A's.
func (p CountPair) Gap() float64 { return p.B.InstrPerOp/p.A.InstrPerOp - 1 }

// CountJudged sorts the pairs of codecs of each category and op (encode
// and decode) that both measures saw: decided, the pairs whose time
// intervals overlap (or are unknown) and whose counts differ by more than
// CountGap, which the counts alone order; disagree, the pairs whose times
// are apart one way and whose counts differ the other way by more than
// CountGap: work done at a different speed per instruction (SIMD,
// memory-bound code, allocation), a finding. Each list is by decreasing
// gap; timeOnly counts the pairs that only time could judge, one side
// not counted (skipped under Valgrind, or at a GOMAXPROCS above 1).
func CountJudged(rs []Result) (decided, disagree []CountPair, timeOnly int) {
	ix := NewIndex(rs)
	for _, cat := range ix.Categories {
		for _, op := range []Op{Encode, Decode} {
			var got []*Result
			for _, c := range ix.Cells(cat) {
				if r := c.Result(op); r != nil && r.Status == OK && r.Implausible == "" && len(r.Samples) > 0 {
					got = append(got, r)
				}
			}
			for i := range got {
				for j := i + 1; j < len(got); j++ {
					a, b := got[i], got[j]
					if a.InstrPerOp <= 0 || b.InstrPerOp <= 0 {
						timeOnly++
						continue
					}
					if a.InstrPerOp > b.InstrPerOp {
						a, b = b, a
					}
					if b.InstrPerOp/a.InstrPerOp-1 <= CountGap {
						continue
					}
					p := CountPair{Category: cat, Op: op, A: a, B: b}
					switch c, _ := Compare(a.NsPerOp.Interval(), b.NsPerOp.Interval()); c {
					case 0:
						decided = append(decided, p)
					case 1:
						disagree = append(disagree, p)
					}
				}
			}
		}
	}
	byGap := func(ps []CountPair) {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].Gap() > ps[j].Gap() })
	}
	byGap(decided)
	byGap(disagree)
	return decided, disagree, timeOnly
}

// RankCorrelation returns Spearman's rank correlation of the time
// medians and the instruction counts of the results that have both
// (ties ranked by their mean rank), and how many there are; NaN for
// fewer than three.
func RankCorrelation(rs []Result) (rho float64, n int) {
	var ts, cs []float64
	for i := range rs {
		r := &rs[i]
		if r.Status == OK && r.InstrPerOp > 0 && len(r.Samples) > 0 {
			ts = append(ts, r.NsPerOp.Median)
			cs = append(cs, r.InstrPerOp)
		}
	}
	if len(ts) < 3 {
		return math.NaN(), len(ts)
	}
	return pearson(ranks(ts), ranks(cs)), len(ts)
}

// ranks returns the rank of each of xs, from 1, ties given their mean.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case xs[a] < xs[b]:
			return -1
		case xs[a] > xs[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			out[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return out
}

// pearson is the correlation of xs and ys.
func pearson(xs, ys []float64) float64 {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / math.Sqrt(sxx*syy)
}

// InstrInterval returns r's count with its spread over the processes that
// counted it (Spread): unknown bounds when one process counted it.
func (r *Result) InstrInterval() Interval {
	if len(r.InstrCounts) == 0 {
		return Interval{Mid: r.InstrPerOp}
	}
	return Spread(r.InstrCounts)
}
