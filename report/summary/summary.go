package summary

import (
	"bufio"
	"cmp"
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
	if !run.Options.Timed() {
		// A run that counted and did not time has no times to rank.
		s.counts()
		s.problems()
		return bw.Flush()
	}
	s.answer()
	s.method()
	s.winners()
	s.counts()
	s.corpora()
	s.ladder()
	s.crossover("gob")
	s.crossover("gob-stream")
	s.stream()
	s.scaling()
	s.memory()
	s.cold()
	s.compressed()
	s.streams()
	s.variants()
	s.reads()
	s.claims()
	s.problems()
	s.matrices()
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
	s.p("The winner of each category and how far behind the next codec is, named only when the next one's interval stands apart")
	s.p("(sizes are exact); otherwise there is no clear winner. Codecs that crashed, errored or gave an implausible figure are not ranked.")
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

// fastest describes the fastest codec for op on c: named the winner
// only when the next codec's interval stands apart behind it; otherwise
// there is no clear winner, and the cell says why.
func (s *writer) fastest(op results.Op, c category, flagged *[]string) string {
	rs := s.ix.measured(op, c)
	note := s.ix.absentNote(c)
	if len(rs) == 0 {
		if note != "" {
			return "none ranked" + note
		}
		return ""
	}
	slices.SortStableFunc(rs, func(a, b *results.Result) int {
		return cmp.Compare(a.NsPerOp.Median, b.NsPerOp.Median)
	})
	best := rs[0]
	if len(rs) == 1 {
		return fmt.Sprintf("no winner: only %s measured, %s", s.ix.name(best.Codec, flagged), durCI(best)) + note
	}
	next := rs[1]
	switch side, known := results.Compare(stat(best), stat(next)); {
	case !known:
		return fmt.Sprintf("no clear winner: %s %s and %s %s have no interval to compare (%s by median: too few samples)",
			s.ix.name(best.Codec, flagged), dur(best.NsPerOp.Median), text(next.Codec), dur(next.NsPerOp.Median),
			ratio(next.NsPerOp.Median/best.NsPerOp.Median)) + note
	case side == 0:
		tied := []string{fmt.Sprintf("%s %s", s.ix.name(best.Codec, flagged), dur(best.NsPerOp.Median))}
		for _, r := range rs[1:] {
			if results.Tied(stat(best), stat(r)) {
				tied = append(tied, fmt.Sprintf("%s %s", text(r.Codec), dur(r.NsPerOp.Median)))
			}
		}
		return "no clear winner: " + andList(tied) + " within noise" + note
	}
	return fmt.Sprintf("**%s** %s; next %s %s, %s slower", s.ix.name(best.Codec, flagged), durCI(best),
		text(next.Codec), dur(next.NsPerOp.Median), ratio(next.NsPerOp.Median/best.NsPerOp.Median)) + note
}

// smallest describes the codec with the smallest encoding of c: sizes are
// exact, so it is the winner when the next is larger.
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
	note := s.ix.absentNote(c)
	if len(all) == 0 {
		if note != "" {
			return "none ranked" + note
		}
		return ""
	}
	slices.SortStableFunc(all, func(a, b sized) int { return a.n - b.n })
	if len(all) == 1 {
		return fmt.Sprintf("no winner: only %s measured, %s", s.ix.name(all[0].codec, flagged), bytes(all[0].n)) + note
	}
	var same []string
	for _, x := range all {
		if x.n == all[0].n {
			same = append(same, s.ix.name(x.codec, flagged))
		}
	}
	if len(same) > 1 {
		return fmt.Sprintf("no clear winner: %s the same size, %s", andList(same), bytes(all[0].n)) + note
	}
	next := all[1]
	return fmt.Sprintf("**%s** %s; next %s %s, %s larger", s.ix.name(all[0].codec, flagged), bytes(all[0].n),
		text(next.codec), bytes(next.n), ratio(float64(next.n)/float64(max(1, all[0].n)))) + note
}

// absentNote says which codecs c's rankings leave out although they ran
// there (index.absent), as a clause to end a cell with, or "".
func (ix *index) absentNote(c category) string {
	errored, implausible := ix.absent(c)
	var parts []string
	if len(errored) > 0 {
		parts = append(parts, andList(escaped(errored))+" crashed or errored")
	}
	if len(implausible) > 0 {
		parts = append(parts, andList(escaped(implausible))+" implausible")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (not ranked: " + strings.Join(parts, "; ") + ")"
}

func escaped(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = text(n)
	}
	return out
}

// andList joins "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
