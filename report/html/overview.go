package html

import (
	"math"
	"strconv"
	"strings"

	"github.com/serbench/serbench/report/summary"
	"github.com/serbench/serbench/results"
)

// answerView is one of the four answers the page opens with: the same as
// summary.md's (summary.Answers).
type answerView struct {
	Question, Winner, Detail string
	Dagger                   bool
}

// overview is what the page's overview draws: a heatmap of codecs ×
// dataset shapes (each time relative to the best in its column, encode
// and decode) and a scatter of size against round-trip time with its
// Pareto front, over all shapes and per shape. Figures of a cell with an
// implausible figure are in both, marked, and never the best or on the
// front; † marks codecs not compared like for like.
type overview struct {
	Columns []string     `json:"columns"` // dataset/shape
	Codecs  []heatCodec  `json:"codecs"`  // rows, in run order
	Encode  []heatCell   `json:"encode"`
	Decode  []heatCell   `json:"decode"`
	Scatter []scatterSet `json:"scatter"` // "all shapes" first, then one per shape, then the cost study's
	// ShapeSets counts the sets of Scatter over dataset shapes, all
	// shapes included: what a point's share of shapes is out of.
	ShapeSets int `json:"shape_sets"`
}

type heatCodec struct {
	Name  string `json:"name"`
	Flags string `json:"flags,omitempty"`
}

// A heatCell is one codec on one shape: its median over the best ranked
// median of the column (1 for the best).
type heatCell struct {
	X      int     `json:"x"` // column
	Y      int     `json:"y"` // codec
	Ratio  float64 `json:"ratio"`
	Median float64 `json:"median"`
	// Implausible says why this figure is implausible; Unranked that the
	// cell may not rank, for this figure or the other op's (as the
	// terminal table ranks its row last).
	Implausible string `json:"implausible,omitempty"`
	Unranked    bool   `json:"unranked,omitempty"`
}

// A scatterSet is one scatter: a point per codec, and the Pareto front
// (no other point is both smaller and faster), named fastest first.
type scatterSet struct {
	Title string `json:"title"`
	// Relative: the axes are geometric means, over the shapes a codec
	// holds, of its figures relative to the best there.
	Relative bool `json:"relative"`
	// SizeName, if set, says the size axis holds another size than the
	// encoding's, in bytes: "binary bytes added" (the cost study's).
	SizeName string         `json:"size_name,omitempty"`
	Points   []scatterPoint `json:"points"`
	Front    []string       `json:"front"`
}

type scatterPoint struct {
	// Codec names the point: the codec, or codec+compressor
	// ("json+zstd-3") for its encoding compressed (run -compress), whose
	// time includes compressing and decompressing it.
	Codec      string  `json:"codec"`
	Compressor string  `json:"compressor,omitempty"`
	Flags      string  `json:"flags,omitempty"`
	Time       float64 `json:"time"` // round trip: encode + decode median, ns (or relative)
	Size       float64 `json:"size"` // bytes (or relative)
	// Shapes counts the shapes the point is over (relative sets).
	Shapes      int    `json:"shapes,omitempty"`
	Implausible string `json:"implausible,omitempty"`
	// Excluded: the point is drawn from implausible figures alone, so it
	// may not rank (nor stand on the front).
	Excluded bool `json:"excluded,omitempty"`
	// Few: the point is over fewer than three quarters of the shapes,
	// too few to compare with the others (as summary.Answers holds it):
	// drawn, marked, never on the front.
	Few   bool `json:"few,omitempty"`
	Front bool `json:"front,omitempty"`
}

// newAnswers returns the run's four answers and what they leave out.
func newAnswers(run *results.Run) ([]answerView, []string) {
	as, leftOut := summary.Answers(run)
	var out []answerView
	for _, a := range as {
		out = append(out, answerView{Question: a.Question, Winner: a.Winner, Detail: a.Detail, Dagger: a.Dagger})
	}
	return out, leftOut
}

// newOverview builds the overview of run.
func newOverview(run *results.Run) overview {
	ix := results.NewIndex(run.Results)
	ov := overview{Columns: []string{}, Codecs: []heatCodec{}, Encode: []heatCell{}, Decode: []heatCell{}, Scatter: []scatterSet{}}
	flags := func(name string) string {
		if c := run.Codec(name); c != nil {
			return strings.Join(c.Flags(), ", ")
		}
		return ""
	}
	row := map[string]int{}
	for _, name := range ix.Codecs {
		row[name] = len(ov.Codecs)
		ov.Codecs = append(ov.Codecs, heatCodec{name, flags(name)})
	}
	var shapes []scatterSet
	for _, cat := range ix.Categories {
		x := len(ov.Columns)
		enc, dec := heatColumn(ix.Cells(cat), results.Encode, x, row), heatColumn(ix.Cells(cat), results.Decode, x, row)
		set := scatterSet{Title: cat.String(), Points: []scatterPoint{}}
		for _, t := range results.Tradeoffs(ix.Cells(cat)) {
			set.Points = append(set.Points, scatterPoint{Codec: t.Name(), Compressor: t.Compressor, Flags: flags(t.Codec),
				Time: t.Time, Size: t.Size, Implausible: t.Implausible, Excluded: t.Implausible != ""})
		}
		if len(enc)+len(dec) == 0 {
			continue
		}
		ov.Columns = append(ov.Columns, cat.String())
		ov.Encode = append(ov.Encode, enc...)
		ov.Decode = append(ov.Decode, dec...)
		if len(set.Points) > 0 {
			set.Front = pareto(set.Points)
			shapes = append(shapes, set)
		}
	}
	if len(shapes) > 0 {
		all := overall(shapes)
		all.Front = pareto(all.Points)
		ov.Scatter = append([]scatterSet{all}, shapes...)
		ov.ShapeSets = len(ov.Scatter)
		if set, ok := binaryScatter(all, run.Matrices); ok {
			ov.Scatter = append(ov.Scatter, set)
		}
	}
	return ov
}

