// Package html writes report.html: one self-contained page that works
// offline. It opens with the answer (the four answers summary.md gives,
// from summary.Answers) and an overview: heatmaps of codecs × dataset
// shapes, each time relative to the best in its column, and a scatter of
// encoded size against round-trip time with its Pareto front. Then per
// dataset and shape the charts of time per op with its confidence
// interval as error bars, of encoded size and of allocations; a sortable,
// filterable table of every result with its verification status and
// fairness flags; the environment; and the warnings. A figure that
// results.MarkImplausible marks is drawn grey, marked "!" and last in
// every chart, and never ranks.
//
// The charts are drawn in the browser by Apache ECharts, whose prebuilt
// dist/echarts.min.js (fetched by scripts/fetch-echarts at a pinned
// version) is embedded in the binary and inlined into the page. The page
// makes no network request: a Content-Security-Policy forbids any, and all
// text from the run goes through html/template's escaping.
package html

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"time"

	"github.com/serbench/serbench/results"
)

var (
	//go:embed assets/echarts.min.js
	echartsJS string
	//go:embed assets/ECHARTS-VERSION
	echartsVersion string
	//go:embed page.tmpl
	pageTmpl string
	//go:embed report.js
	reportJS string
	//go:embed report.css
	reportCSS string
)

// ChartsVersion is the version of Apache ECharts inlined into the page.
var ChartsVersion = strings.TrimSpace(echartsVersion)

var page = template.Must(template.New("report.html").Funcs(template.FuncMap{
	"mul100": func(f float64) float64 { return 100 * f },
	"dur":    func(d results.Duration) string { return time.Duration(d).String() },
}).Parse(pageTmpl + matrixTmpl))

// Write writes run as a self-contained HTML page.
func Write(w io.Writer, run *results.Run) error {
	if strings.Contains(strings.ToLower(echartsJS), "</script") {
		return fmt.Errorf("html: the embedded echarts.min.js contains </script and cannot be inlined")
	}
	return page.Execute(w, newView(run))
}

// view is what the template renders.
type view struct {
	Run        *results.Run
	Env        results.Env
	Options    results.Options
	Elapsed    string
	Peak       string
	Machine    string
	Codecs     []codecView
	Categories []categoryView
	Rows       []rowView
	Counts     map[string]int
	Problems   []rowView
	Charts     []chartData
	// Answers are the run's four answers, as summary.md gives them, and
	// LeftOut what they leave out (crashed, errored, implausible).
	Answers  []answerView
	LeftOut  []string
	Overview overview
	// Production holds the figures of run -cpu, the memory figures and
	// run -cold's first calls.
	Production production
	ChartsVer  string
	// TwoSpeedsMark is the gap between median and mean beyond which a
	// result is marked "two speeds" (results.MeanGapMark).
	TwoSpeedsMark float64
	// ImplausibleRule is results.ImplausibleRule, for the legend.
	ImplausibleRule string
	// Matrices are the sections of the study matrices beside the run.
	Matrices []*matrixView
	// Ops are the ops of the run's results, in display order; Marks the
	// variant marks (results.Marks) the charts and the table filter by.
	Ops     []results.Op
	Marks   []results.Mark
	ECharts template.JS
	Script  template.JS
	Style   template.CSS
}

type codecView struct {
	results.Codec
	Flags  string
	Losses string
	Used   bool
}

type categoryView struct {
	ID, Dataset, Shape string
	NotMeasured        []string
}

// chartData is one category's figures for the charts, read by report.js.
type chartData struct {
	ID     string       `json:"id"`
	Title  string       `json:"title"`
	Codecs []chartCodec `json:"codecs"`
}

type chartCodec struct {
	Name  string `json:"name"`
	Flags string `json:"flags,omitempty"`
	// Marks are the codes of the codec's variant marks ("BG"), drawn
	// beside its name and filtered by.
	Marks string `json:"marks,omitempty"`
	// Implausible says why the codec's figures on this shape may not rank
	// (one of them is implausible): its bars are marked and drawn last.
	Implausible string    `json:"implausible,omitempty"`
	Color       int       `json:"color"`
	Items       int       `json:"items"`
	Bytes       int       `json:"bytes"`
	Encode      *chartRes `json:"encode,omitempty"`
	Decode      *chartRes `json:"decode,omitempty"`
	Missing     string    `json:"missing,omitempty"`
}

type chartRes struct {
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	Allocs float64 `json:"allocs"`
	BPerOp float64 `json:"bPerOp"`
}

// rowView is one result in the table.
type rowView struct {
	results.Result
	Time, CI, Flags, Variant, API, Losses, Notes string
	Marks, MarkNames                             string // the codec's variant marks: codes and names
	TwoSpeeds                                    string // why the row is marked, or ""
	Implausible                                  string // why the figure cannot be believed, or ""
	Instr                                        string // instructions per op counted under Valgrind, or ""
	NSamples                                     int
}

