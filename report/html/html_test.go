package html_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/serbench/serbench/report/html"
	"github.com/serbench/serbench/report/internal/fixture"
	// The -update flag of the other renderers' golden tests, so that
	// go test ./report/... -update runs here too.
	_ "github.com/serbench/serbench/report/internal/golden"
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
		"go1.26.8", "GOMAXPROCS", "v0.1.0-fixture", "2026-01-02T03:04:05Z", "vmihailenco/msgpack", "v5.4.1",
		"time-zone, time-precision(1µs)", "one Encoder/Decoder pair reused", "decoded 1 of 5 items",
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

// writeFixture writes the fixture's report.html into dir.
func writeFixture(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "report.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := html.Write(f, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
