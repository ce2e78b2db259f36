// Package html writes report.html: one self-contained page that works
// offline. It holds per dataset and shape the charts of time per op with
// its confidence interval as error bars, of encoded size and of
// allocations; a sortable, filterable table of every result with its
// verification status and fairness flags; the environment; and the
// warnings.
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

	"github.com/serbench/serbench/report/table"
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
}).Parse(pageTmpl))

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
	ChartsVer  string
	// TwoSpeedsMark is the gap between median and mean beyond which a
	// result is marked "two speeds" (results.MeanGapMark).
	TwoSpeedsMark float64
	ECharts       template.JS
	Script        template.JS
	Style         template.CSS
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
	Name    string    `json:"name"`
	Flags   string    `json:"flags,omitempty"`
	Color   int       `json:"color"`
	Items   int       `json:"items"`
	Bytes   int       `json:"bytes"`
	Encode  *chartRes `json:"encode,omitempty"`
	Decode  *chartRes `json:"decode,omitempty"`
	Missing string    `json:"missing,omitempty"`
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
	TwoSpeeds                                    string // why the row is marked, or ""
	Implausible                                  string // why the figure cannot be believed, or ""
	NSamples                                     int
}

func newView(run *results.Run) *view {
	v := &view{
		Run: run, Env: run.Env, Options: run.Options,
		Elapsed:       time.Duration(run.Elapsed).Round(time.Millisecond).String(),
		Counts:        map[string]int{},
		Charts:        []chartData{}, // "[]" in the page, never null
		ChartsVer:     ChartsVersion,
		TwoSpeedsMark: results.MeanGapMark,
		ECharts:       template.JS(echartsJS),
		Script:        template.JS(reportJS),
		Style:         template.CSS(reportCSS),
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
	color := map[string]int{}
	for i, c := range run.Codecs {
		color[c.Name] = i
	}
	for _, r := range run.Results {
		used[r.Codec] = true
		if _, ok := color[r.Codec]; !ok {
			color[r.Codec] = len(color)
		}
	}
	for _, c := range run.Codecs {
		v.Codecs = append(v.Codecs, codecView{Codec: c, Flags: flags(&c), Losses: strings.Join(c.Losses, ", "), Used: used[c.Name]})
	}

	type catKey struct{ dataset, shape string }
	shaky := results.ShakyRanks(run.Results)
	cats := map[catKey]*chartData{}
	catView := map[catKey]*categoryView{}
	var order []catKey
	for i := range run.Results {
		r := &run.Results[i]
		v.Counts[string(r.Status)]++
		row := rowView{Result: *r, NSamples: len(r.Samples)}
		if c := run.Codec(r.Codec); c != nil {
			row.Flags, row.Variant, row.API, row.Losses, row.Notes = flags(c), c.Variant, c.API, strings.Join(c.Losses, ", "), c.Notes
		}
		if r.Status == results.OK {
			row.Time = table.Duration(r.NsPerOp.Median)
			if ci := r.NsPerOp.RelCI(); math.IsInf(ci, 1) {
				row.CI = "±?"
			} else {
				row.CI = fmt.Sprintf("±%.1f%%", 100*ci)
			}
			row.Implausible = r.Implausible
			if shaky[r.Key()] {
				row.TwoSpeeds = fmt.Sprintf("the median is %+.0f%% from the samples' mean time per op (%s, what testing.B reports): they ran at two speeds, and the median is the one that held more of them",
					100*r.MeanGap(), table.Duration(r.PooledNsPerOp))
			}
		} else if r.Status != results.Skipped {
			v.Problems = append(v.Problems, row)
		}
		v.Rows = append(v.Rows, row)

		k := catKey{r.Dataset, r.Shape}
		cd := cats[k]
		if cd == nil {
			id := fmt.Sprintf("cat-%d", len(order))
			cd = &chartData{ID: id, Title: r.Dataset + " / " + r.Shape}
			cats[k] = cd
			catView[k] = &categoryView{ID: id, Dataset: r.Dataset, Shape: r.Shape}
			order = append(order, k)
		}
		var cc *chartCodec
		for j := range cd.Codecs {
			if cd.Codecs[j].Name == r.Codec {
				cc = &cd.Codecs[j]
			}
		}
		if cc == nil {
			cd.Codecs = append(cd.Codecs, chartCodec{Name: r.Codec, Color: color[r.Codec], Items: r.Items})
			cc = &cd.Codecs[len(cd.Codecs)-1]
			if c := run.Codec(r.Codec); c != nil {
				cc.Flags = flags(c)
			}
		}
		if r.Status != results.OK {
			if r.Status != results.Skipped {
				cc.Missing = string(r.Status)
			}
			continue
		}
		cc.Bytes = r.Bytes
		res := &chartRes{Median: r.NsPerOp.Median, Lo: r.NsPerOp.Lo, Hi: r.NsPerOp.Hi, Allocs: r.Allocs, BPerOp: r.BPerOp}
		if r.Op == results.Encode {
			cc.Encode = res
		} else {
			cc.Decode = res
		}
	}
	for _, k := range order {
		cd, cv := cats[k], catView[k]
		// Skipped codecs do not belong in a category's charts; failed
		// ones are named under them.
		var keep []chartCodec
		for _, c := range cd.Codecs {
			switch {
			case c.Encode != nil || c.Decode != nil:
				keep = append(keep, c)
			case c.Missing != "":
				cv.NotMeasured = append(cv.NotMeasured, c.Name+" ("+c.Missing+")")
			}
		}
		if len(keep) == 0 {
			continue
		}
		cd.Codecs = keep
		v.Charts = append(v.Charts, *cd)
		v.Categories = append(v.Categories, *cv)
	}
	return v
}

// flags describes what makes comparisons with codec c not like for like.
func flags(c *results.Codec) string {
	var f []string
	if c.Variant != "" {
		f = append(f, "variant")
	}
	if c.API != "" && c.API != "reflection" {
		f = append(f, c.API+" API")
	}
	if len(c.Losses) > 0 {
		f = append(f, "losses")
	}
	return strings.Join(f, ", ")
}
