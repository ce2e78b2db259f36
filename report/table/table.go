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

// A row is one codec on one dataset shape: its encode and decode results.
type row struct {
	codec          string
	encode, decode *results.Result
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

// implausible reports whether either of the row's figures is implausible.
func (r *row) implausible() bool {
	return r.encode != nil && r.encode.Implausible != "" || r.decode != nil && r.decode.Implausible != ""
}

// Write renders run as text tables.
func Write(w io.Writer, run *results.Run) error {
	type group struct {
		dataset, shape string
		rows           []*row
		byCodec        map[string]*row
	}
	var groups []*group
	index := map[string]*group{}
	var problems []string
	skipped := 0
	shaky := results.ShakyRanks(run.Results)
	twoSpeeds := 0 // results that ran at two speeds
	var implausible []string
	for i := range run.Results {
		res := &run.Results[i]
		switch res.Status {
		case results.Skipped:
			skipped++
			continue
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
		k := res.Dataset + "/" + res.Shape
		g := index[k]
		if g == nil {
			g = &group{dataset: res.Dataset, shape: res.Shape, byCodec: map[string]*row{}}
			index[k] = g
			groups = append(groups, g)
		}
		r := g.byCodec[res.Codec]
		if r == nil {
			r = &row{codec: res.Codec}
			g.byCodec[res.Codec] = r
			g.rows = append(g.rows, r)
		}
		if res.Op == results.Encode {
			r.encode = res
		} else {
			r.decode = res
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, g := range groups {
		sort.SliceStable(g.rows, func(i, j int) bool { return rank(g.rows[i]) < rank(g.rows[j]) })
		fmt.Fprintf(tw, "dataset=%s shape=%s\n", g.dataset, g.shape)
		fmt.Fprintf(tw, "codec\tencode\t±\tdecode\t±\tbytes\tenc allocs\tdec allocs\t\n")
		for _, r := range g.rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.codec,
				timeCell(r.encode), ciCell(r.encode, shaky), timeCell(r.decode), ciCell(r.decode, shaky),
				bytesCell(r), allocCell(r.encode), allocCell(r.decode))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	switch {
	case len(shaky) > 0:
		fmt.Fprintf(w, "~ marks a median whose samples ran at two speeds (more than %.0f%% from their mean time per op, what testing.B reports) where that changes the ranking: by their mean, it would swap places with a neighbour.\n", 100*results.MeanGapMark)
	case twoSpeeds > 0:
		fmt.Fprintf(w, "%d results ran at two speeds (median more than %.0f%% from the mean); none of them would change rank by its mean.\n", twoSpeeds, 100*results.MeanGapMark)
	}
	if len(implausible) > 0 {
		fmt.Fprintln(w, "! marks a figure too fast to be the codec's work; its row is ranked last:")
	}
	for _, p := range slices.Concat(implausible, problems) {
		fmt.Fprintln(w, p)
	}
	if skipped > 0 {
		fmt.Fprintf(w, "%d benchmarks skipped: a codec that cannot represent the data, or an extra-large case (each reason is in results.csv).\n", skipped)
	}
	return nil
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

func timeCell(r *results.Result) string {
	if r == nil {
		return "-"
	}
	if r.Status != results.OK {
		return strings.ToUpper(string(r.Status))
	}
	if r.Implausible != "" {
		return Duration(r.NsPerOp.Median) + "!"
	}
	return Duration(r.NsPerOp.Median)
}

func ciCell(r *results.Result, shaky map[string]bool) string {
	if r == nil || r.Status != results.OK {
		return ""
	}
	if r.NsPerOp.Lo == 0 && r.NsPerOp.Hi == 0 {
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

// Duration formats ns with three significant digits: "3.05ns", "1.42µs".
func Duration(ns float64) string {
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
