package summary

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/serbench/serbench/results"
)

// A category is one dataset in one shape.
type category = results.Category

// index holds a run's results for look-up, in the run's order.
type index struct {
	run    *results.Run
	cells  *results.Index
	cats   []category // in order of first appearance
	codecs []string   // in order of first appearance
	ok     int        // results that may rank
}

func newIndex(run *results.Run) *index {
	cells := results.NewIndex(run.Results)
	ix := &index{run: run, cells: cells, cats: cells.Categories, codecs: cells.Codecs}
	for _, c := range ix.cats {
		for _, cell := range cells.Cells(c) {
			if cell.Ranked() {
				ix.ok++
			}
		}
	}
	return ix
}

// get returns codec's verified result for op on c, or nil.
func (ix *index) get(op results.Op, codec string, c category) *results.Result {
	cell := ix.cells.Cell(codec, c)
	if cell == nil || !cell.Ranked() {
		return nil
	}
	if r := cell.Result(op); r != nil && r.Ranked() {
		return r
	}
	return nil
}

// size returns the encoded size of codec's message for c, or -1 if no
// verified result records it.
func (ix *index) size(codec string, c category) int {
	for _, op := range results.Ops {
		if r := ix.get(op, codec, c); r != nil {
			return r.Bytes
		}
	}
	return -1
}

// measured returns the codecs with a verified result for op on c, in run
// order.
func (ix *index) measured(op results.Op, c category) []*results.Result {
	var out []*results.Result
	for _, name := range ix.codecs {
		if r := ix.get(op, name, c); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// flags returns the fairness flags of a codec: what makes a comparison
// with it not like for like.
func (ix *index) flags(codec string) []string {
	if c := ix.run.Codec(codec); c != nil {
		return c.Flags()
	}
	return nil
}

// name is a codec's name, marked † if it has fairness flags; flagged
// records the codecs so marked, for the note that explains them.
func (ix *index) name(codec string, flagged *[]string) string {
	if len(ix.flags(codec)) == 0 {
		return text(codec)
	}
	if !slices.Contains(*flagged, codec) {
		*flagged = append(*flagged, codec)
	}
	return text(codec) + "†"
}

// stat returns r's median time with its interval. Whether two of them
// are apart, tied or undecided is results.Compare's to say: one rule for
// every report and verdict.
func stat(r *results.Result) results.Interval { return r.NsPerOp.Interval() }

// dur formats ns as the terminal table does: three significant digits.
func dur(ns float64) string { return results.FormatNs(ns) }

// durCI formats a time with the half-width of its interval.
func durCI(r *results.Result) string {
	ci := r.NsPerOp.RelCI()
	if math.IsInf(ci, 1) {
		return dur(r.NsPerOp.Median) + " ±?"
	}
	return fmt.Sprintf("%s ±%.0f%%", dur(r.NsPerOp.Median), 100*ci)
}

// bytes formats a size with thousands separators: "1,421,842 B".
func bytes(n int) string { return group(strconv.Itoa(n)) + " B" }

// bytesF formats a fractional size such as bytes per item.
func bytesF(f float64) string {
	if f >= 100 || f == math.Trunc(f) {
		return bytes(int(math.Round(f)))
	}
	return group(strconv.FormatFloat(f, 'f', 1, 64)) + " B"
}

// group puts thousands separators into a decimal number.
func group(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, d := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	out := b.String()
	if hasFrac {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// ratio formats a factor: "1.8×", "13×", "1,250×".
func ratio(f float64) string {
	switch {
	case f >= 100:
		return group(strconv.FormatFloat(f, 'f', 0, 64)) + "×"
	case f >= 10:
		return strconv.FormatFloat(f, 'f', 0, 64) + "×"
	case f >= 1.1 || f < 0.95:
		return strconv.FormatFloat(f, 'f', 1, 64) + "×"
	default:
		return strconv.FormatFloat(f, 'f', 2, 64) + "×"
	}
}

// change words a factor of growth: "2.7×", and below 1 "falls to 0.4×",
// never a growth of 0.4×.
func change(f float64) string {
	if f < 1 {
		return "falls to " + ratio(f)
	}
	return ratio(f)
}

// median returns the median of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// text escapes free text for Markdown outside code: the characters that
// would start markup or raw HTML, and those that would end a table cell
// ("|" and a line break), so its result goes into a cell as it is. Text is
// escaped once, where it enters a line: a cell made of escaped parts is
// not escaped again.
func text(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "<", `\<`, ">", `\>`, "*", `\*`, "_", `\_`, "`", "\\`", "|", `\|`, "\n", " ")
	return r.Replace(s)
}
