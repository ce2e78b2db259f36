package html

import (
	"fmt"

	"github.com/serbench/serbench/results"
)

// production is the page's section on production conditions: throughput
// on more cores against one (run -cpu), what decoded values keep and
// what garbage costs the collector, and first calls in a fresh process
// (run -cold). Each table is empty when the run has no such figures.
type production struct {
	Scaling []scalingView
	Memory  []memoryView
	Cold    []coldView
	// LiveHeap says what heap the collector's figures were measured with.
	LiveHeap string
	// Ceiling says how far a loop of pure arithmetic sped up at each
	// GOMAXPROCS as the run started.
	Ceiling string
}

type scalingView struct {
	Category, Codec, Op                     string
	Procs                                   int
	Base, At, Msgs, MB, Speedup, Efficiency string
	EfficiencyV                             float64
}

type memoryView struct {
	KeptText                             string // "–" when not measured (under a live heap)
	Category, Codec                      string
	Kept                                 float64
	DecAlloc, EncAlloc                   string
	EncCycles, EncCPU, DecCycles, DecCPU string
	KeptV                                float64
}

type coldView struct {
	Category, Codec                                        string
	EncFirst, EncNext, EncWarm, DecFirst, DecNext, DecWarm string
}

// newProduction gathers the production figures of run.
func newProduction(run *results.Run) production {
	var p production
	for _, x := range results.Scalings(run.Results) {
		msgs, mb := x.At.Throughput()
		p.Scaling = append(p.Scaling, scalingView{
			Category: x.Dataset + "/" + x.Shape, Codec: x.Codec, Op: string(x.Op), Procs: x.Procs,
			Base: results.FormatNs(x.Base.NsPerOp.Median), At: results.FormatNs(x.At.NsPerOp.Median),
			Msgs: fmt.Sprintf("%.0f", msgs), MB: fmt.Sprintf("%.1f", mb),
			Speedup: ratioRange(x.Speedup, "×"), Efficiency: ratioRange(x.Efficiency, ""), EfficiencyV: x.Efficiency.Median,
		})
	}
	for i, n := range run.Env.CPUList {
		if n > 1 && i < len(run.Env.SpinSpeedup) {
			if p.Ceiling != "" {
				p.Ceiling += ", "
			}
			p.Ceiling += fmt.Sprintf("%.2f× at %d", run.Env.SpinSpeedup[i], n)
		}
	}
	p.LiveHeap = "an almost empty heap"
	if run.Options.LiveHeap > 0 {
		p.LiveHeap = fmt.Sprintf("%d MB of pointer-rich data kept alive beside it (-live-heap)", run.Options.LiveHeap/1e6)
	}
	ix := results.NewIndex(run.Results)
	for _, cat := range ix.Categories {
		if cat.Procs > 1 {
			continue
		}
		for _, c := range ix.Cells(cat) {
			e, d := c.Encode, c.Decode
			if d != nil && d.Status == results.OK && (d.KeptBPerOp > 0 || d.GCCPUNsPerKop > 0 || run.Options.LiveHeap > 0) {
				m := memoryView{Category: cat.String(), Codec: c.Codec, Kept: d.KeptBPerOp}
				m.DecAlloc, m.DecCycles, m.DecCPU = garbage(d)
				m.EncAlloc, m.EncCycles, m.EncCPU = garbage(e)
				m.KeptText = "–"
				if d.KeptBPerOp > 0 {
					m.KeptText = fmt.Sprintf("%.0f", d.KeptBPerOp)
				}
				p.Memory = append(p.Memory, m)
			}
			if (e == nil || e.ColdNs == 0) && (d == nil || d.ColdNs == 0) {
				continue
			}
			cv := coldView{Category: cat.String(), Codec: c.Codec}
			cv.EncFirst, cv.EncNext, cv.EncWarm = coldFigures(e)
			cv.DecFirst, cv.DecNext, cv.DecWarm = coldFigures(d)
			p.Cold = append(p.Cold, cv)
		}
	}
	return p
}

// coldFigures formats a result's first call, the call after it and its
// warm median ("–" for what it lacks).
func coldFigures(r *results.Result) (first, next, warm string) {
	first, next, warm = "–", "–", "–"
	if r == nil {
		return
	}
	if r.ColdNs > 0 {
		first, next = results.FormatNs(r.ColdNs), results.FormatNs(r.ColdNextNs)
	}
	if r.Status == results.OK {
		warm = results.FormatNs(r.NsPerOp.Median)
	}
	return
}

// ratioRange formats a ratio with its interval's range.
func ratioRange(st results.Stat, unit string) string {
	if st.Lo <= 0 || st.Hi <= 0 {
		return fmt.Sprintf("%.2f%s", st.Median, unit)
	}
	return fmt.Sprintf("%.2f%s [%.2f–%.2f]", st.Median, unit, st.Lo, st.Hi)
}

// garbage returns the memory table's figures of r: bytes allocated per op,
// collector cycles and CPU time per 1,000 ops. A figure not measured is
// "–", never 0: r missing or not measured, or no collection seen while an
// op that allocates was sampled (its cost is below what the samples could
// see, not nothing). An op that allocates nothing costs 0 cycles.
func garbage(r *results.Result) (alloc, cycles, cpu string) {
	if r == nil || r.Status != results.OK {
		return "–", "–", "–"
	}
	alloc = fmt.Sprintf("%.0f", r.BPerOp)
	if r.GCCyclesPerKop == 0 && r.GCCPUNsPerKop == 0 && r.BPerOp > 0 {
		return alloc, "–", "–"
	}
	return alloc, fmt.Sprintf("%.3g", r.GCCyclesPerKop), results.FormatNs(r.GCCPUNsPerKop)
}
