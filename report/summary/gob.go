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
	if !comparable(stat(a), stat(b)) {
		return fmt.Sprintf("undecided: no interval (%.2f× by median)", f)
	}
	switch compare(stat(a), stat(b)) {
	case -1:
		return fmt.Sprintf("%s %s faster", text(aName), ratio(1/f))
	case 1:
		return fmt.Sprintf("%s %s slower", text(aName), ratio(f))
	}
	return fmt.Sprintf("tied (%.2f×)", f)
}

// crossover writes where codec g (gob one-shot or stream) overtakes JSON,
// with the cases ordered by the size of their JSON encoding.
func (s *writer) crossover(g string) {
	type pair struct {
		c         category
		jsonBytes int
		gobBytes  int
	}
	var cases []pair
	for _, c := range s.ix.cats {
		jb, gb := s.ix.size("json", c), s.ix.size(g, c)
		if jb < 0 || gb < 0 {
			continue
		}
		cases = append(cases, pair{c, jb, gb})
	}
	if len(cases) < 2 {
		return
	}
	slices.SortStableFunc(cases, func(a, b pair) int { return a.jsonBytes - b.jsonBytes })
	if g == "gob" || !s.hasCrossover("gob") {
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
	type point struct {
		c    category
		size int
		cmp  int
	}
	var pts [2][]point
	for _, cs := range cases {
		row := fmt.Sprintf("| %s | %s | %s |", cell(text(cs.c.String())), bytes(cs.jsonBytes), bytes(cs.gobBytes))
		for i, op := range results.Ops {
			j, b := s.ix.get(op, "json", cs.c), s.ix.get(op, g, cs.c)
			if j == nil || b == nil {
				row += " – | – | – |"
				continue
			}
			row += fmt.Sprintf(" %s | %s | %s |", durCI(j), durCI(b), verdict(g, b, j))
			pts[i] = append(pts[i], point{cs.c, cs.jsonBytes, compare(stat(b), stat(j))})
		}
		s.p("%s", row)
	}
	s.p("")
	for i, op := range results.Ops {
		ps := pts[i]
		if len(ps) < 2 {
			continue
		}
		lastJSON, firstGob := -1, -1
		var nJSON, nGob, nTie int
		for k, pt := range ps {
			switch pt.cmp {
			case 1:
				lastJSON = k
				nJSON++
			case -1:
				if firstGob < 0 {
					firstGob = k
				}
				nGob++
			default:
				nTie++
			}
		}
		where := func(pt point) string { return fmt.Sprintf("%s (%s of JSON)", text(pt.c.String()), bytes(pt.size)) }
		var msg string
		switch {
		case nGob == 0 && nJSON == 0:
			msg = fmt.Sprintf("%s and json are tied or undecided in all %d cases.", text(g), len(ps))
		case nGob == 0:
			msg = fmt.Sprintf("%s never beats json here: json is faster in %d of %d cases, up to %s, and tied or undecided in %d.",
				text(g), nJSON, len(ps), where(ps[lastJSON]), nTie)
		case nJSON == 0:
			msg = fmt.Sprintf("json never beats %s here: %s is faster in %d of %d cases, from %s on, and tied or undecided in %d.",
				text(g), text(g), nGob, len(ps), where(ps[firstGob]), nTie)
		case lastJSON < firstGob:
			msg = fmt.Sprintf("%s overtakes json between %s, the largest case where json is faster, and %s, the smallest where %s is",
				text(g), where(ps[lastJSON]), where(ps[firstGob]), text(g))
			if between := firstGob - lastJSON - 1; between > 0 {
				msg += fmt.Sprintf("; %d tied or undecided case(s) lie between", between)
			}
			msg += ". Below it json is faster in every case, above it " + text(g) + " is."
		default:
			msg = fmt.Sprintf("No single crossover by size: json is faster in %d cases, the largest %s, and %s in %d, the smallest %s; they interleave (%d tied or undecided).",
				nJSON, where(ps[lastJSON]), text(g), nGob, where(ps[firstGob]), nTie)
		}
		s.p("- %s%s: %s", strings.ToUpper(string(op[:1])), op[1:], msg)
	}
}

// hasCrossover reports whether the crossover section for codec g has
// data, so the section heading is written once.
func (s *writer) hasCrossover(g string) bool {
	n := 0
	for _, c := range s.ix.cats {
		if s.ix.size("json", c) >= 0 && s.ix.size(g, c) >= 0 {
			n++
		}
	}
	return n >= 2
}

// stream writes what reusing a gob Encoder and Decoder buys over a new
// pair per message.
func (s *writer) stream() {
	const one, st = "gob", "gob-stream"
	var cats []category
	for _, c := range s.ix.cats {
		if s.ix.size(one, c) >= 0 && s.ix.size(st, c) >= 0 {
			cats = append(cats, c)
		}
	}
	if len(cats) == 0 {
		return
	}
	s.p("")
	s.p("## What gob stream buys over gob one-shot")
	s.p("")
	if c := s.ix.run.Codec(st); c != nil && c.Variant != "" {
		s.p("gob-stream: %s. gob: a new Encoder and Decoder per message, so every message carries them.", text(c.Variant))
		s.p("")
	}
	s.p("Speed-up is one-shot time over stream time.")
	s.p("")
	s.p("| dataset/shape | encode gob | encode gob-stream | speed-up | decode gob | decode gob-stream | speed-up | size gob | size gob-stream | saved |")
	s.p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	type gain struct {
		c category
		f float64
	}
	var gains [2][]gain
	var faster, ties [2]int
	var saved []int
	var savedPct []float64
	for _, c := range cats {
		row := "| " + cell(text(c.String())) + " |"
		for i, op := range results.Ops {
			a, b := s.ix.get(op, one, c), s.ix.get(op, st, c)
			if a == nil || b == nil {
				row += " – | – | – |"
				continue
			}
			f := a.NsPerOp.Median / b.NsPerOp.Median
			sp := ratio(f)
			switch compare(stat(b), stat(a)) {
			case 0:
				if !comparable(stat(a), stat(b)) {
					sp += " (no interval)"
					ties[i]++
					break
				}
				sp += " (tied)"
				ties[i]++
			case -1:
				faster[i]++
			}
			row += fmt.Sprintf(" %s | %s | %s |", durCI(a), durCI(b), sp)
			gains[i] = append(gains[i], gain{c, f})
		}
		ab, bb := s.ix.size(one, c), s.ix.size(st, c)
		pct := 0.0
		if ab > 0 {
			pct = 100 * float64(ab-bb) / float64(ab)
		}
		saved = append(saved, ab-bb)
		savedPct = append(savedPct, pct)
		row += fmt.Sprintf(" %s | %s | %s (%.0f%%) |", bytes(ab), bytes(bb), bytes(ab-bb), pct)
		s.p("%s", row)
	}
	s.p("")
	for i, op := range results.Ops {
		gs := gains[i]
		if len(gs) == 0 {
			continue
		}
		fs := make([]float64, len(gs))
		for k, g := range gs {
			fs[k] = g.f
		}
		lo := slices.MinFunc(gs, func(a, b gain) int { return cmpFloat(a.f, b.f) })
		hi := slices.MaxFunc(gs, func(a, b gain) int { return cmpFloat(a.f, b.f) })
		msg := fmt.Sprintf("the stream is faster in %d of %d cases (%d tied or undecided); one-shot time over stream time ranges from %s (%s) to %s (%s), median %s.",
			faster[i], len(gs), ties[i], ratio(lo.f), text(lo.c.String()), ratio(hi.f), text(hi.c.String()), ratio(median(fs)))
		s.p("- %s%s: %s", strings.ToUpper(string(op[:1])), op[1:], msg)
	}
	minS, maxS := slices.Min(saved), slices.Max(saved)
	s.p("- Size: the stream's messages are %s to %s smaller, %.0f%% to %.0f%% of the one-shot message.",
		bytes(minS), bytes(maxS), slices.Min(savedPct), slices.Max(savedPct))
}