// binaryScatter returns the scatter of the bytes each codec adds to a
// binary (the cost study's binary case, fact bytes_added) against its
// round-trip time over all shapes, when a cost matrix is beside the run
// and gives some codec of all its figure.
func binaryScatter(all scatterSet, ms []*results.Matrix) (scatterSet, bool) {
	set := scatterSet{Title: "binary bytes added (cost study) against round-trip time over all dataset shapes", Relative: true,
		SizeName: "binary bytes added", Points: []scatterPoint{}}
	for _, m := range ms {
		if m.Study.Name != "cost" {
			continue
		}
		for _, p := range all.Points {
			if p.Compressor != "" {
				continue
			}
			c := m.Cell(p.Codec, "binary")
			if c == nil {
				continue
			}
			n, err := strconv.ParseFloat(c.Facts["bytes_added"], 64)
			if err != nil || n <= 0 {
				continue
			}
			p.Size, p.Front = n, false
			set.Points = append(set.Points, p)
		}
	}
	set.Front = pareto(set.Points)
	return set, len(set.Points) > 0
}

// heatColumn returns the heatmap cells of op on one shape: each measured
// median over the best median of a cell that may rank.
func heatColumn(cells []*results.Cell, op results.Op, x int, row map[string]int) []heatCell {
	best := 0.0
	for _, c := range cells {
		if r := c.Result(op); r != nil && r.Status == results.OK && c.Ranked() && (best == 0 || r.NsPerOp.Median < best) {
			best = r.NsPerOp.Median
		}
	}
	var out []heatCell
	for _, c := range cells {
		r := c.Result(op)
		if r == nil || r.Status != results.OK {
			continue
		}
		h := heatCell{X: x, Y: row[c.Codec], Median: r.NsPerOp.Median, Implausible: r.Implausible, Unranked: !c.Ranked()}
		if best > 0 {
			h.Ratio = r.NsPerOp.Median / best
		}
		out = append(out, h)
	}
	return out
}

// overall returns the scatter over all shapes: for each codec, the
// geometric means of its round-trip time and its size relative to the
// best plausible one of each shape it holds. A codec's implausible shapes
// are left out of its means; a codec with nothing else is drawn from them,
// marked.
func overall(shapes []scatterSet) scatterSet {
	set := scatterSet{Title: "all dataset shapes", Relative: true, Points: []scatterPoint{}}
	type acc struct {
		logT, logS  float64
		n           int
		implausible []string
		flags       string
		compressor  string
		bad         scatterPoint // the relative figures of its implausible shapes
		nBad        int
	}
	accs := map[string]*acc{}
	var codecs []string // the points' names, in order of first appearance
	for _, s := range shapes {
		bestT, bestS := math.Inf(1), math.Inf(1)
		for _, p := range s.Points {
			if !p.Excluded {
				bestT, bestS = min(bestT, p.Time), min(bestS, p.Size)
			}
		}
		if math.IsInf(bestT, 1) || bestS <= 0 {
			continue
		}
		for _, p := range s.Points {
			a := accs[p.Codec]
			if a == nil {
				a = &acc{flags: p.Flags, compressor: p.Compressor}
				accs[p.Codec] = a
				codecs = append(codecs, p.Codec)
			}
			t, z := math.Log(p.Time/bestT), math.Log(max(p.Size, 1)/bestS)
			if p.Excluded {
				a.implausible = append(a.implausible, s.Title)
				a.bad.Time += t
				a.bad.Size += z
				a.nBad++
				continue
			}
			a.logT += t
			a.logS += z
			a.n++
		}
	}
	for _, name := range codecs {
		a := accs[name]
		if a == nil {
			continue
		}
		p := scatterPoint{Codec: name, Compressor: a.compressor, Flags: a.flags, Shapes: a.n, Few: 4*a.n < 3*len(shapes)}
		if len(a.implausible) > 0 {
			p.Implausible = "implausible on " + strings.Join(a.implausible, ", ")
			if a.n > 0 {
				p.Implausible += " (left out of its means)"
			}
		}
		switch {
		case a.n > 0:
			p.Time, p.Size = math.Exp(a.logT/float64(a.n)), math.Exp(a.logS/float64(a.n))
		default:
			p.Excluded = true
			p.Shapes = a.nBad
			p.Time, p.Size = math.Exp(a.bad.Time/float64(a.nBad)), math.Exp(a.bad.Size/float64(a.nBad))
		}
		set.Points = append(set.Points, p)
	}
	return set
}

// pareto marks the points on the Pareto front of size against time and
// returns their codecs, fastest first: a point is on it when no other is
// at least as fast and as small and better in one. An excluded point (an
// implausible figure) or one over too few shapes is never on it, nor does
// it push others off.
func pareto(ps []scatterPoint) []string {
	front := []string{}
	for _, i := range results.ParetoFront(len(ps), func(i int) float64 { return ps[i].Time }, func(i int) float64 { return ps[i].Size },
		func(i int) bool { return ps[i].Excluded || ps[i].Few }) {
		ps[i].Front = true
		front = append(front, ps[i].Codec)
	}
	return front
}
