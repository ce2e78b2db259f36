package table

import (
	"fmt"
	"io"

	"github.com/serbench/serbench/results"
)

// streamTables writes, for each dataset shape with stream results, a row
// per codec: each stream op's time per message, its interval and MB/s,
// and whether the Decoder truly streams (results.StreamCheck).
func streamTables(w io.Writer, ix *results.Index, shaky map[string]bool) {
	for _, cat := range ix.Categories {
		var lines []string
		for _, c := range ix.Cells(cat) {
			enc, dec := c.Result(results.StreamEncode), c.Result(results.StreamDecode)
			if !shown(enc) && !shown(dec) {
				continue
			}
			truly := "-"
			if dec != nil && dec.Streams != nil {
				truly = "no"
				if dec.Streams.Truly() {
					truly = "yes"
				}
				truly += fmt.Sprintf(" (%+d B over %d msgs)", dec.Streams.HeapGrowth, dec.Streams.Messages)
			}
			lines = append(lines, fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", c.Codec,
				timeCell(shownOrNil(enc)), ciCell(shownOrNil(enc), shaky), mbCell(enc),
				timeCell(shownOrNil(dec)), ciCell(shownOrNil(dec), shaky), mbCell(dec), truly))
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(w, "streams: dataset=%s shape=%s (per message)\n", cat.Dataset, cat.Shape)
		fmt.Fprintf(w, "codec\tstream-encode\t±\tMB/s\tstream-decode\t±\tMB/s\ttruly streams\t\n")
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintln(w)
	}
}

// compressTables writes, for each dataset shape whose encodings were
// compressed, a row per codec: the encoding's size, then its size after
// each compressor with the time to compress and decompress it.
func compressTables(w io.Writer, ix *results.Index) {
	for _, cat := range ix.Categories {
		var algos []string
		var lines []string
		for _, c := range ix.Cells(cat) {
			r := c.Encode
			if r == nil || r.Status != results.OK || len(r.Compressed) == 0 {
				continue
			}
			if algos == nil {
				for _, z := range r.Compressed {
					algos = append(algos, z.Algo)
				}
			}
			line := fmt.Sprintf("%s\t%d\t", c.Codec, r.Bytes)
			for _, z := range r.Compressed {
				line += fmt.Sprintf("%d (%s+%s)\t", z.Bytes, results.FormatNs(z.CompressNs), results.FormatNs(z.DecompressNs))
			}
			lines = append(lines, line)
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(w, "compressed: dataset=%s shape=%s (bytes, and the time to compress+decompress)\n", cat.Dataset, cat.Shape)
		head := "codec\tbytes\t"
		for _, a := range algos {
			head += a + "\t"
		}
		fmt.Fprintln(w, head)
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintln(w)
	}
}

func shown(r *results.Result) bool { return r != nil && r.Status != results.Skipped }

func shownOrNil(r *results.Result) *results.Result {
	if shown(r) {
		return r
	}
	return nil
}

func mbCell(r *results.Result) string {
	if !shown(r) || r.Status != results.OK || r.MBPerSec() == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3g", r.MBPerSec())
}
