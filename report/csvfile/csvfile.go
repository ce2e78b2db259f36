// Package csvfile writes serbench results as CSV: a header and one row per
// benchmark, quoted as RFC 4180 requires.
package csvfile

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/serbench/serbench/compress"
	"github.com/serbench/serbench/results"
)

// Header is the CSV header row: a result's own figures, the stream ops',
// the codec's variant (its API, what it reuses, whether decoded strings
// point into the input, the codec an in-place reader reads), how a reading
// op read, then, for each compressor of package compress (gzip-6, ...), the encoding's size after
// it and the time to compress and decompress it (empty without run
// -compress), and last the op's instructions counted under Valgrind
// (the median of the processes that counted it) with why it was not
// counted, and the smallest and largest process's count (empty unless
// the run counted). A benchmark counted and not timed (run -measure
// instructions) leaves the time's columns and the allocations' empty.
var Header = append(append([]string{
	"op", "codec", "dataset", "shape", "status", "ns_per_op", "ci_lo_ns", "ci_hi_ns", "ci_pct",
	"samples", "target_met", "b_per_op", "allocs_per_op", "encoded_bytes", "items",
	"family", "variant", "losses", "codec_version", "reason", "pooled_ns_per_op",
	"implausible", "checked_round_trips",
	"gomaxprocs", "msgs_per_s", "mb_per_s", "kept_b_per_op", "gc_cycles_per_kop", "gc_cpu_ns_per_kop", "cold_ns", "cold_next_ns",
	"stream_bytes_per_msg", "stream_mb_per_s", "stream_heap_growth", "stream_check_msgs", "truly_streams",
	"api", "reuses_buffer", "reuses_target", "zero_copy", "reads_only", "via", "raw_slices", "numbers", "maps",
}, compressColumns()...), "instr_per_op", "count_skipped", "instr_lo", "instr_hi")

// compressColumns returns the header's columns of the compressors.
func compressColumns() []string {
	var cols []string
	for _, name := range compress.Names() {
		cols = append(cols, name+"_bytes", name+"_compress_ns", name+"_decompress_ns")
	}
	return cols
}

// Write writes run's results as CSV.
func Write(w io.Writer, run *results.Run) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
		return err
	}
	for _, r := range run.Results {
		var family, variant, losses, version string
		if c := run.Codec(r.Codec); c != nil {
			family, variant, losses, version = c.Family, c.Variant, strings.Join(c.Losses, " "), c.Version
		}
		row := []string{string(r.Op), r.Codec, r.Dataset, r.Shape, string(r.Status)}
		if r.Status == results.OK && len(r.Samples) == 0 && r.InstrPerOp > 0 {
			row = append(row, "", "", "", "", "0", "false", "", "", strconv.Itoa(r.Bytes))
		} else if r.Status == results.OK {
			row = append(row, num(r.NsPerOp.Median), num(r.NsPerOp.Lo), num(r.NsPerOp.Hi), pct(r.NsPerOp),
				strconv.Itoa(len(r.Samples)), strconv.FormatBool(r.TargetMet), num(r.BPerOp), num(r.Allocs),
				strconv.Itoa(r.Bytes))
		} else {
			row = append(row, "", "", "", "", "0", "false", "", "", "")
		}
		row = append(row, strconv.Itoa(r.Items), family, variant, losses, version, r.Reason)
		if r.Status == results.OK && r.PooledNsPerOp > 0 {
			row = append(row, num(r.PooledNsPerOp))
		} else {
			row = append(row, "")
		}
		row = append(row, r.Implausible, strconv.Itoa(r.Checked), strconv.Itoa(r.Procs))
		msgs, mb := r.Throughput()
		if r.Status != results.OK {
			msgs, mb = 0, 0
		}
		for _, f := range []float64{msgs, mb, r.KeptBPerOp, r.GCCyclesPerKop, r.GCCPUNsPerKop, r.ColdNs, r.ColdNextNs} {
			row = append(row, optNum(f))
		}
		row = append(row, streamCells(&r)...)
		row = append(row, variantColumns(run.Codec(r.Codec))...)
		row = append(row, r.Via, strconv.Itoa(r.Raw), r.Numbers, r.Maps)
		row = append(row, compressCells(&r)...)
		instr, lo, hi := "", "", ""
		if r.Status == results.OK {
			instr = optNum(r.InstrPerOp)
			if v := r.InstrInterval(); v.Known() {
				lo, hi = num(v.Lo), num(v.Hi)
			}
		}
		row = append(row, instr, r.CountSkipped, lo, hi)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// streamCells returns a result's stream columns, empty for other ops.
func streamCells(r *results.Result) []string {
	cells := make([]string, 5)
	if r.Status == results.OK && r.StreamBytes > 0 {
		cells[0], cells[1] = num(r.StreamBytes), num(r.MBPerSec())
	}
	if s := r.Streams; s != nil {
		cells[2], cells[3], cells[4] = strconv.FormatInt(s.HeapGrowth, 10), strconv.Itoa(s.Messages), yesNo(s.Truly())
	}
	return cells
}

// compressCells returns a result's compressor columns, in the header's
// order.
func compressCells(r *results.Result) []string {
	var cells []string
	for _, name := range compress.Names() {
		c := []string{"", "", ""}
		for _, cp := range r.Compressed {
			if cp.Algo == name {
				c = []string{strconv.Itoa(cp.Bytes), num(cp.CompressNs), num(cp.DecompressNs)}
			}
		}
		cells = append(cells, c...)
	}
	return cells
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// variantColumns returns the codec's variant columns: its API, whether it
// reuses its encode buffer and its decode target, whether decoded strings
// point into the input, and the codec an in-place reader reads.
func variantColumns(c *results.Codec) []string {
	if c == nil {
		return []string{"", "", "", "", ""}
	}
	return []string{c.API, strconv.FormatBool(c.ReusesBuffer), strconv.FormatBool(c.ReusesTarget), strconv.FormatBool(c.Aliases), c.ReadsOnly}
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

// optNum formats a figure that may be missing (0): empty then.
func optNum(f float64) string {
	if f == 0 {
		return ""
	}
	return num(f)
}

func pct(s results.Stat) string {
	if s.Lo == 0 && s.Hi == 0 {
		return ""
	}
	return strconv.FormatFloat(100*s.RelCI(), 'f', 1, 64)
}
