package summary

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// scaling writes how each codec's throughput grows with GOMAXPROCS (run
// -cpu): per benchmark at each GOMAXPROCS above 1, its throughput and its
// speed-up and efficiency against one goroutine, with their intervals,
// then the worst scalers named.
func (s *writer) scaling() {
	sc := results.Scalings(s.ix.run.Results)
	if len(sc) == 0 {
		return
	}
	s.p("")
	s.p("## Throughput on more cores (-cpu)")
	s.p("")
	s.p("Each benchmark timed at GOMAXPROCS N on N goroutines (run -cpu, as go test -cpu), each goroutine with cases and messages of its own;")
	s.p("time per op is wall time over all their operations, so throughput is N goroutines'. Speed-up is the one-goroutine time over it,")
	s.p("with the range the two intervals allow; efficiency is speed-up over N (1 scales perfectly). Cores: %s.", coresWords(s.ix.run.Env))
	if w := ceilingWords(s.ix.run.Env); w != "" {
		s.p("%s", w)
	}
	s.p("")
	s.p("| dataset/shape | codec | op | N | time at 1 | time at N | msgs/s at N | MB/s at N | speed-up | efficiency |")
	s.p("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, x := range sc {
		msgs, mb := x.At.Throughput()
		s.p("| %s/%s | %s | %s | %d | %s | %s | %s | %.1f | %s | %s |", text(x.Dataset), text(x.Shape), text(x.Codec), x.Op, x.Procs,
			durCI(x.Base), durCI(x.At), group(fmt.Sprintf("%.0f", msgs)), mb, rangeWords(x.Speedup, "×"), rangeWords(x.Efficiency, ""))
	}
	worst := slices.Clone(sc)
	slices.SortStableFunc(worst, func(a, b results.Scaling) int { return cmp.Compare(a.Efficiency.Median, b.Efficiency.Median) })
	var names []string
	for _, x := range worst[:min(3, len(worst))] {
		names = append(names, fmt.Sprintf("%s %s on %s/%s at %d (%s)", text(x.Codec), x.Op, text(x.Dataset), text(x.Shape), x.Procs, rangeWords(x.Efficiency, "")))
	}
	s.p("")
	s.p("Worst scalers: %s.", strings.Join(names, "; "))
}

// rangeWords formats a ratio with the range of its interval: "1.82×
// [1.61–2.05]", or the ratio alone when the range is unknown.
func rangeWords(st results.Stat, unit string) string {
	if st.Lo <= 0 || st.Hi <= 0 {
		return fmt.Sprintf("%.2f%s", st.Median, unit)
	}
	return fmt.Sprintf("%.2f%s [%.2f–%.2f]", st.Median, unit, st.Lo, st.Hi)
}

// coresWords says which cores the run had and which GOMAXPROCS it timed.
func coresWords(e results.Env) string {
	w := fmt.Sprintf("%d logical CPUs", e.NumCPU)
	if len(e.Cores) > 0 {
		var cs []string
		for _, c := range e.Cores {
			cs = append(cs, fmt.Sprint(c))
		}
		w += " (" + strings.Join(cs, ",") + ")"
	}
	if len(e.CPUList) > 0 {
		var ns []string
		for _, n := range e.CPUList {
			ns = append(ns, fmt.Sprint(n))
		}
		w += ", GOMAXPROCS " + strings.Join(ns, ",")
	}
	return w
}

