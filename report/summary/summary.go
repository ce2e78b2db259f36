package summary

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// Ladder is the size ladder of seeds 000 and 002, smallest first.
var Ladder = []string{"tiny", "medium", "big", "huge"}

// Write writes the findings of run as Markdown.
func Write(w io.Writer, run *results.Run) error {
	bw := bufio.NewWriter(w)
	ix := newIndex(run)
	s := &writer{w: bw, ix: ix}
	s.header()
	s.answer()
	s.method()
	s.winners()
	s.ladder()
	s.crossover("gob")
	s.crossover("gob-stream")
	s.stream()
	s.claims()
	s.problems()
	s.hostile()
	return bw.Flush()
}

// A writer writes the sections of a summary.
type writer struct {
	w  *bufio.Writer
	ix *index
}

func (s *writer) p(format string, args ...any) { fmt.Fprintf(s.w, format+"\n", args...) }

func (s *writer) header() {
	run := s.ix.run
	e := run.Env
	s.p("# serbench findings")
	s.p("")
	var what []string
	if run.Options.Preset != "" {
		what = append(what, "preset "+text(run.Options.Preset))
	}
	if run.Document != nil {
		what = append(what, "document "+text(run.Document.String()))
	}
	what = append(what, fmt.Sprintf("%d results", len(run.Results)))
	s.p("Run of %s (%s) on %s, %s/%s, %s, GOMAXPROCS %d, serbench %s.",
		text(e.Date), strings.Join(what, ", "), text(e.CPU), text(e.GOOS), text(e.GOARCH), text(e.GoVersion), e.GOMAXPROCS, text(e.Serbench))
	if m := run.Machine; m != nil && m.Probes > 0 {
		s.p("The machine was %s.", m)
	}
	s.p("")
}

// method says how to read the figures.
func (s *writer) method() {
	run := s.ix.run
	conf := run.Options.Confidence
	if conf == 0 {
		conf = 0.95
	}
	s.p("Times are medians per operation with their %.0f%% confidence interval (±); one codec is called faster than another",
		100*conf)
	s.p("only when the two intervals do not overlap, and tied otherwise. Sizes are exact encoded bytes of one message.")
	s.p("Every figure comes from a round trip verified before timing, on two distinct values, and again after it (the last")
	s.p("encoding and decoded value, then up to 1,000 more round trips); a figure too fast to be the codec's work (below twice")
	s.p("the loop overhead, or faster than copying its encoding) is called implausible and left out of every ranking.")
	s.p("† marks codecs whose comparisons are not like for like: a variant")
	s.p("measured in a non-default way, a non-reflection API (hand-written or generated code), or declared losses.")
}

