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

// Contested returns the keys of the ranked results whose standing against
// a rival is not settled by this run, sorted: in each set of rivals (the
// codecs measured on one dataset, shape and op), a pair whose medians are
// more than ActGap apart while their intervals overlap or one of them has
// none (their order is what a reader acts on, and another run could turn
// it), and the fastest two when their intervals overlap (the answer turns
// on them). More samples of these, and of no others, make two runs agree.
func Contested(rs []Result) []string {
	sets := map[string][]*Result{}
	for i := range rs {
		r := &rs[i]
		if !r.Ranked() {
			continue
		}
		k := string(r.Op) + "\x00" + r.Dataset + "\x00" + r.Shape + ProcsSuffix(r.Procs)
		sets[k] = append(sets[k], r)
	}
	out := map[string]bool{}
	for _, set := range sets {
		slices.SortFunc(set, func(a, b *Result) int { return cmp.Compare(a.NsPerOp.Median, b.NsPerOp.Median) })
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
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
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
