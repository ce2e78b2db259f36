package summary

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// The metrics of a ladder line, in order.
var ladderMetrics = [3]string{"encode", "decode", "bytes"}

// A ladder is the size ladder of one shape: the rungs (datasets of
// sizeLadder) the run holds in that shape, and a line for each codec with a
// size on at least two of them.
type ladder struct {
	shape   string
	perItem bool // figures per item of the slice, for the slice shapes
	rungs   []category
	lines   []ladderLine
}

// A ladderLine is one codec's figures along a ladder, per metric: one
// value a rung (0 where missing) and its growth.
type ladderLine struct {
	codec  string
	values [3][]float64
	growth [3]growth
}

// A growth is how a figure changes along a ladder: the factor from the
// first rung with a value to the last.
type growth struct {
	f           float64
	first, last int // rung indices; last > first when the growth is known
}

func (g growth) known() bool { return g.last > g.first }

// growthOf returns the growth of vals, where 0 stands for a missing value.
func growthOf(vals []float64) growth {
	g := growth{first: -1, last: -1}
	for i, v := range vals {
		if v == 0 {
			continue
		}
		if g.first < 0 {
			g.first = i
		}
		g.last = i
	}
	if g.known() {
		g.f = vals[g.last] / vals[g.first]
	}
	return g
}

// ladders returns the size ladder of each of the run's shapes that has a
// line on it, in order of the shapes' first appearance.
func (ix *index) ladders() []ladder {
	var out []ladder
	for _, shape := range ix.shapes() {
		if l := ix.ladderOf(shape); len(l.lines) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// ladderOf returns the size ladder of shape; it has no lines when the run
// holds fewer than two of its rungs.
func (ix *index) ladderOf(shape string) ladder {
	l := ladder{shape: shape, perItem: shape != "single"}
	for _, d := range sizeLadder {
		if c := (category{Dataset: d, Shape: shape}); slices.Contains(ix.cats, c) {
			l.rungs = append(l.rungs, c)
		}
	}
	if len(l.rungs) < 2 {
		return l
	}
	for _, name := range ix.codecs {
		line, sized := ladderLine{codec: name}, 0
		for _, c := range l.rungs {
			enc, dec, b := ix.perItem(name, c, l.perItem)
			if b > 0 {
				sized++
			}
			for m, v := range [3]float64{enc, dec, b} {
				line.values[m] = append(line.values[m], v)
			}
		}
		if sized < 2 {
			continue
		}
		for m, vals := range line.values {
			line.growth[m] = growthOf(vals)
		}
		l.lines = append(l.lines, line)
	}
	return l
}

// perItem returns codec's encode and decode time and size on c, 0 where
// missing; divided by the number of items when perItem is set and the
// results record it.
func (ix *index) perItem(codec string, c category, perItem bool) (enc, dec, size float64) {
	e, d := ix.get(results.Encode, codec, c), ix.get(results.Decode, codec, c)
	items := 1.0
	for _, r := range []*results.Result{e, d} {
		if r != nil && perItem && r.Items > 0 {
			items = float64(r.Items)
		}
	}
	if e != nil {
		enc = e.NsPerOp.Median / items
	}
	if d != nil {
		dec = d.NsPerOp.Median / items
	}
	if n := ix.size(codec, c); n >= 0 {
		size = float64(n) / items
	}
	return enc, dec, size
}

// span names the rungs from i to j: "tiny→big".
func (l ladder) span(i, j int) string { return l.rungs[i].Dataset + "→" + l.rungs[j].Dataset }

// fullSpan returns the lines whose metric m grows over the whole ladder,
// least growth first.
func (l ladder) fullSpan(m int) []ladderLine {
	var out []ladderLine
	for _, line := range l.lines {
		if g := line.growth[m]; g.first == 0 && g.last == len(l.rungs)-1 {
			out = append(out, line)
		}
	}
	slices.SortStableFunc(out, func(a, b ladderLine) int { return cmp.Compare(a.growth[m].f, b.growth[m].f) })
	return out
}

// ladder writes how each codec scales along the size ladder, shape by
// shape: time and bytes per message, per item for the slice shapes.
func (s *writer) ladder() {
	ls := s.ix.ladders()
	if len(ls) == 0 {
		return
	}
	s.p("")
	s.p("## Scaling along the size ladder")
	for _, l := range ls {
		s.ladderTable(l)
		s.p("")
		for m := range ladderMetrics {
			if w := l.growthWords(m); w != "" {
				s.p("- %s", w)
			}
		}
	}
}

// ladderTable writes a ladder's table: a row per codec and metric, with
// its growth.
func (s *writer) ladderTable(l ladder) {
	s.p("")
	unit := "per message"
	if l.perItem {
		unit = "per item (the message's time or size divided by the number of elements in the slice)"
	}
	s.p("### shape %s, %s", text(l.shape), unit)
	s.p("")
	head, sep := "| codec | |", "|---|---|"
	for _, c := range l.rungs {
		head += " " + text(c.Dataset) + " |"
		sep += "---:|"
	}
	s.p("%s growth |", head)
	s.p("%s---:|", sep)
	for _, line := range l.lines {
		for m, vals := range line.values {
			row := fmt.Sprintf("| | %s |", ladderMetrics[m])
			if m == 0 {
				row = fmt.Sprintf("| %s | %s |", text(line.codec), ladderMetrics[m])
			}
			for _, v := range vals {
				switch {
				case v == 0:
					row += " – |"
				case m == 2:
					row += " " + bytesF(v) + " |"
				default:
					row += " " + dur(v) + " |"
				}
			}
			if g := line.growth[m]; g.known() {
				row += fmt.Sprintf(" %s %s |", change(g.f), text(l.span(g.first, g.last)))
			} else {
				row += " |"
			}
			s.p("%s", row)
		}
	}
}

// growthWords is one sentence on metric m: the codecs whose figure grows
// least and most over the whole ladder (or falls, a factor below 1); ""
// when fewer than two codecs span it.
func (l ladder) growthWords(m int) string {
	same := l.fullSpan(m)
	if len(same) < 2 {
		return ""
	}
	lo, hi := same[0], same[len(same)-1]
	lf, hf := lo.growth[m].f, hi.growth[m].f
	unit := "per message"
	if l.perItem {
		unit = "per item"
	}
	name := ladderMetrics[m]
	what := fmt.Sprintf("%s %s from %s", strings.ToUpper(name[:1])+name[1:], unit, text(l.span(0, len(l.rungs)-1)))
	switch {
	case lf >= 1:
		return fmt.Sprintf("%s grows least for %s (%s) and most for %s (%s).", what, text(lo.codec), ratio(lf), text(hi.codec), ratio(hf))
	case hf >= 1:
		most := "" // one codec shrinks, or several and lo the most
		if same[1].growth[m].f < 1 {
			most = " most"
		}
		return fmt.Sprintf("%s shrinks%s for %s (falls to %s) and grows most for %s (%s).", what, most, text(lo.codec), ratio(lf), text(hi.codec), ratio(hf))
	}
	return fmt.Sprintf("%s shrinks for every codec: most for %s (falls to %s), least for %s (falls to %s).", what, text(lo.codec), ratio(lf), text(hi.codec), ratio(hf))
}

// shapes returns the shapes of the run, in order of first appearance.
func (ix *index) shapes() []string {
	var out []string
	for _, c := range ix.cats {
		if !slices.Contains(out, c.Shape) {
			out = append(out, c.Shape)
		}
	}
	return out
}