func newView(run *results.Run) *view {
	v := &view{
		Run: run, Env: run.Env, Options: run.Options,
		Elapsed:         time.Duration(run.Elapsed).Round(time.Millisecond).String(),
		Counts:          map[string]int{},
		Charts:          []chartData{}, // "[]" in the page, never null
		ChartsVer:       ChartsVersion,
		TwoSpeedsMark:   results.MeanGapMark,
		ImplausibleRule: results.ImplausibleRule,
		ECharts:         template.JS(echartsJS),
		Script:          template.JS(reportJS),
		Style:           template.CSS(reportCSS),
	}
	if run.Peak.HeapBytes > 0 {
		v.Peak = fmt.Sprintf("heap %.0f MiB", float64(run.Peak.HeapBytes)/(1<<20))
		if run.Peak.RSSBytes > 0 {
			v.Peak += fmt.Sprintf(", RSS %.0f MiB", float64(run.Peak.RSSBytes)/(1<<20))
		}
	}
	if m := run.Machine; m != nil && m.Probes > 0 {
		v.Machine = m.String()
	}
	used := map[string]bool{}
	for _, r := range run.Results {
		used[r.Codec] = true
	}
	for _, c := range run.Codecs {
		v.Codecs = append(v.Codecs, codecView{Codec: c, Flags: strings.Join(c.Flags(), ", "), Losses: strings.Join(c.Losses, ", "), Used: used[c.Name]})
	}
	shaky := results.ShakyRanks(run.Results)
	for i := range run.Results {
		r := &run.Results[i]
		v.Counts[string(r.Status)]++
		row := newRow(run, r, shaky[r.Key()])
		if r.Status != results.OK && r.Status != results.Skipped {
			v.Problems = append(v.Problems, row)
		}
		v.Rows = append(v.Rows, row)
	}
	v.charts(run)
	v.Answers, v.LeftOut = newAnswers(run)
	v.Overview = newOverview(run)
	v.Production = newProduction(run)
	v.Matrices = matrixViews(run.Matrices)
	v.Marks = results.Marks
	ops := map[results.Op]bool{}
	for _, r := range run.Results {
		ops[r.Op] = true
	}
	for _, op := range results.AllOps() {
		if ops[op] {
			v.Ops = append(v.Ops, op)
		}
	}
	return v
}

// newRow returns the table row of r; shaky says whether r's rank depends
// on its two speeds.
func newRow(run *results.Run, r *results.Result, shaky bool) rowView {
	row := rowView{Result: *r, NSamples: len(r.Samples)}
	if r.Status == results.OK && r.InstrPerOp > 0 {
		row.Instr = results.FormatInstr(r.InstrPerOp)
	}
	if c := run.Codec(r.Codec); c != nil {
		row.Flags, row.Variant, row.API, row.Losses, row.Notes = strings.Join(c.Flags(), ", "), c.Variant, c.API, strings.Join(c.Losses, ", "), c.Notes
		row.Marks, row.MarkNames = c.MarkCodes(), c.MarkNames()
	}
	if r.Status != results.OK {
		return row
	}
	row.Time = results.FormatNs(r.NsPerOp.Median)
	if ci := r.NsPerOp.RelCI(); math.IsInf(ci, 1) {
		row.CI = "±?"
	} else {
		row.CI = fmt.Sprintf("±%.1f%%", 100*ci)
	}
	row.Implausible = r.Implausible
	if shaky {
		row.TwoSpeeds = fmt.Sprintf("the median is %+.0f%% from the samples' mean time per op (%s, what testing.B reports): they ran at two speeds, and the median is the one that held more of them",
			100*r.MeanGap(), results.FormatNs(r.PooledNsPerOp))
	}
	return row
}

// charts adds a chart and a category for each dataset shape with a
// measured result. Skipped codecs do not belong in a category's charts;
// failed ones are named under them. A codec keeps its colour in every
// chart: its place in the run's codec list.
func (v *view) charts(run *results.Run) {
	color := map[string]int{}
	for i, c := range run.Codecs {
		color[c.Name] = i
	}
	ix := results.NewIndex(run.Results)
	for _, name := range ix.Codecs {
		if _, ok := color[name]; !ok {
			color[name] = len(color)
		}
	}
	for _, cat := range ix.Categories {
		id := fmt.Sprintf("cat-%d", len(v.Charts))
		shape := cat.Shape
		if cat.Procs > 0 {
			shape += fmt.Sprintf(" at GOMAXPROCS %d", cat.Procs)
		}
		cd := chartData{ID: id, Title: cat.Dataset + " / " + shape}
		cv := categoryView{ID: id, Dataset: cat.Dataset, Shape: shape}
		for _, cell := range ix.Cells(cat) {
			cc := chartCodec{Name: cell.Codec, Color: color[cell.Codec], Implausible: cell.Implausible()}
			if c := run.Codec(cell.Codec); c != nil {
				cc.Flags, cc.Marks = strings.Join(c.Flags(), ", "), c.MarkCodes()
			}
			for _, r := range []*results.Result{cell.Encode, cell.Decode} {
				if r == nil {
					continue
				}
				cc.Items = r.Items
				switch r.Status {
				case results.OK:
					cc.Bytes = r.Bytes
					res := &chartRes{Median: r.NsPerOp.Median, Lo: r.NsPerOp.Lo, Hi: r.NsPerOp.Hi, Allocs: r.Allocs, BPerOp: r.BPerOp}
					if r.Op == results.Encode {
						cc.Encode = res
					} else {
						cc.Decode = res
					}
				case results.Skipped:
				default:
					cc.Missing = string(r.Status)
				}
			}
			switch {
			case cc.Encode != nil || cc.Decode != nil:
				cd.Codecs = append(cd.Codecs, cc)
			case cc.Missing != "":
				cv.NotMeasured = append(cv.NotMeasured, cc.Name+" ("+cc.Missing+")")
			}
		}
		if len(cd.Codecs) == 0 {
			continue
		}
		v.Charts = append(v.Charts, cd)
		v.Categories = append(v.Categories, cv)
	}
}
