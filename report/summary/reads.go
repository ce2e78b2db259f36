package summary

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// ranked returns codec's result for op on c when it may rank, or nil.
// Unlike index.get it does not ask the cell's encode and decode to rank:
// an in-place reader has neither.
func (ix *index) ranked(op results.Op, codec string, c category) *results.Result {
	cell := ix.cells.Cell(codec, c)
	if cell == nil {
		return nil
	}
	if r := cell.Result(op); r != nil && r.Ranked() {
		return r
	}
	return nil
}

// A speedup is how many times faster one figure is than another, with
// the interval the two figures' intervals allow.
type speedup struct{ x, lo, hi float64 }

// speedupOf returns how many times faster fast is than slow.
func speedupOf(slow, fast results.Stat) speedup {
	r := speedup{x: slow.Median / fast.Median}
	if slow.Lo > 0 && fast.Lo > 0 && fast.Hi > 0 {
		r.lo, r.hi = slow.Lo/fast.Hi, slow.Hi/fast.Lo
	}
	return r
}

func (r speedup) String() string {
	s := ratio(r.x)
	if r.lo > 0 && !math.IsInf(r.hi, 0) {
		s += fmt.Sprintf(" [%s–%s]", ratio(r.lo), ratio(r.hi))
	}
	return s
}

// A pair is a variant of a library and the library's default entry.
type pair struct{ variant, base *results.Codec }

// pairs returns each codec of the run that departs from its library's
// default usage (a Variant) with that default: the entry of the same
// module and family without a Variant.
func (ix *index) pairs() []pair {
	run := ix.run
	var out []pair
	for i := range run.Codecs {
		v := &run.Codecs[i]
		if v.Variant == "" {
			continue
		}
		for j := range run.Codecs {
			b := &run.Codecs[j]
			if b.Variant == "" && b.Module == v.Module && b.Family == v.Family && b.Name != v.Name {
				out = append(out, pair{v, b})
				break
			}
		}
	}
	return out
}

// geomean returns the geometric mean of xs.
func geomean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

// variants writes each same-library pair with the factor by which the
// variant is faster than the library's default, per op: the geometric
// mean over the dataset shapes both measured, with the smallest and
// largest factor.
func (s *writer) variants() {
	var lines []string
	for _, pr := range s.ix.pairs() {
		var ops []string
		for _, op := range results.AllOps() {
			var xs []float64
			for _, c := range s.ix.cats {
				v, b := s.ix.ranked(op, pr.variant.Name, c), s.ix.ranked(op, pr.base.Name, c)
				if v != nil && b != nil {
					xs = append(xs, b.NsPerOp.Median/v.NsPerOp.Median)
				}
			}
			if len(xs) == 0 {
				continue
			}
			f := op.String() + " " + ratio(geomean(xs))
			if len(xs) > 1 {
				f += fmt.Sprintf(" (%s–%s over %d shapes)", ratio(slices.Min(xs)), ratio(slices.Max(xs)), len(xs))
			}
			ops = append(ops, f)
		}
		if len(ops) == 0 {
			continue
		}
		marks := ""
		if m := pr.variant.MarkNames(); m != "" {
			marks = "; " + m
		}
		lines = append(lines, fmt.Sprintf("- %s vs %s: %s (%s%s)", text(pr.variant.Name), text(pr.base.Name), strings.Join(ops, ", "), text(pr.variant.Variant), text(marks)))
	}
	if len(lines) == 0 {
		return
	}
	s.p("")
	s.p("## Variants of one library")
	s.p("")
	s.p("Each variant against its library's default usage: how many times faster the variant is (below 1×: slower), per op, the geometric mean")
	s.p("over the dataset shapes both measured. Marks: %s.", markLegend())
	s.p("")
	for _, l := range lines {
		s.p("%s", l)
	}
}

// markLegend writes every mark's code and name.
func markLegend() string {
	var parts []string
	for _, m := range results.Marks {
		parts = append(parts, m.Code+" "+m.Name)
	}
	return strings.Join(parts, ", ")
}

// The get ops, in display order.
var getOps = []results.Op{results.Get1, results.Get7, results.GetAll, results.GetFloor}

// reads writes the get ops per dataset shape, a table of each codec's
// figures, how it read, and how many times as long a full decode takes
// (its own decode, or, for an in-place reader, that of the codec whose
// encodings it reads); then decode-any: each codec's figure and what it
// turns numbers and maps into.
func (s *writer) reads() {
	var tables [][]string
	for _, c := range s.ix.cats {
		var rows []string
		for _, name := range s.ix.codecs {
			via, cells, measured := "", make([]string, len(getOps)), false
			for i, op := range getOps {
				r := s.ix.ranked(op, name, c)
				if r == nil {
					cells[i] = "–"
					continue
				}
				measured = true
				if via == "" || op == results.GetAll {
					via = r.Via
				}
				cell := results.FormatNs(r.NsPerOp.Median)
				if r.Raw > 0 {
					cell += fmt.Sprintf(", %d raw", r.Raw)
				}
				if d := s.ix.ranked(results.Decode, s.decoderOf(name), c); d != nil {
					cell += " (" + speedupOf(d.NsPerOp, r.NsPerOp).String() + ")"
				}
				cells[i] = cell
			}
			if measured {
				rows = append(rows, fmt.Sprintf("| %s | %s | %s |", text(name), text(via), strings.Join(cells, " | ")))
			}
		}
		if len(rows) > 0 {
			tables = append(tables, append([]string{"", "### " + text(c.String()), "",
				"| codec | how | get1 | get7 | getall | getfloor |", "|---|---|---|---|---|---|"}, rows...))
		}
	}
	var anys []string
	for _, c := range s.ix.cats {
		for _, name := range s.ix.codecs {
			if r := s.ix.ranked(results.DecodeAny, name, c); r != nil {
				anys = append(anys, fmt.Sprintf("| %s | %s | %s | %s | %s |", text(c.String()), text(name), results.FormatNs(r.NsPerOp.Median), text(r.Numbers), text(r.Maps)))
			}
		}
	}
	if len(tables) > 0 {
		s.p("")
		s.p("## Reading fields (get)")
		s.p("")
		s.p("Each get reads the first, the first seven or all of the fields the dataset names, from each message, checked against the original;")
		s.p("in place where the codec can, through a struct holding only those fields for a reflection library, by a full decode otherwise")
		s.p("(the how column). getfloor decodes into an empty struct. In brackets: how many times as long a full decode takes (the codec's")
		s.p("decode op; for an in-place reader, that of the codec whose encodings it reads), with the interval the two figures allow;")
		s.p("raw: fields handed back as slices of the message, not copied strings.")
		for _, t := range tables {
			for _, l := range t {
				s.p("%s", l)
			}
		}
	}
	if len(anys) > 0 {
		s.p("")
		s.p("## Decoding into generic values (decode-any)")
		s.p("")
		s.p("Each decodes into any, checked against the typed value's generic form; the types are those the library chose.")
		s.p("")
		s.p("| dataset/shape | codec | time/op | numbers | maps |")
		s.p("|---|---|---|---|---|")
		for _, l := range anys {
			s.p("%s", l)
		}
	}
}

// decoderOf returns the codec whose decode a get of codec name is
// compared with: the codec an in-place reader reads, else itself.
func (s *writer) decoderOf(name string) string {
	if c := s.ix.run.Codec(name); c != nil && c.ReadsOnly != "" {
		return c.ReadsOnly
	}
	return name
}
