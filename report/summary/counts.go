package summary

import (
	"fmt"
	"math"
	"sort"

	"github.com/serbench/serbench/results"
)

// countShown is how many pairs each list of the counts section names.
const countShown = 10

// counts writes what a run that counted instructions adds: how many
// benchmarks were counted and why the others were not; for a run that
// also timed, which pairs of codecs the counts decide where time ties
// (named as the pairs the counts decide when the machine meter found the
// run busy), which pairs only time could judge, where the two measures
// disagree, and their rank correlation.
func (s *writer) counts() {
	run := s.ix.run
	if !run.Options.Counted() {
		return
	}
	n, why := 0, map[string]string{}
	var skipped []string
	for i := range run.Results {
		r := &run.Results[i]
		switch {
		case r.Status == results.OK && r.InstrPerOp > 0:
			n++
		case r.CountSkipped != "":
			if _, seen := why[r.Codec]; !seen {
				skipped = append(skipped, r.Codec)
			}
			why[r.Codec] = r.CountSkipped
		}
	}
	s.p("")
	s.p("## Instructions counted")
	s.p("")
	s.p("%d benchmarks counted under Valgrind (%s: the op's own instructions, allocation included and collection not; a busy machine does not move them).", n, results.UnitInstructions)
	sort.Strings(skipped)
	for _, c := range skipped {
		s.p("- %s not counted: %s", text(c), text(firstLine(why[c])))
	}
	if !run.Options.Timed() {
		s.fewest()
		return
	}
	decided, disagree, timeOnly := results.CountJudged(run.Results)
	if rho, k := results.RankCorrelation(run.Results); !math.IsNaN(rho) {
		s.p("")
		s.p("Rank correlation of time and instructions over the %d benchmarks with both: %.3f (Spearman).", k, rho)
	}
	s.p("")
	if m := run.Machine; m != nil && m.Probes > 0 && m.Busy >= results.MinBusy {
		s.p("The machine meter found the run busy (%s): time leaves %d pairs of codecs tied that the counts decide, by more than %.0f%% of instructions:",
			m, len(decided), 100*results.CountGap)
	} else {
		s.p("%d pairs of codecs tied by time differ by more than %.0f%% of instructions; the counts order them:", len(decided), 100*results.CountGap)
	}
	s.pairs(decided)
	if timeOnly > 0 {
		s.p("")
		s.p("%d pairs only time could judge: one of the two was not counted.", timeOnly)
	}
	if len(disagree) > 0 {
		s.p("")
		s.p("%d pairs are apart by time one way and by instructions the other (more work done faster: SIMD, memory-bound code, allocation):", len(disagree))
		s.pairs(disagree)
	}
}

// pairs lists up to countShown pairs.
func (s *writer) pairs(ps []results.CountPair) {
	if len(ps) == 0 {
		return
	}
	s.p("")
	for i, p := range ps {
		if i == countShown {
			s.p("- and %d more", len(ps)-countShown)
			break
		}
		s.p("- %s %s: %s %s instructions/op (%s), %s %s (%s): %.0f%% more",
			text(p.Category.String()), p.Op, text(p.A.Codec), results.FormatInstr(p.A.InstrPerOp), results.FormatNs(p.A.NsPerOp.Median),
			text(p.B.Codec), results.FormatInstr(p.B.InstrPerOp), results.FormatNs(p.B.NsPerOp.Median), 100*p.Gap())
	}
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}

// fewest writes, for a run that counted and did not time, the codec of
// fewest instructions per op of each category, encode and decode, with
// how many more the next one runs.
func (s *writer) fewest() {
	s.p("")
	s.p("| dataset/shape | fewest instructions, encode | fewest instructions, decode |")
	s.p("|---|---|---|")
	for _, c := range s.ix.cats {
		var cells [2]string
		for i, op := range []results.Op{results.Encode, results.Decode} {
			var rs []*results.Result
			for _, cell := range s.ix.cells.Cells(c) {
				if r := cell.Result(op); r != nil && r.Status == results.OK && r.InstrPerOp > 0 {
					rs = append(rs, r)
				}
			}
			sort.SliceStable(rs, func(a, b int) bool { return rs[a].InstrPerOp < rs[b].InstrPerOp })
			switch len(rs) {
			case 0:
				cells[i] = "-"
			case 1:
				cells[i] = fmt.Sprintf("only %s counted, %s", text(rs[0].Codec), results.FormatInstr(rs[0].InstrPerOp))
			default:
				cells[i] = fmt.Sprintf("%s, %s (next: %s, %.0f%% more)", text(rs[0].Codec), results.FormatInstr(rs[0].InstrPerOp),
					text(rs[1].Codec), 100*(rs[1].InstrPerOp/rs[0].InstrPerOp-1))
			}
		}
		s.p("| %s | %s | %s |", text(c.String()), cells[0], cells[1])
	}
}