// winners writes the fastest and smallest codec of every category.
func (s *writer) winners() {
	var rows []string
	var flagged []string
	for _, c := range s.ix.cats {
		enc := s.fastest(results.Encode, c, &flagged)
		dec := s.fastest(results.Decode, c, &flagged)
		small := s.smallest(c, &flagged)
		if enc == "" && dec == "" && small == "" {
			continue
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", cell(text(c.String())), cell(or(enc)), cell(or(dec)), cell(or(small))))
	}
	if len(rows) == 0 {
		return
	}
	s.p("")
	s.p("## Fastest and smallest per dataset and shape")
	s.p("")
	s.p("The winner of each category, and how far behind the next codec is (or which codecs it is tied with).")
	s.p("")
	s.p("| dataset/shape | fastest encode | fastest decode | smallest encoding |")
	s.p("|---|---|---|---|")
	for _, r := range rows {
		s.p("%s", r)
	}
	if len(flagged) > 0 {
		s.p("")
		s.p("† Not like for like:")
		s.p("")
		for _, name := range flagged {
			var why []string
			c := s.ix.run.Codec(name)
			if c.Variant != "" {
				why = append(why, "variant: "+c.Variant)
			}
			if c.API != "" && c.API != "reflection" {
				why = append(why, c.API+" API")
			}
			if len(c.Losses) > 0 {
				why = append(why, "declared losses: "+strings.Join(c.Losses, ", "))
			}
			if c.Notes != "" {
				why = append(why, c.Notes)
			}
			s.p("- %s: %s", text(name), text(strings.Join(why, "; ")))
		}
	}
}

func or(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// fastest describes the fastest codec for op on c.
func (s *writer) fastest(op results.Op, c category, flagged *[]string) string {
	rs := s.ix.measured(op, c)
	if len(rs) == 0 {
		return ""
	}
	slices.SortStableFunc(rs, func(a, b *results.Result) int {
		return cmpFloat(a.NsPerOp.Median, b.NsPerOp.Median)
	})
	best := rs[0]
	out := fmt.Sprintf("**%s** %s", s.ix.name(best.Codec, flagged), durCI(best))
	if len(rs) == 1 {
		return out + " (only codec)"
	}
	var tied []string
	for _, r := range rs[1:] {
		if comparable(stat(best), stat(r)) && compare(stat(best), stat(r)) == 0 {
			tied = append(tied, fmt.Sprintf("%s %s", text(r.Codec), dur(r.NsPerOp.Median)))
		}
	}
	if len(tied) > 0 {
		return out + "; tied with " + strings.Join(tied, ", ")
	}
	next := rs[1]
	out += fmt.Sprintf("; next %s %s, %s slower", text(next.Codec), dur(next.NsPerOp.Median), ratio(next.NsPerOp.Median/best.NsPerOp.Median))
	if !comparable(stat(best), stat(next)) {
		out += " by median (no interval: too few samples)"
	}
	return out
}

// smallest describes the codec with the smallest encoding of c.
func (s *writer) smallest(c category, flagged *[]string) string {
	type sized struct {
		codec string
		n     int
	}
	var all []sized
	for _, name := range s.ix.codecs {
		if n := s.ix.size(name, c); n >= 0 {
			all = append(all, sized{name, n})
		}
	}
	if len(all) == 0 {
		return ""
	}
	slices.SortStableFunc(all, func(a, b sized) int { return a.n - b.n })
	var best []string
	i := 0
	for ; i < len(all) && all[i].n == all[0].n; i++ {
		best = append(best, s.ix.name(all[i].codec, flagged))
	}
	out := fmt.Sprintf("**%s** %s", strings.Join(best, ", "), bytes(all[0].n))
	switch {
	case len(all) == 1:
		return out + " (only codec)"
	case i < len(all):
		return out + fmt.Sprintf("; next %s %s, %s larger", text(all[i].codec), bytes(all[i].n), ratio(float64(all[i].n)/float64(max(1, all[0].n))))
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ladder writes how each codec scales along the size ladder, shape by
// shape: time and bytes per message, per item for the slice shapes.
func (s *writer) ladder() {
	type line struct {
		codec  string
		values [3][]float64 // encode ns, decode ns, bytes; NaN-free, 0 = missing
	}
	wrote := false
	for _, shape := range s.shapes() {
		var rungs []category
		for _, d := range Ladder {
			c := category{Dataset: d, Shape: shape}
			if slices.Contains(s.ix.cats, c) {
				rungs = append(rungs, c)
			}
		}
		if len(rungs) < 2 {
			continue
		}
		perItem := shape != "single"
		var lines []line
		for _, name := range s.ix.codecs {
			l := line{codec: name}
			n := 0
			for _, c := range rungs {
				enc, dec := s.ix.get(results.Encode, name, c), s.ix.get(results.Decode, name, c)
				var e, d, b float64
				items := 1.0
				for _, r := range []*results.Result{enc, dec} {
					if r != nil && perItem && r.Items > 0 {
						items = float64(r.Items)
					}
				}
				if enc != nil {
					e = enc.NsPerOp.Median / items
				}
				if dec != nil {
					d = dec.NsPerOp.Median / items
				}
				if sz := s.ix.size(name, c); sz >= 0 {
					b = float64(sz) / items
					n++
				}
				l.values[0] = append(l.values[0], e)
				l.values[1] = append(l.values[1], d)
				l.values[2] = append(l.values[2], b)
			}
			if n >= 2 {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			continue
		}
		if !wrote {
			s.p("")
			s.p("## Scaling along the size ladder")
			wrote = true
		}
		s.p("")
		unit := "per message"
		if perItem {
			unit = "per item (the message's time or size divided by the number of elements in the slice)"
		}
		s.p("### shape %s, %s", text(shape), unit)
		s.p("")
		head := "| codec | |"
		sep := "|---|---|"
		for _, c := range rungs {
			head += " " + text(c.Dataset) + " |"
			sep += "---:|"
		}
		s.p("%s growth |", head)
		s.p("%s---:|", sep)
		metrics := []string{"encode", "decode", "bytes"}
		type growth struct {
			codec string
			f     float64
			span  string
		}
		var grow [3][]growth
		for _, l := range lines {
			for m, vals := range l.values {
				row := fmt.Sprintf("| %s | %s |", cell(text(l.codec)), metrics[m])
				if m > 0 {
					row = fmt.Sprintf("| | %s |", metrics[m])
				}
				first, last := -1, -1
				for i, v := range vals {
					switch {
					case v == 0:
						row += " – |"
						continue
					case m == 2:
						row += " " + bytesF(v) + " |"
					default:
						row += " " + dur(v) + " |"
					}
					if first < 0 {
						first = i
					}
					last = i
				}
				if first >= 0 && last > first {
					f := vals[last] / vals[first]
					span := rungs[first].Dataset + "→" + rungs[last].Dataset
					row += fmt.Sprintf(" %s %s |", change(f), text(span))
					grow[m] = append(grow[m], growth{l.codec, f, span})
				} else {
					row += " |"
				}
				s.p("%s", row)
			}
		}
		// One sentence per metric: the codecs whose figure grows least and
		// most over the same span (or falls, a ratio below 1).
		s.p("")
		for m, gs := range grow {
			full := rungs[0].Dataset + "→" + rungs[len(rungs)-1].Dataset
			var same []growth
			for _, g := range gs {
				if g.span == full {
					same = append(same, g)
				}
			}
			if len(same) < 2 {
				continue
			}
			slices.SortStableFunc(same, func(a, b growth) int { return cmpFloat(a.f, b.f) })
			lo, hi := same[0], same[len(same)-1]
			what := fmt.Sprintf("%s %s from %s", strings.ToUpper(metrics[m][:1])+metrics[m][1:],
				map[bool]string{true: "per item", false: "per message"}[perItem], text(full))
			switch {
			case lo.f >= 1:
				s.p("- %s grows least for %s (%s) and most for %s (%s).", what, text(lo.codec), ratio(lo.f), text(hi.codec), ratio(hi.f))
			case hi.f >= 1:
				most := "" // one codec shrinks, or several and lo the most
				if len(same) > 1 && same[1].f < 1 {
					most = " most"
				}
				s.p("- %s shrinks%s for %s (falls to %s) and grows most for %s (%s).", what, most, text(lo.codec), ratio(lo.f), text(hi.codec), ratio(hi.f))
			default:
				s.p("- %s shrinks for every codec: most for %s (falls to %s), least for %s (falls to %s).", what, text(lo.codec), ratio(lo.f), text(hi.codec), ratio(hi.f))
			}
		}
	}
}

// shapes returns the shapes of the run, in order of first appearance.
func (s *writer) shapes() []string {
	var out []string
	for _, c := range s.ix.cats {
		if !slices.Contains(out, c.Shape) {
			out = append(out, c.Shape)
		}
	}
	return out
}
