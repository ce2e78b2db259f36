package html_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/serbench/serbench/report/html"
	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/report/summary"
	"github.com/serbench/serbench/results"
	// The -update flag of the other renderers' golden tests, so that
	// go test ./report/... -update runs here too.
	_ "github.com/serbench/serbench/internal/golden"
)

// render writes the fixture's report and parses it.
func render(t *testing.T) ([]byte, *nethtml.Node) {
	t.Helper()
	var buf bytes.Buffer
	if err := html.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	doc, err := nethtml.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("report.html does not parse: %v", err)
	}
	return buf.Bytes(), doc
}

// text returns the text n holds, markup left out.
func text(n *nethtml.Node) string {
	if n.Type == nethtml.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(text(c))
	}
	return b.String()
}

func walk(n *nethtml.Node, f func(*nethtml.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *nethtml.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func TestWrite(t *testing.T) {
	page, doc := render(t)

	var charts, scripts, rows int
	kinds := map[string]int{}
	var inlineJS strings.Builder
	walk(doc, func(n *nethtml.Node) {
		if n.Type != nethtml.ElementNode {
			return
		}
		for _, a := range n.Attr {
			v := strings.ToLower(strings.TrimSpace(a.Val))
			if (a.Key == "src" || a.Key == "href" || a.Key == "action" || a.Key == "srcset") &&
				(strings.HasPrefix(v, "http:") || strings.HasPrefix(v, "https:") || strings.HasPrefix(v, "//")) {
				t.Errorf("<%s %s=%q> points at the network", n.Data, a.Key, a.Val)
			}
		}
		switch n.Data {
		case "script":
			scripts++
			if src, ok := attr(n, "src"); ok {
				t.Errorf("<script src=%q>: scripts must be inline", src)
			}
			if n.FirstChild != nil {
				inlineJS.WriteString(n.FirstChild.Data)
			}
		case "link":
			t.Errorf("<link> element found: styles and icons must be inline")
		case "div":
			if kind, ok := attr(n, "data-chart"); ok {
				charts++
				kinds[kind]++
			}
		case "tr":
			if c, _ := attr(n, "class"); strings.HasPrefix(c, "st-") {
				rows++
			}
		}
	})
	run := fixture.Run()
	if rows != len(run.Results) {
		t.Errorf("results table has %d rows, want one per result: %d", rows, len(run.Results))
	}
	// The fixture measures 9 dataset/shape categories; each gets four charts.
	const categories = 9
	for _, k := range []string{"encode", "decode", "bytes", "allocs"} {
		if kinds[k] != categories {
			t.Errorf("%d %s charts, want %d", kinds[k], k, categories)
		}
	}
	if scripts != 2 {
		t.Errorf("%d scripts, want 2 (ECharts and the report's own)", scripts)
	}
	js := inlineJS.String()
	for _, want := range []string{"echarts.init", "SERBENCH_CHARTS", `"id":"cat-0"`, "errorBar", "setupTable"} {
		if !strings.Contains(js, want) {
			t.Errorf("inline scripts lack %q", want)
		}
	}
	if !strings.Contains(js, "Apache Software Foundation") {
		t.Error("the ECharts library with its licence header is not inlined")
	}
	for _, want := range []string{
		"go1.26.8", "GOMAXPROCS", "v0.1.0-fixture", "2000-01-02T03:04:05Z", "vmihailenco/msgpack", "v5.4.1",
		"time-zone, time-precision(1µs)", "one Encoder/Decoder pair reused", "one item decoded where five were encoded",
		"CPU frequency scaling is on", "for 37.5% of 4120 probes, 1.68× slower then", ">two speeds<", "150% from the samples", "Content-Security-Policy", "default-src 'none'",
		"GC before each sample of an operation that does not allocate fast", "pays for whole cycles",
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Text from the run is escaped, never markup.
	if bytes.Contains(page, []byte("<fixture>")) || bytes.Contains(page, []byte("<governor>")) {
		t.Error("run text with < > reached the page unescaped")
	}
	if !bytes.Contains(page, []byte("AMD EPYC &lt;fixture&gt; &amp; Co")) {
		t.Error("CPU name not escaped as expected")
	}
}

// TestTable checks the results table's layout: the legend of its marks
// above it, each measured time with its ± in its cell, and the codec
// columns (repeated in the codecs table) hidden until asked for.
func TestTable(t *testing.T) {
	page, doc := render(t)
	legend := bytes.Index(page, []byte(`id="legend"`))
	table := bytes.Index(page, []byte(`id="results-table"`))
	if legend < 0 || table < 0 || legend > table {
		t.Errorf("the legend (at byte %d) is not above the results table (at byte %d)", legend, table)
	}
	var legendText strings.Builder
	var heads, details []string
	times, withCI := 0, 0
	var tableClass string
	walk(doc, func(n *nethtml.Node) {
		if n.Type != nethtml.ElementNode {
			return
		}
		class, _ := attr(n, "class")
		switch id, _ := attr(n, "id"); {
		case id == "legend":
			legendText.WriteString(text(n))
		case id == "results-table":
			tableClass = class
			walk(n, func(c *nethtml.Node) {
				if c.Type != nethtml.ElementNode {
					return
				}
				cl, _ := attr(c, "class")
				switch {
				case c.Data == "th":
					heads = append(heads, text(c))
					if cl == "detail" {
						details = append(details, text(c))
					}
				case c.Data == "td" && cl == "time":
					times++
					if regexp.MustCompile(`^\S+ ±([0-9.]+%|\?)$`).MatchString(text(c)) {
						withCI++
					}
				}
			})
		}
	})
	for _, mark := range []string{"†", "wide CI", "two speeds", "implausible", "not like for like", "left out of every ranking"} {
		if !strings.Contains(legendText.String(), mark) {
			t.Errorf("the legend lacks %q: %q", mark, legendText.String())
		}
	}
	if times == 0 || withCI != times {
		t.Errorf("%d of %d time cells show the median with its ±", withCI, times)
	}
	if slices.Contains(heads, "CI") {
		t.Errorf("the table still has a CI column beside its times: %q", heads)
	}
	if !strings.Contains(tableClass, "brief") || !slices.Equal(details, []string{"variant", "API", "declared losses"}) {
		t.Errorf("table class %q, codec columns %q: want them hidden (brief) by default", tableClass, details)
	}
	if visible := len(heads) - len(details); visible > 12 {
		t.Errorf("%d columns visible by default, want at most 12: %q", visible, heads)
	}
}

// TestWriteEmpty renders a run with no results: the page still works.
func TestWriteEmpty(t *testing.T) {
	run := fixture.Run()
	run.Results = nil
	var buf bytes.Buffer
	if err := html.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte("const SERBENCH_CHARTS = [];")) {
		t.Error("empty run: chart data not written as an empty list")
	}
}

// writeFixture writes the report.html of run into dir.
func writeFixture(t *testing.T, dir string, run *results.Run) string {
	t.Helper()
	path := filepath.Join(dir, "report.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := html.Write(f, run); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAnswerSection checks that the page opens with the answer, the same
// four answers summary.md gives, then the overview, and that the
// implausible figure is named where the answers leave it out.
func TestAnswerSection(t *testing.T) {
	page, doc := render(t)
	var sections []string
	var answers []string
	walk(doc, func(n *nethtml.Node) {
		if n.Type != nethtml.ElementNode {
			return
		}
		if id, ok := attr(n, "id"); ok && n.Data == "section" {
			sections = append(sections, id)
		}
		if c, _ := attr(n, "class"); n.Data == "ul" && c == "answers" {
			for li := n.FirstChild; li != nil; li = li.NextSibling {
				if li.Type == nethtml.ElementNode {
					answers = append(answers, text(li))
				}
			}
		}
	})
	if len(sections) < 2 || sections[0] != "answer" || sections[1] != "overview" {
		t.Errorf("sections %q: want the answer first, then the overview", sections)
	}
	want, leftOut := summary.Answers(fixture.Run())
	if len(answers) != 4 || len(want) != 4 {
		t.Fatalf("%d answers on the page, %d from summary.Answers; want 4 of each", len(answers), len(want))
	}
	for i, a := range want {
		w := a.Question + ": " + a.Winner
		if a.Dagger {
			w += "†"
		}
		if !strings.HasPrefix(answers[i], w) || !strings.Contains(answers[i], a.Detail) {
			t.Errorf("answer %d = %q, want %q with %q", i, answers[i], w, a.Detail)
		}
	}
	for _, l := range leftOut {
		if !bytes.Contains(page, []byte(l)) {
			t.Errorf("page lacks %q", l)
		}
	}
	for _, want := range []string{`id="heat-encode"`, `id="heat-decode"`, `id="scatter"`, "const SERBENCH_OVERVIEW = {", `Pareto front (all dataset shapes): <b>`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestProductionSection checks the production section of a run -cpu 1,2
// -cold run: a row per benchmark at GOMAXPROCS 2 with its speed-up and
// efficiency ranges, the memory rows, the first calls, and the charts of
// each GOMAXPROCS apart.
func TestProductionSection(t *testing.T) {
	var buf bytes.Buffer
	if err := html.Write(&buf, fixture.Production()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{`<section id="production">`, "Throughput on more cores", "Memory kept and garbage made", "First call in a fresh process",
		"<td>gob-stream</td><td>encode</td><td>2</td>", "1.05× [0.99–1.11]", "game / single at GOMAXPROCS 2", "an almost empty heap", "each benchmark timed at 1, 2 (-cpu)", "a loop of pure arithmetic timed the same way as the run started: 1.97× at 2", "<dt>Cores</dt><dd>0,1 "} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The tables of production conditions, long on a full run, come after
	// the charts, before the table of all results.
	if c, p, r := strings.Index(page, `<section id="charts">`), strings.Index(page, `<section id="production">`), strings.Index(page, `<section id="results">`); !(c < p && p < r) {
		t.Errorf("sections at charts %d, production %d, results %d: want the production conditions between the charts and all results", c, p, r)
	}
	buf.Reset()
	if err := html.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "Throughput on more cores") {
		t.Error("a run without -cpu has a throughput table")
	}
}
