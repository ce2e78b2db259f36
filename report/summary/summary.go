package summary

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// sizeLadder is the size ladder of seeds 000 and 002, smallest first.
var sizeLadder = []string{"tiny", "medium", "big", "huge"}

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
	s.p("encoding and decoded value, then up to 1,000 more round trips); a figure too fast to be the codec's work (%s)", results.ImplausibleRule)
	s.p("is called implausible and left out of every ranking, with the codec's other figures on that dataset shape.")
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
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", text(c.String()), or(enc), or(dec), or(small)))
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
				why = append(why, "declared losses: "+strings.Join(c.LossText(), ", "))
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
		if results.Tied(stat(best), stat(r)) {
			tied = append(tied, fmt.Sprintf("%s %s", text(r.Codec), dur(r.NsPerOp.Median)))
		}
	}
	if len(tied) > 0 {
		return out + "; tied with " + strings.Join(tied, ", ")
	}
	next := rs[1]
	out += fmt.Sprintf("; next %s %s, %s slower", text(next.Codec), dur(next.NsPerOp.Median), ratio(next.NsPerOp.Median/best.NsPerOp.Median))
	if _, known := results.Compare(stat(best), stat(next)); !known {
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
