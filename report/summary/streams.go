package summary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// compressed writes, for each dataset shape whose encodings were
// compressed (run -compress), the Pareto front of size against
// round-trip time over the encodings as they are and compressed, and the
// smallest message sent.
func (s *writer) compressed() {
	type shape struct {
		c     category
		ts    []results.Tradeoff
		front []int
	}
	var shapes []shape
	for _, c := range s.ix.cats {
		ts := results.Tradeoffs(s.ix.cells.Cells(c))
		if !slices.ContainsFunc(ts, func(t results.Tradeoff) bool { return t.Compressor != "" }) {
			continue
		}
		front := results.ParetoFront(len(ts), func(i int) float64 { return ts[i].Time }, func(i int) float64 { return ts[i].Size },
			func(i int) bool { return ts[i].Implausible != "" })
		shapes = append(shapes, shape{c, ts, front})
	}
	if len(shapes) == 0 {
		return
	}
	s.p("")
	s.p("## Compressed size and its cost")
	s.p("")
	s.p("Each encoding (message 0) compressed whole by gzip-6, zstd-1, zstd-3 (klauspost/compress), s2 (its block format) and lz4")
	s.p("(pierrec/lz4, block); a round trip is then encode, compress, decompress and decode, each compressor's time the fastest of")
	s.p("a few timed batches. The front holds what no other way of sending the message beats on both size and time, fastest first.")
	s.p("")
	for _, sh := range shapes {
		var names []string
		for _, i := range sh.front {
			t := sh.ts[i]
			names = append(names, fmt.Sprintf("%s (%s, %s)", text(t.Name()), dur(t.Time), bytesF(t.Size)))
		}
		line := fmt.Sprintf("- %s: the front is %s", text(sh.c.String()), andList(names))
		if w := frontWords(sh.ts, sh.front); w != "" {
			line += "; " + w
		}
		s.p("%s.", line)
	}
}

// frontWords says, of a front, which compressed encoding stands on it
// with which encoding as it is ("json+zstd-3 is on the front with gob"),
// or that none or only compressed ones do.
func frontWords(ts []results.Tradeoff, front []int) string {
	var raw, comp []string
	for _, i := range front {
		if ts[i].Compressor == "" {
			raw = append(raw, text(ts[i].Name()))
		} else {
			comp = append(comp, text(ts[i].Name()))
		}
	}
	switch {
	case len(comp) == 0:
		return "no compressed encoding is on it"
	case len(raw) == 0:
		return "every encoding on it is compressed"
	}
	verb := "is"
	if len(comp) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s %s on the front with %s", andList(comp), verb, andList(raw))
}

// streams writes, for each dataset shape with stream results, each
// streaming codec's throughput through io.Writer and io.Reader, and
// whether its Decoder truly streams.
func (s *writer) streams() {
	var lines []string
	for _, c := range s.ix.cats {
		for _, cell := range s.ix.cells.Cells(c) {
			enc, dec := cell.Result(results.StreamEncode), cell.Result(results.StreamDecode)
			row := []string{text(c.String()), text(cell.Codec)}
			shown := false
			for _, r := range []*results.Result{enc, dec} {
				if r != nil && r.Ranked() && r.MBPerSec() > 0 {
					row = append(row, durCI(r), fmt.Sprintf("%.3g", r.MBPerSec()))
					shown = true
				} else {
					row = append(row, "–", "–")
				}
			}
			truly := "–"
			if dec != nil && dec.Streams != nil {
				truly, shown = streamsWord(dec.Streams), true
			}
			if shown {
				lines = append(lines, "| "+strings.Join(append(row, truly), " | ")+" |")
			}
		}
	}
	if len(lines) == 0 {
		return
	}
	s.p("")
	s.p("## Streams")
	s.p("")
	s.p("Messages written through one library Encoder to an io.Writer and read back through one Decoder from an io.Reader (up to")
	s.p("%s messages a stream), in MB/s of the stream, every timed message checked at random. A Decoder truly streams when", group(fmt.Sprint(results.StreamMessages)))
	s.p("decoding a long stream (up to %s messages) grows the live heap by less than %d KiB from the stream's first tenth to its", group(fmt.Sprint(results.StreamCheckMessages)), results.StreamLimit>>10)
	s.p("end (after go-json-experiment's jsonbench criterion).")
	s.p("")
	s.p("| dataset/shape | codec | stream-encode per message | MB/s | stream-decode per message | MB/s | truly streams |")
	s.p("|---|---|---:|---:|---:|---:|---|")
	for _, l := range lines {
		s.p("%s", l)
	}
}

// streamsWord says whether a Decoder truly streams, with the heap's
// growth and the stream's length.
func streamsWord(sc *results.StreamCheck) string {
	yes := "no"
	if sc.Truly() {
		yes = "yes"
	}
	return fmt.Sprintf("%s, %s of heap over %s messages", yes, bytesSigned(sc.HeapGrowth), group(fmt.Sprint(sc.Messages)))
}

// bytesSigned formats a growth in bytes, which may be negative.
func bytesSigned(n int64) string {
	if n < 0 {
		return "-" + bytes(int(-n))
	}
	return "+" + bytes(int(n))
}
