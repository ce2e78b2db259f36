package results

import (
	"cmp"
	"math"
	"slices"
)

// A Tradeoff is one way to send a dataset shape's message: a codec's
// encoding as it is or compressed (run -compress), its size against the
// time of a round trip, compression included. Reports draw them as one
// scatter and name its Pareto front (ParetoFront).
type Tradeoff struct {
	Codec string
	// Compressor names the compressor ("zstd-3"), "" for the encoding as
	// it is.
	Compressor string
	// Time is encode + decode, plus compress and decompress, in ns; Size
	// is the bytes sent.
	Time, Size float64
	// Implausible says why the cell may not rank ("" when it may): the
	// first implausible figure of its results, with its op.
	Implausible string
}

// Name returns "json" for an encoding as it is, "json+zstd-3" for it
// compressed.
func (t Tradeoff) Name() string {
	if t.Compressor == "" {
		return t.Codec
	}
	return t.Codec + "+" + t.Compressor
}

// Tradeoffs returns the tradeoffs of one category's cells, in cell order:
// for each cell with both ops measured, its encoding as it is, then
// compressed by each compressor its encode result holds.
func Tradeoffs(cells []*Cell) []Tradeoff {
	var out []Tradeoff
	for _, c := range cells {
		if c.Encode == nil || c.Decode == nil || c.Encode.Status != OK || c.Decode.Status != OK {
			continue
		}
		why := c.Implausible()
		rt := c.Encode.NsPerOp.Median + c.Decode.NsPerOp.Median
		out = append(out, Tradeoff{Codec: c.Codec, Time: rt, Size: float64(c.Encode.Bytes), Implausible: why})
		for _, z := range c.Encode.Compressed {
			out = append(out, Tradeoff{Codec: c.Codec, Compressor: z.Algo, Time: rt + z.CompressNs + z.DecompressNs, Size: float64(z.Bytes), Implausible: why})
		}
	}
	return out
}

// ParetoFront returns the indices of the points (n of them, point i
// taking time(i) and size(i)) on the Pareto front, fastest first: a point
// is on it when no other is at least as fast and as small and better in
// one. A point left out (out(i)) is never on it, nor does it push others
// off.
func ParetoFront(n int, time, size func(i int) float64, out func(i int) bool) []int {
	idx := make([]int, 0, n)
	for i := range n {
		if !out(i) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(time(a), time(b)); c != 0 {
			return c
		}
		return cmp.Compare(size(a), size(b))
	})
	front := []int{}
	smallest := math.Inf(1)
	for _, i := range idx {
		if size(i) < smallest {
			smallest = size(i)
			front = append(front, i)
		}
	}
	return front
}
