// Package table renders serbench results as text tables for a terminal:
// one table per dataset and shape, one row per codec, fastest first.
package table

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/serbench/serbench/results"
)

// A row is one codec on one dataset shape: its encode and decode results,
// nil where skipped.
type row struct {
	codec          string
	encode, decode *results.Result
}

func newRow(c *results.Cell) *row {
	shown := func(r *results.Result) *results.Result {
		if r == nil || r.Status == results.Skipped {
			return nil
		}
		return r
	}
	return &row{codec: c.Codec, encode: shown(c.Encode), decode: shown(c.Decode)}
}

func (r *row) total() float64 {
	t := 0.0
	for _, res := range []*results.Result{r.encode, r.decode} {
		if res != nil && res.Status == results.OK {
			t += res.NsPerOp.Median
		}
	}
	return t
}

// instructions is the row's instructions per encode and decode: what
// ranks a run that counted and did not time.
func (r *row) instructions() float64 {
	t := 0.0
	for _, res := range []*results.Result{r.encode, r.decode} {
		if res != nil && res.Status == results.OK {
			t += res.InstrPerOp
		}
	}
	return t
}

// implausible reports whether either of the row's figures is implausible.
func (r *row) implausible() bool {
	return r.encode != nil && r.encode.Implausible != "" || r.decode != nil && r.decode.Implausible != ""
}

// Write renders run as text tables.
func Write(w io.Writer, run *results.Run) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	shaky := results.ShakyRanks(run.Results)
	ix := results.NewIndex(run.Results)
	for _, cat := range ix.Categories {
		var rows []*row
		for _, c := range ix.Cells(cat) {
			if !c.Skipped() {
				rows = append(rows, newRow(c))
			}
		}
		if len(rows) == 0 {
			continue
		}
		order := rank
		if !run.Options.Timed() {
			order = rankCounted
		}
		sort.SliceStable(rows, func(i, j int) bool { return order(rows[i]) < order(rows[j]) })
		if cat.Procs > 0 {
			fmt.Fprintf(tw, "dataset=%s shape=%s gomaxprocs=%d\n", cat.Dataset, cat.Shape, cat.Procs)
		} else {
			fmt.Fprintf(tw, "dataset=%s shape=%s\n", cat.Dataset, cat.Shape)
		}
		counted := run.Options.Counted()
		head := "codec\tencode\t±\tdecode\t±\tbytes\tenc allocs\tdec allocs\t"
		if counted {
			head += "enc instr\tdec instr\t"
		}
		fmt.Fprintln(tw, head)
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", r.codec,
				timeCell(r.encode), ciCell(r.encode, shaky), timeCell(r.decode), ciCell(r.decode, shaky),
				bytesCell(r), allocCell(r.encode), allocCell(r.decode))
			if counted {
				fmt.Fprintf(tw, "%s\t%s\t", instrCell(r.encode), instrCell(r.decode))
			}
			fmt.Fprintln(tw)
		}
		fmt.Fprintln(tw)
	}
	streamTables(tw, ix, shaky)
	compressTables(tw, ix)
	if err := tw.Flush(); err != nil {
		return err
	}
	notes(w, run.Results, shaky)
	return nil
}

// notes writes what the tables' marks mean and every problem, one line
// each.
func notes(w io.Writer, rs []results.Result, shaky map[string]bool) {
	var problems, implausible []string
	skipped, cut, twoSpeeds := 0, 0, 0
	for i := range rs {
		res := &rs[i]
		switch {
		case res.Status == results.Skipped && res.CutShort:
			cut++
			continue
		case res.Status == results.Skipped:
			skipped++
		}
		switch res.Status {
		case results.Failed, results.Error:
			problems = append(problems, fmt.Sprintf("%s %s: %s", strings.ToUpper(string(res.Status)), res.Key(), res.ShortReason()))
		case results.OK:
			if res.TwoSpeeds() {
				twoSpeeds++
			}
			if res.Implausible != "" {
				implausible = append(implausible, fmt.Sprintf("IMPLAUSIBLE %s: %s", res.Key(), res.Implausible))
			}
		}
	}
	switch {
	case len(shaky) > 0:
		fmt.Fprintf(w, "~ marks a median whose samples ran at two speeds (more than %.0f%% from their mean time per op, what testing.B reports) where that changes the ranking: by their mean, it would swap places with a neighbour.\n", 100*results.MeanGapMark)
	case twoSpeeds > 0:
		fmt.Fprintf(w, "%d results ran at two speeds (median more than %.0f%% from the mean); none of them would change rank by its mean.\n", twoSpeeds, 100*results.MeanGapMark)
	}
	if len(implausible) > 0 {
		fmt.Fprintf(w, "! marks a figure too fast to be the codec's work (%s); its row is ranked last and left out of every ranking:\n", results.ImplausibleRule)
	}
	for _, p := range slices.Concat(implausible, problems) {
		fmt.Fprintln(w, p)
	}
	if cut > 0 {
		fmt.Fprintf(w, "%d benchmarks not measured: the run's time (-time) ended first; -resume DIR measures them, or a longer -time.\n", cut)
	}
	if skipped > 0 {
		fmt.Fprintf(w, "%d benchmarks skipped: a codec that cannot represent the data, or an extra-large case (each reason is in results.csv).\n", skipped)
	}
}

// rank orders rows: measured rows by total time, then rows with an
// implausible figure, then failures.
func rank(r *row) float64 {
	t := r.total()
	switch {
	case t > 0 && r.implausible():
		return 1e299 + t
	case t > 0:
		return t
	}
	return 1e300
}

// rankCounted orders the rows of a run that counted and did not time:
// by instructions, then failures.
func rankCounted(r *row) float64 {
	if t := r.instructions(); t > 0 {
		return t
	}
	return 1e300
}

// instrCell is a result's instructions per op, "-" where not counted.
func instrCell(r *results.Result) string {
	if r == nil || r.Status != results.OK || r.InstrPerOp == 0 {
		return "-"
	}
	return results.FormatInstr(r.InstrPerOp)
}

func timeCell(r *results.Result) string {
	if r == nil {
		return "-"
	}
	if r.Status == results.OK && len(r.Samples) == 0 && r.InstrPerOp > 0 {
		return "-" // counted, not timed
	}
	if r.Status != results.OK {
		return strings.ToUpper(string(r.Status))
	}
	if r.Implausible != "" {
		return results.FormatNs(r.NsPerOp.Median) + "!"
	}
	return results.FormatNs(r.NsPerOp.Median)
}

func ciCell(r *results.Result, shaky map[string]bool) string {
	if r == nil || r.Status != results.OK || len(r.Samples) == 0 {
		return ""
	}
	if !r.NsPerOp.Interval().Known() {
		return "∞"
	}
	mark := ""
	if shaky[r.Key()] {
		mark = "~"
	}
	return fmt.Sprintf("%.0f%%%s", 100*r.NsPerOp.RelCI(), mark)
}

func bytesCell(r *row) string {
	for _, res := range []*results.Result{r.encode, r.decode} {
		if res != nil && res.Status == results.OK {
			return fmt.Sprint(res.Bytes)
		}
	}
	return "-"
}

func allocCell(r *results.Result) string {
	if r == nil || r.Status != results.OK {
		return "-"
	}
	return fmt.Sprintf("%.0f", r.Allocs)
}
