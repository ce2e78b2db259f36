package summary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// verdict describes how codec a's time compares with b's: "gob 2.1×
// slower", "gob 1.4× faster" or "tied (1.03×)".
func verdict(aName string, a, b *results.Result) string {
	f := a.NsPerOp.Median / b.NsPerOp.Median
	side, known := results.Compare(stat(a), stat(b))
	if !known {
		return fmt.Sprintf("undecided: no interval (%.2f× by median)", f)
	}
	switch side {
	case -1:
		return fmt.Sprintf("%s %s faster", text(aName), ratio(1/f))
	case 1:
		return fmt.Sprintf("%s %s slower", text(aName), ratio(f))
	}
	return fmt.Sprintf("tied (%.2f×)", f)
}

// A crossing compares codec g (gob one-shot or stream) with JSON over the
// categories where both have a size, ordered by the size of JSON's
// encoding.
type crossing struct {
	codec string
	cases []crossCase
	ops   [2]opCrossing // by results.Ops
}

// A crossCase is one category of a crossing: both sizes, and per op both
// results (nil where either codec has none).
type crossCase struct {
	c                   category
	jsonBytes, gobBytes int
	json, gob           [2]*results.Result
}

// An opCrossing is a crossing's verdicts for one op: the cases with both
// results, in order, and how many of them each codec wins.
type opCrossing struct {
	points             []crossPoint
	nJSON, nGob, nTie  int
	lastJSON, firstGob int // indices into points of the largest case json wins and the smallest g wins; -1: none
}

// A crossPoint is one case of an opCrossing: the category, the size of
// its JSON encoding, and compare of g's time with JSON's.
type crossPoint struct {
	c    category
	size int
	cmp  int
}

// crossing returns how codec g compares with JSON, or nil when fewer than
// two categories hold both.
func (ix *index) crossing(g string) *crossing {
	x := &crossing{codec: g}
	for _, c := range ix.cats {
		jb, gb := ix.size("json", c), ix.size(g, c)
		if jb < 0 || gb < 0 {
			continue
		}
		cs := crossCase{c: c, jsonBytes: jb, gobBytes: gb}
		for i, op := range results.Ops {
			if j, b := ix.get(op, "json", c), ix.get(op, g, c); j != nil && b != nil {
				cs.json[i], cs.gob[i] = j, b
			}
		}
		x.cases = append(x.cases, cs)
	}
	if len(x.cases) < 2 {
		return nil
	}
	slices.SortStableFunc(x.cases, func(a, b crossCase) int { return a.jsonBytes - b.jsonBytes })
	for i := range results.Ops {
		var pts []crossPoint
		for _, cs := range x.cases {
			if cs.json[i] != nil {
				side, _ := results.Compare(stat(cs.gob[i]), stat(cs.json[i]))
				pts = append(pts, crossPoint{cs.c, cs.jsonBytes, side})
			}
		}
		x.ops[i] = opCrossingOf(pts)
	}
	return x
}

// opCrossingOf counts the verdicts of points, ordered by size.
func opCrossingOf(points []crossPoint) opCrossing {
	o := opCrossing{points: points, lastJSON: -1, firstGob: -1}
	for k, pt := range points {
		switch pt.cmp {
		case 1:
			o.lastJSON = k
			o.nJSON++
		case -1:
			if o.firstGob < 0 {
				o.firstGob = k
			}
			o.nGob++
		default:
			o.nTie++
		}
	}
	return o
}

