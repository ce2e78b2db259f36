package results

import (
	"cmp"
	"slices"
)

// ActGap is the smallest difference between two codecs' medians that a
// reader acts on: two figures closer than this are a tie in practice,
// whatever their intervals say, and their order may change from run to
// run without changing an answer.
const ActGap = 0.10

// Turnable returns the keys of the ranked results, sorted, whose order
// against a rival the machine's two speeds could turn (m.Slowdown, when
// the machine was busy for MinBusy of the run or more): in each set of
// rivals, a pair more than ActGap apart, separated or not, whose slower
// member is less than m.Slowdown times the faster. One run cannot tell a
// codec from the phase its samples fell in, since a phase lasts longer
// than a benchmark's samples; sampling both again in a second window, later
// in the run, puts each figure over two phases and widens its interval
// by as much as the phases moved it. On a machine that was never busy it
// returns nothing, the order least likely to turn first after Contested's.
func Turnable(rs []Result, m Machine) []string {
	if m.Busy < MinBusy || m.Slowdown <= 1+ActGap {
		return nil
	}
	out := map[string]bool{}
	for _, set := range rivalSets(rs) {
		for i, a := range set {
			for _, b := range set[i+1:] {
				ratio := b.NsPerOp.Median / a.NsPerOp.Median
				if ratio > 1+ActGap && ratio < m.Slowdown {
					out[a.Key()], out[b.Key()] = true, true
				}
			}
		}
	}
	return sortedKeys(out)
}

// MinBusy is the share of a run's machine probes that must be busy for the
// run to count as one on a machine of two speeds: on a machine of its own
// the probe is busy for less than 1% of a run.
const MinBusy = 0.05

// rivalSets returns the ranked results by set of rivals (the codecs
// measured on one dataset, shape and op, at one GOMAXPROCS), each sorted
// by median.
func rivalSets(rs []Result) [][]*Result {
	sets := map[string][]*Result{}
	var order []string
	for i := range rs {
		r := &rs[i]
		if !r.Ranked() {
			continue
		}
		k := string(r.Op) + "\x00" + r.Dataset + "\x00" + r.Shape + ProcsSuffix(r.Procs)
		if _, ok := sets[k]; !ok {
			order = append(order, k)
		}
		sets[k] = append(sets[k], r)
	}
	out := make([][]*Result, 0, len(order))
	for _, k := range order {
		set := sets[k]
		slices.SortFunc(set, func(a, b *Result) int { return cmp.Compare(a.NsPerOp.Median, b.NsPerOp.Median) })
		out = append(out, set)
	}
	return out
}

func sortedKeys(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Contested returns the keys of the ranked results whose standing against
// a rival is not settled by this run, sorted: in each set of rivals (the
// codecs measured on one dataset, shape and op), a pair whose medians are
// more than ActGap apart while their intervals overlap or one of them has
// none (their order is what a reader acts on, and another run could turn
// it), and the fastest two when their intervals overlap (the answer turns
// on them). More samples of these first, and then of the Turnable ones,
// make two runs agree.
func Contested(rs []Result) []string {
	out := map[string]bool{}
	for _, set := range rivalSets(rs) {
		for i, a := range set {
			for _, b := range set[i+1:] {
				if b.NsPerOp.Median <= a.NsPerOp.Median*(1+ActGap) {
					continue // a tie in practice
				}
				if !separated(a.NsPerOp, b.NsPerOp) {
					out[a.Key()], out[b.Key()] = true, true
				}
			}
		}
		if len(set) >= 2 && !separated(set[0].NsPerOp, set[1].NsPerOp) {
			out[set[0].Key()], out[set[1].Key()] = true, true
		}
	}
	return sortedKeys(out)
}

// separated reports whether two figures' intervals are both known and do
// not overlap.
func separated(a, b Stat) bool {
	known := func(s Stat) bool { return s.Lo > 0 && s.Hi > 0 }
	if !known(a) || !known(b) {
		return false
	}
	return a.Hi < b.Lo || b.Hi < a.Lo
}
