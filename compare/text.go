package compare

import (
	"github.com/serbench/serbench/results"

	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchunit"
)

// WriteText writes the rows as benchstat-like tables, one per unit, then
// a summary of significant changes and of the ranking check.
func WriteText(w io.Writer, oldFile, newFile string, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var units []string
	byUnit := map[string][]Row{}
	for _, r := range rows {
		if _, ok := byUnit[r.Unit]; !ok {
			units = append(units, r.Unit)
		}
		byUnit[r.Unit] = append(byUnit[r.Unit], r)
	}
	changed := 0
	for _, u := range units {
		fmt.Fprintf(tw, "\t%s\t\t%s\t\t\t\n", oldFile, newFile)
		fmt.Fprintf(tw, "\t%s\t±\t%s\t±\tvs base\t\n", u, u)
		cls := benchunit.ClassOf(u)
		for _, r := range byUnit[u] {
			if r.Significant() {
				changed++
			}
			delta := fmt.Sprintf("%s (p=%.3f n=%d+%d)", r.Delta(), r.Cmp.P, r.Cmp.N1, r.Cmp.N2)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Name,
				benchunit.Scale(r.Old.Center, cls), r.Old.PctRangeString(),
				benchunit.Scale(r.New.Center, cls), r.New.PctRangeString(), delta)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d of %d comparisons changed significantly (p ≤ 0.05).\n", changed, len(rows))
	return WriteSummary(w, rows)
}

// WriteUnmatched writes what a comparison of old with new leaves out:
// how many benchmarks only one of them holds, with the first few names.
// It writes nothing when both hold the same benchmarks.
func WriteUnmatched(w io.Writer, old, new *Set) error {
	for _, side := range []struct {
		only []string
		file string
	}{{Only(old, new), old.File}, {Only(new, old), new.File}} {
		if len(side.only) == 0 {
			continue
		}
		names := side.only
		if len(names) > 3 {
			names = append(names[:3:3], fmt.Sprintf("and %d more", len(side.only)-3))
		}
		if _, err := fmt.Fprintf(w, "Not compared: %d benchmarks only in %s: %s.\n", len(side.only), side.file, strings.Join(names, ", ")); err != nil {
			return err
		}
	}
	return nil
}

// WriteSummary writes the closing lines of WriteText: how many medians
// agree within ±5% and ±10%, and the ranking check with every flip.
func WriteSummary(w io.Writer, rows []Row) error {
	if within, total, worst, name := Agreement(rows, "sec/op", 0.05); total > 0 {
		within10, _, _, _ := Agreement(rows, "sec/op", 0.10)
		largest := "all equal"
		if name != "" {
			largest = fmt.Sprintf("largest difference %+.1f%% (%s)", 100*worst, name)
		}
		fmt.Fprintf(w, "Medians (sec/op): %d of %d within ±5%% (%d within ±10%%); %s.\n", within, total, within10, largest)
	}
	pairs, inv := Ranking(rows, "sec/op")
	fmt.Fprintf(w, "Ranking: %d codec pairs ordered in both runs (their sec/op intervals apart in each); %d flipped order.\n", pairs, len(inv))
	for _, i := range inv {
		fmt.Fprintf(w, "  flipped in %s: %s was %.0f%% faster than %s, now %.0f%% slower\n", i.Group, i.A, 100*i.OldGap, i.B, 100*(1/(1+i.NewGap)-1))
	}
	return nil
}

// WriteVerdict writes a gate's verdict on rows: the comparisons the gate
// flags (each named with its delta as benchstat writes it, regressions
// first), how many were too noisy to flag a change of the threshold's
// size, and each codec's geomean of new/old.
func WriteVerdict(w io.Writer, v Verdict, rows []Row) error {
	fmt.Fprintf(w, "Gate at ±%s: %d of %d comparisons flagged (significant, intervals apart, beyond the threshold): %d regressions, %d improvements.\n",
		FormatThreshold(v.Threshold), len(v.Regressions)+len(v.Improvements), v.Compared, len(v.Regressions), len(v.Improvements))
	fmt.Fprintf(w, "  Not judged: changes of B/op under %g bytes and of allocs/op under %g per op, and the collector's gc-* figures (shown above).\n", Floor("B/op"), Floor("allocs/op"))
	for _, r := range v.Regressions {
		fmt.Fprintf(w, "  regression: %s %s %s (%s)\n", r.Name, r.Unit, r.Delta(), r.Cmp)
	}
	for _, r := range v.Improvements {
		fmt.Fprintf(w, "  improvement: %s %s %s (%s)\n", r.Name, r.Unit, r.Delta(), r.Cmp)
	}
	if v.Counted > 0 {
		fmt.Fprintf(w, "Gate: %d comparisons of time left to the instructions both runs counted for their benchmarks (%s, judged at the same threshold and beyond the two counts' intervals, their processes' smallest to largest count; a side counted by one process, never under %.0f%%): a count is what a busy machine does not move.\n", v.Counted, results.UnitInstructions, 100*results.CountGap)
	}
	if len(v.Undecided) > 0 {
		fmt.Fprintf(w, "Gate: %d comparisons of time changed beyond ±%s but within the %.2fx between a busy run's two speeds (its machine meter, below): time cannot decide them, so they pass. "+
			"To decide them, count instructions (serbench run -measure both) or run the two alternately (serbench compare -interleave):\n", len(v.Undecided), FormatThreshold(v.Threshold), v.Speeds)
		for _, r := range v.Undecided {
			fmt.Fprintf(w, "  undecided: %s %s %s (%s)\n", r.Name, r.Unit, r.Delta(), r.Cmp)
		}
	}
	if len(v.Waited) > 0 {
		fmt.Fprintf(w, "Gate: %d comparisons of time changed beyond ±%s where a side waited for the CPU (its wall time per op more than %.0f%% above its CPU time per op): that side measured its share of a busy machine, not the code, so they pass. "+
			"To decide them, count instructions (serbench run -measure both) or run the two alternately (serbench compare -interleave):\n", len(v.Waited), FormatThreshold(v.Threshold), 100*WaitTolerance)
		for _, r := range v.Waited {
			fmt.Fprintf(w, "  undecided: %s %s %s (%s)\n", r.Name, r.Unit, r.Delta(), r.Cmp)
		}
	}
	if len(v.Unstable) > 0 {
		fmt.Fprintf(w, "Gate: %d comparisons of allocs/op or cpu-sec/op changed beyond ±%s where their runs disagree with themselves by as much (their two ± add up to more), or of B/op or allocs/op of an op that allocates a fraction of an allocation per op (amortized: how often follows the collector, which the machine's speed moves): not judged.\n", len(v.Unstable), FormatThreshold(v.Threshold))
	}
	if v.Blind > 0 {
		fmt.Fprintf(w, "Gate at ±%s: %d of %d comparisons too noisy to flag a change that size (their two ± add up to more, or a side has fewer than 6 samples): more samples narrow them (a larger -budget; with -interleave, more -rounds).\n", FormatThreshold(v.Threshold), v.Blind, v.Compared)
	}
	var units, flat []string
	for _, r := range rows {
		if !slices.Contains(units, r.Unit) {
			units = append(units, r.Unit)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, u := range units {
		gs := Geomeans(rows, u)
		if u != "sec/op" && !slices.ContainsFunc(gs, func(g Geomean) bool { return math.Abs(g.Ratio-1) >= 0.0005 }) {
			flat = append(flat, u)
			continue
		}
		fmt.Fprintf(tw, "geomean new/old, %s\tratio\tvs base\t95%% interval\tn\t\n", u)
		for _, g := range gs {
			name := g.Codec
			if name == "" {
				name = "all"
			}
			interval := "∞"
			if !math.IsInf(g.Lo, 0) && !math.IsInf(g.Hi, 0) {
				interval = fmt.Sprintf("%+.2f%% .. %+.2f%%", 100*(g.Lo-1), 100*(g.Hi-1))
			}
			fmt.Fprintf(tw, "  %s\t%.3f\t%+.2f%%\t%s\t%d\t\n", name, g.Ratio, 100*(g.Ratio-1), interval, g.N)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(flat) > 0 {
		fmt.Fprintf(w, "geomean new/old 1.000 (to three places) for every codec in %s.\n", strings.Join(flat, ", "))
	}
	return nil
}