// words says where codec g overtakes JSON for one op, if it does; ""
// with fewer than two cases.
func (o opCrossing) words(g string) string {
	ps := o.points
	if len(ps) < 2 {
		return ""
	}
	where := func(k int) string {
		return fmt.Sprintf("%s (%s of JSON)", text(ps[k].c.String()), bytes(ps[k].size))
	}
	switch {
	case o.nGob == 0 && o.nJSON == 0:
		return fmt.Sprintf("%s and json are tied or undecided in all %d cases.", text(g), len(ps))
	case o.nGob == 0:
		return fmt.Sprintf("%s never beats json here: json is faster in %d of %d cases, up to %s, and tied or undecided in %d.",
			text(g), o.nJSON, len(ps), where(o.lastJSON), o.nTie)
	case o.nJSON == 0:
		return fmt.Sprintf("json never beats %s here: %s is faster in %d of %d cases, from %s on, and tied or undecided in %d.",
			text(g), text(g), o.nGob, len(ps), where(o.firstGob), o.nTie)
	case o.lastJSON < o.firstGob:
		msg := fmt.Sprintf("%s overtakes json between %s, the largest case where json is faster, and %s, the smallest where %s is",
			text(g), where(o.lastJSON), where(o.firstGob), text(g))
		if between := o.firstGob - o.lastJSON - 1; between > 0 {
			msg += fmt.Sprintf("; %d tied or undecided case(s) lie between", between)
		}
		return msg + ". Below it json is faster in every case, above it " + text(g) + " is."
	}
	return fmt.Sprintf("No single crossover by size: json is faster in %d cases, the largest %s, and %s in %d, the smallest %s; they interleave (%d tied or undecided).",
		o.nJSON, where(o.lastJSON), text(g), o.nGob, where(o.firstGob), o.nTie)
}

// crossover writes where codec g (gob one-shot or stream) overtakes JSON,
// with the cases ordered by the size of their JSON encoding.
func (s *writer) crossover(g string) {
	x := s.ix.crossing(g)
	if x == nil {
		return
	}
	if g == "gob" || s.ix.crossing("gob") == nil {
		s.p("")
		s.p("## Where gob overtakes JSON")
		s.p("")
		s.p("The seed articles disagree on when gob beats JSON; they measured it on different sizes and with a new")
		s.p("gob Encoder per message or a reused one. Each case below is ordered by the size of its JSON encoding.")
	}
	label := g
	if c := s.ix.run.Codec(g); c != nil && c.Label != "" {
		label = c.Label
	}
	s.p("")
	s.p("### %s (%s) vs json", text(g), text(label))
	s.p("")
	s.p("| dataset/shape | json size | %s size | encode json | encode %s | encode | decode json | decode %s | decode |", text(g), text(g), text(g))
	s.p("|---|---:|---:|---:|---:|---|---:|---:|---|")
	for _, cs := range x.cases {
		row := fmt.Sprintf("| %s | %s | %s |", text(cs.c.String()), bytes(cs.jsonBytes), bytes(cs.gobBytes))
		for i := range results.Ops {
			if j, b := cs.json[i], cs.gob[i]; j != nil {
				row += fmt.Sprintf(" %s | %s | %s |", durCI(j), durCI(b), verdict(g, b, j))
			} else {
				row += " – | – | – |"
			}
		}
		s.p("%s", row)
	}
	s.p("")
	for i, op := range results.Ops {
		if msg := x.ops[i].words(g); msg != "" {
			s.p("- %s%s: %s", strings.ToUpper(string(op[:1])), op[1:], msg)
		}
	}
}

// A streamGain is what reusing a gob Encoder and Decoder buys over a new
// pair per message, in the categories where both have a size.
type streamGain struct {
	rows []streamRow
	ops  [2]streamOp // by results.Ops
}

// A streamRow is one category of a streamGain: per op both results (nil
// where either is missing), the speed-up (one-shot time over stream
// time) and its standing; both sizes.
type streamRow struct {
	c                 category
	one, st           [2]*results.Result
	speedup           [2]float64
	standing          [2]string // "", "tied" or "no interval"
	oneBytes, stBytes int
}

// saved returns the bytes the stream saves and their share of the
// one-shot message, in percent.
func (r streamRow) saved() (int, float64) {
	d := r.oneBytes - r.stBytes
	if r.oneBytes <= 0 {
		return d, 0
	}
	return d, 100 * float64(d) / float64(r.oneBytes)
}

// A streamOp sums up a streamGain for one op: how many cases the stream
// wins and ties (or cannot tell), and the speed-ups.
type streamOp struct {
	faster, ties int
	gains        []float64
	cats         []category // the category of each gain
}