// memory writes what each codec's decoded values keep and what its
// garbage costs the collector, per dataset shape at one goroutine.
func (s *writer) memory() {
	run := s.ix.run
	ix := results.NewIndex(run.Results)
	type line struct {
		cat  results.Category
		cell *results.Cell
	}
	var lines []line
	for _, cat := range ix.Categories {
		if cat.Procs > 1 {
			continue
		}
		for _, c := range ix.Cells(cat) {
			if d := c.Decode; d != nil && d.Status == results.OK && (d.KeptBPerOp > 0 || d.GCCPUNsPerKop > 0 || run.Options.LiveHeap > 0) {
				lines = append(lines, line{cat, c})
			}
		}
	}
	if len(lines) == 0 {
		return
	}
	s.p("")
	s.p("## Memory kept and garbage made")
	s.p("")
	heap := "an almost empty heap"
	if run.Options.LiveHeap > 0 {
		heap = fmt.Sprintf("%s of pointer-rich data kept alive beside it (-live-heap), samples meeting the collector as it came", bytes(int(run.Options.LiveHeap)))
	}
	s.p("Kept is the heap one decoded value keeps reachable after a collection (not measured under a live heap); allocated is what")
	s.p("an operation allocates in all (B/op).")
	s.p("Collector cycles and CPU time are per 1,000 operations over all the samples, measured with %s.", heap)
	if run.Options.LiveHeap > 0 {
		s.p("A cycle ends only after about as much garbage as the live heap: a budget that allocates less reads few cycles or none.")
	}
	s.p("")
	s.p("| dataset/shape | codec | decode kept | decode allocated | encode allocated | GC cycles/1k encode | GC CPU/1k encode | GC cycles/1k decode | GC CPU/1k decode |")
	s.p("|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, l := range lines {
		d, e := l.cell.Decode, l.cell.Encode
		enc := " – | – | – |"
		if e != nil && e.Status == results.OK {
			enc = fmt.Sprintf(" %s | %.3g | %s |", bytesF(e.BPerOp), e.GCCyclesPerKop, dur(e.GCCPUNsPerKop))
		}
		kept := "–" // not measured under a live heap
		if d.KeptBPerOp > 0 {
			kept = bytesF(d.KeptBPerOp)
		}
		s.p("| %s | %s | %s | %s |%s %.3g | %s |", text(l.cat.String()), text(l.cell.Codec), kept, bytesF(d.BPerOp), enc, d.GCCyclesPerKop, dur(d.GCCPUNsPerKop))
	}
}

// cold writes each codec's first encode and decode of a type in a fresh
// process (run -cold) beside the warm medians.
func (s *writer) cold() {
	ix := results.NewIndex(s.ix.run.Results)
	var rows []string
	for _, cat := range ix.Categories {
		if cat.Procs > 1 {
			continue
		}
		for _, c := range ix.Cells(cat) {
			e, d := c.Encode, c.Decode
			if (e == nil || e.ColdNs == 0) && (d == nil || d.ColdNs == 0) {
				continue
			}
			rows = append(rows, fmt.Sprintf("| %s | %s |%s%s", text(cat.String()), text(c.Codec), coldCells(e), coldCells(d)))
		}
	}
	if len(rows) == 0 {
		return
	}
	s.p("")
	s.p("## First call in a fresh process")
	s.p("")
	s.p("A codec's first encode of a type, and its first decode, each in a process of its own that has made no call before")
	s.p("(reflection caches built, code generated at run time), then the call after it, beside the warm median. They are apart from")
	s.p("every other figure: a one-off cost that a short-lived process or a rarely used type pays.")
	s.p("")
	s.p("| dataset/shape | codec | first encode | next encode | warm encode | first decode | next decode | warm decode |")
	s.p("|---|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		s.p("%s", r)
	}
}

// coldCells formats a result's first call, the next and its warm median.
func coldCells(r *results.Result) string {
	if r == nil || r.ColdNs == 0 {
		return " – | – | – |"
	}
	warm := "–"
	if r.Status == results.OK {
		warm = dur(r.NsPerOp.Median)
	}
	return fmt.Sprintf(" %s | %s | %s |", dur(r.ColdNs), dur(r.ColdNextNs), warm)
}

// ceilingWords says how far a loop of pure arithmetic sped up at each
// GOMAXPROCS as the run started (results.Env.SpinSpeedup): the most any
// codec's speed-up could be on the machine then.
func ceilingWords(e results.Env) string {
	if len(e.SpinSpeedup) != len(e.CPUList) || len(e.CPUList) == 0 {
		return ""
	}
	var at []string
	for i, n := range e.CPUList {
		if n > 1 {
			at = append(at, fmt.Sprintf("%.2f× at %d", e.SpinSpeedup[i], n))
		}
	}
	if len(at) == 0 {
		return ""
	}
	return "The machine's ceiling, a loop of pure arithmetic timed the same way as the run started: " + strings.Join(at, ", ") +
		" (the GOMAXPROCS on a machine of its own; less where other work held cores, and no codec can do better)."
}
