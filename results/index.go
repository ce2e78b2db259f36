package results

import (
	"fmt"
	"strings"
)

// A Category is one dataset in one shape, at one GOMAXPROCS (Result.Procs,
// 0 when the run set none): the unit a report ranks codecs on.
type Category struct {
	Dataset, Shape string
	Procs          int
}

// String names the category: "tiny/single", "tiny/single-2" at
// GOMAXPROCS 2.
func (c Category) String() string { return c.Dataset + "/" + c.Shape + ProcsSuffix(c.Procs) }

// A Cell is one codec on one category: its encode and decode results,
// either of which may be missing.
type Cell struct {
	Codec          string
	Encode, Decode *Result
	// More holds the results of the ops of MoreOps, by op.
	More map[Op]*Result
}

// Result returns the cell's result for op, or nil.
func (c *Cell) Result(op Op) *Result {
	switch op {
	case Encode:
		return c.Encode
	case Decode:
		return c.Decode
	}
	return c.More[op]
}

// Implausible returns why the cell may not rank for an implausible
// figure, or "": the reason of its first implausible result, with its op.
func (c *Cell) Implausible() string {
	for _, r := range []*Result{c.Encode, c.Decode} {
		if r != nil && r.Status == OK && r.Implausible != "" {
			return string(r.Op) + ": " + r.Implausible
		}
	}
	return ""
}

// Skipped reports whether every result of the cell was skipped.
func (c *Cell) Skipped() bool {
	for _, r := range []*Result{c.Encode, c.Decode} {
		if r != nil && r.Status != Skipped {
			return false
		}
	}
	return true
}

// Ranked reports whether the cell may rank: it has a result, and every
// result it has that was not skipped is measured and plausible. A codec
// whose encode is a cached copy does not win on size or decode either.
func (c *Cell) Ranked() bool {
	n := 0
	for _, r := range []*Result{c.Encode, c.Decode} {
		switch {
		case r == nil || r.Status == Skipped:
		case !r.Ranked():
			return false
		default:
			n++
		}
	}
	return n > 0
}

// An Index groups a run's results by category and codec, keeping the order
// in which each first appears in the run.
type Index struct {
	// Categories and Codecs are in order of first appearance.
	Categories []Category
	Codecs     []string
	cells      map[Category][]*Cell
}

// NewIndex indexes rs. The cells point into rs.
func NewIndex(rs []Result) *Index {
	ix := &Index{cells: map[Category][]*Cell{}}
	seen := map[string]bool{}
	for i := range rs {
		r := &rs[i]
		cat := Category{r.Dataset, r.Shape, r.Procs}
		cells, ok := ix.cells[cat]
		if !ok {
			ix.Categories = append(ix.Categories, cat)
		}
		if !seen[r.Codec] {
			seen[r.Codec] = true
			ix.Codecs = append(ix.Codecs, r.Codec)
		}
		var cell *Cell
		for _, c := range cells {
			if c.Codec == r.Codec {
				cell = c
			}
		}
		if cell == nil {
			cell = &Cell{Codec: r.Codec}
			ix.cells[cat] = append(cells, cell)
		}
		switch r.Op {
		case Encode:
			cell.Encode = r
		case Decode:
			cell.Decode = r
		default:
			if cell.More == nil {
				cell.More = map[Op]*Result{}
			}
			cell.More[r.Op] = r
		}
	}
	return ix
}

// Cells returns the cells of category c, in order of first appearance.
func (ix *Index) Cells(c Category) []*Cell { return ix.cells[c] }

// Cell returns codec's cell on category c, or nil.
func (ix *Index) Cell(codec string, c Category) *Cell {
	for _, cell := range ix.cells[c] {
		if cell.Codec == codec {
			return cell
		}
	}
	return nil
}

// Flags says what makes comparisons with the codec not like for like: a
// variant of the idiomatic usage, an API other than reflection, declared
// losses. It is empty for an idiomatic reflection codec that loses nothing.
func (c *Codec) Flags() []string {
	var f []string
	if c.Variant != "" {
		f = append(f, "variant")
	}
	if c.API != "" && c.API != "reflection" {
		f = append(f, c.API+" API")
	}
	if len(c.Losses) > 0 {
		f = append(f, "loses "+strings.Join(c.LossText(), ", "))
	}
	return f
}

// LossText returns the declared losses, each followed by the fidelity
// probe that shows it, if any: "nil-empty (probe slice-empty)".
func (c *Codec) LossText() []string {
	var out []string
	for _, l := range c.Losses {
		if p := c.LossProbes[l]; p != "" {
			l += " (probe " + p + ")"
		}
		out = append(out, l)
	}
	return out
}

// FormatNs formats a time in nanoseconds with three significant digits,
// as every renderer prints times: "3.05ns", "1.42µs", "250ms".
func FormatNs(ns float64) string {
	units := []struct {
		div  float64
		name string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}}
	for _, u := range units {
		if ns >= u.div || u.div == 1 {
			v := ns / u.div
			switch {
			case v >= 100:
				return fmt.Sprintf("%.0f%s", v, u.name)
			case v >= 10:
				return fmt.Sprintf("%.1f%s", v, u.name)
			default:
				return fmt.Sprintf("%.2f%s", v, u.name)
			}
		}
	}
	return ""
}