// streamGain returns what gob-stream buys over gob, or nil when no
// category holds both.
func (ix *index) streamGain() *streamGain {
	const one, st = "gob", "gob-stream"
	g := &streamGain{}
	for _, c := range ix.cats {
		ob, sb := ix.size(one, c), ix.size(st, c)
		if ob < 0 || sb < 0 {
			continue
		}
		row := streamRow{c: c, oneBytes: ob, stBytes: sb}
		for i, op := range results.Ops {
			a, b := ix.get(op, one, c), ix.get(op, st, c)
			if a == nil || b == nil {
				continue
			}
			row.one[i], row.st[i] = a, b
			row.speedup[i] = a.NsPerOp.Median / b.NsPerOp.Median
			o := &g.ops[i]
			switch side, known := results.Compare(stat(b), stat(a)); {
			case !known:
				row.standing[i] = "no interval"
				o.ties++
			case side == 0:
				row.standing[i] = "tied"
				o.ties++
			case side < 0:
				o.faster++
			}
			o.gains = append(o.gains, row.speedup[i])
			o.cats = append(o.cats, c)
		}
		g.rows = append(g.rows, row)
	}
	if len(g.rows) == 0 {
		return nil
	}
	return g
}

// words sums up one op of a streamGain; "" when no case has both results.
func (o streamOp) words() string {
	if len(o.gains) == 0 {
		return ""
	}
	lo, hi := 0, 0
	for k, f := range o.gains {
		if f < o.gains[lo] {
			lo = k
		}
		if f > o.gains[hi] {
			hi = k
		}
	}
	return fmt.Sprintf("the stream is faster in %d of %d cases (%d tied or undecided); one-shot time over stream time ranges from %s (%s) to %s (%s), median %s.",
		o.faster, len(o.gains), o.ties, ratio(o.gains[lo]), text(o.cats[lo].String()), ratio(o.gains[hi]), text(o.cats[hi].String()), ratio(median(slices.Clone(o.gains))))
}

// sizeWords sums up the sizes of a streamGain.
func (g *streamGain) sizeWords() string {
	var saved []int
	var pct []float64
	for _, r := range g.rows {
		d, p := r.saved()
		saved, pct = append(saved, d), append(pct, p)
	}
	return fmt.Sprintf("Size: the stream's messages are %s to %s smaller, %.0f%% to %.0f%% of the one-shot message.",
		bytes(slices.Min(saved)), bytes(slices.Max(saved)), slices.Min(pct), slices.Max(pct))
}

// stream writes what reusing a gob Encoder and Decoder buys over a new
// pair per message.
func (s *writer) stream() {
	g := s.ix.streamGain()
	if g == nil {
		return
	}
	s.p("")
	s.p("## What gob stream buys over gob one-shot")
	s.p("")
	if c := s.ix.run.Codec("gob-stream"); c != nil && c.Variant != "" {
		s.p("gob-stream: %s. gob: a new Encoder and Decoder per message, so every message carries them.", text(c.Variant))
		s.p("")
	}
	s.p("Speed-up is one-shot time over stream time.")
	s.p("")
	s.p("| dataset/shape | encode gob | encode gob-stream | speed-up | decode gob | decode gob-stream | speed-up | size gob | size gob-stream | saved |")
	s.p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range g.rows {
		row := "| " + text(r.c.String()) + " |"
		for i := range results.Ops {
			if r.one[i] == nil {
				row += " – | – | – |"
				continue
			}
			sp := ratio(r.speedup[i])
			if r.standing[i] != "" {
				sp += " (" + r.standing[i] + ")"
			}
			row += fmt.Sprintf(" %s | %s | %s |", durCI(r.one[i]), durCI(r.st[i]), sp)
		}
		d, p := r.saved()
		row += fmt.Sprintf(" %s | %s | %s (%.0f%%) |", bytes(r.oneBytes), bytes(r.stBytes), bytes(d), p)
		s.p("%s", row)
	}
	s.p("")
	for i, op := range results.Ops {
		if msg := g.ops[i].words(); msg != "" {
			s.p("- %s%s: %s", strings.ToUpper(string(op[:1])), op[1:], msg)
		}
	}
	s.p("- %s", g.sizeWords())
}
