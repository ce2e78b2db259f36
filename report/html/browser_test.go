package html_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/results"
)

// chromium returns the browser to drive: $SERBENCH_CHROMIUM, else Debian's
// /usr/bin/chromium, else one on $PATH.
func chromium() string {
	if p := os.Getenv("SERBENCH_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// screenshotDir is where TestBrowser saves its screenshots:
// $SERBENCH_SCREENSHOTS, else testdata/out (ignored by git).
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("SERBENCH_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("testdata", "out")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// wideRun is the fixture with text as long as a real run's: codec notes,
// variants and losses, a reason with a long unbroken word, and a result
// that carries every mark at once, so that the table's width is tried.
func wideRun() *results.Run {
	run := fixture.Run()
	for i := range run.Codecs {
		c := &run.Codecs[i]
		switch c.Name {
		case "json":
			c.Variant = "MarshalWithOption(UnorderedMap, OptimizeFieldOrder, DisableHTMLEscape, DisableNormalizeUTF8); UnmarshalWithOption(DecodeFieldPriorityFirstWin, DecodeNoCopyString)"
			c.Notes = "Output differs from encoding/json's: map keys unsorted, struct fields reordered, HTML left unescaped and invalid UTF-8 passed through; decoded strings point into the input, so the input must outlive them."
		case "yaml":
			c.Losses = []string{"time-precision(1µs)", "time-zone", "nil-empty", "nil-pointer-zero", "binary-as-text"}
		}
	}
	for i := range run.Results {
		r := &run.Results[i]
		if r.Status != results.OK && r.Status != results.Skipped {
			r.Reason = "round trip: value differs at [3].Medium.Inner.Name: want \"x\", got \"y\"; map[string]*dataset.Huge{\"k\":(*dataset.Huge)(0xc000123456)}.Bigs[17].Medium.Inner.Name lost\n" + r.Reason
		}
		if r.Codec == "json" && r.Dataset == "huge" && r.Op == results.Decode {
			r.TargetMet = false
			r.PooledNsPerOp = r.NsPerOp.Median / 1.2
			r.Implausible = "faster than copying its encoding (as planted for the test)"
		}
	}
	// The study matrices as wide as real ones: 63 probes of the fidelity
	// study, 40 columns of changes of the evolution study.
	run.Matrices = []*results.Matrix{widen(fixture.Fidelity(), 9), widen(fixture.Evolution(), 5)}

	// Every codec is judged on one need: the text formats meet it.
	run.Needs = &results.Needs{Judged: []results.NeedInfo{{Name: "human-readable", Says: "writes text a person can read"}}}
	for _, c := range run.Codecs {
		j := results.Judgement{Need: "human-readable", Status: results.NeedFailed, Why: "its encoding is binary"}
		if c.Family == "json" || c.Family == "xml" || c.Family == "yaml" || c.Family == "text" {
			j = results.Judgement{Need: "human-readable", Status: results.NeedMet}
		}
		run.Needs.Codecs = append(run.Needs.Codecs, results.NeedCodec{Codec: c.Name, Judgements: []results.Judgement{j}})
	}
	return run
}

// widen returns m with k cases for each of its cases (each copy's cells
// the original's), as many columns as a real study has.
func widen(m *results.Matrix, k int) *results.Matrix {
	cases, cells := m.Cases, m.Cells
	for i := 1; i < k; i++ {
		for _, c := range cases {
			c.Name = fmt.Sprintf("%s-%d", c.Name, i)
			m.Cases = append(m.Cases, c)
		}
		for _, c := range cells {
			c.Case = fmt.Sprintf("%s-%d", c.Case, i)
			m.Cells = append(m.Cells, c)
		}
	}
	return m
}

// TestBrowser opens the fixture's report.html in headless Chromium with
// the network blocked, and checks that every chart is drawn, that the
// table sorts and filters, that the page requests nothing but its own
// file, and that nothing is written to the console. It saves screenshots.
func TestBrowser(t *testing.T) {
	chrome := chromium()
	if chrome == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed; CI must run scripts/ensure-chromium first")
		}
		t.Skip("chromium not installed (run scripts/ensure-chromium, or set SERBENCH_CHROMIUM); skipping the browser test")
	}
	dir := t.TempDir()
	page := writeFixture(t, dir, wideRun())

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.WindowSize(1400, 1000),
	)
	// A guard against a browser that hangs, not a measure of speed: on a
	// loaded machine Chromium's start and the page's checks take minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()

	// The listener sees every event of the tab, in order, from its start.
	var mu sync.Mutex
	var problems, requests []string
	listen := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			problems = append(problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			problems = append(problems, fmt.Sprintf("exception at %d:%d: %s", d.LineNumber+1, d.ColumnNumber+1, msg))
		case *log.EventEntryAdded:
			problems = append(problems, fmt.Sprintf("log %s (%s): %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		}
	}
	tab, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(listen))
	defer cancelTab()
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("starting %s: %v", chrome, err)
	}
	// No request may reach the network: block every scheme that could.
	var block []*network.BlockPattern
	for _, scheme := range []string{"http", "https", "ws", "wss", "ftp"} {
		block = append(block, &network.BlockPattern{URLPattern: scheme + "://*:*/*", Block: true})
	}
	if _, err := chromedp.Call(tab, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: block}); err != nil {
		t.Fatalf("blocking the network: %v", err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatalf("opening %s: %v", page, err)
	}

	// Every chart container holds an SVG that ECharts drew into: bars for
	// all four kinds, error bars on the time charts.
	type chartInfo struct {
		ID      string `json:"id"`
		Kind    string `json:"kind"`
		SVGs    int    `json:"svgs"`
		Paths   int    `json:"paths"`
		Texts   int    `json:"texts"`
		Visible bool   `json:"visible"`
	}
	raw, err := chromedp.Run(tab, chromedp.Evaluate[[]byte](`Array.from(document.querySelectorAll("[data-chart]")).map(el => ({
		id: el.id, kind: el.dataset.chart,
		svgs: el.querySelectorAll("svg").length,
		paths: el.querySelectorAll("svg path").length,
		texts: el.querySelectorAll("svg text").length,
		visible: el.getBoundingClientRect().height > 100,
	}))`))
	if err != nil {
		t.Fatal(err)
	}
	var charts []chartInfo
	if err := json.Unmarshal(raw, &charts); err != nil {
		t.Fatal(err)
	}
	if len(charts) != 36 {
		t.Errorf("%d chart containers, want 36 (9 categories × 4)", len(charts))
	}
	for _, c := range charts {
		if c.SVGs == 0 || c.Paths < 2 || c.Texts < 2 || !c.Visible {
			t.Errorf("chart %s not drawn: %d svg, %d paths, %d texts, visible %v", c.ID, c.SVGs, c.Paths, c.Texts, c.Visible)
		}
	}
	drawn, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.charts || ""`))
	if err != nil || drawn != "36" {
		t.Errorf("the page reports %q charts drawn (err %v), want 36", drawn, err)
	}

	// The page opens with the answer and the overview: both heatmaps and
	// the scatter drawn, implausible cells and points marked "!", the
	// Pareto front drawn and named, for each set the scatter can show.
	type overviewInfo struct {
		Drawn      string   `json:"drawn"`
		Answers    int      `json:"answers"`
		First      string   `json:"first"`
		HeatEncode []string `json:"heatEncode"`
		HeatDecode []string `json:"heatDecode"`
		Scatter    []string `json:"scatter"`
		Front      string   `json:"front"`
		Last       string   `json:"last"`
	}
	readOverview := func() overviewInfo {
		t.Helper()
		raw, err := chromedp.Run(tab, chromedp.Evaluate[[]byte](`(() => {
			const texts = id => Array.from(document.querySelectorAll("#" + id + " svg text")).map(t => t.textContent);
			const int64 = SERBENCH_CHARTS.find(c => c.title === "int64 / single");
			const order = ranked(int64.codecs.filter(c => c.decode), c => c.decode.median).map(c => c.name);
			return {
				drawn: document.body.dataset.overview || "",
				answers: document.querySelectorAll("#answer ul.answers li").length,
				first: document.querySelector("main section").id,
				heatEncode: texts("heat-encode"), heatDecode: texts("heat-decode"), scatter: texts("scatter"),
				front: document.getElementById("front").textContent,
				last: order[order.length - 1],
			};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		var o overviewInfo
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	o := readOverview()
	if o.First != "answer" || o.Answers != 4 || o.Drawn != "3" {
		t.Errorf("the page opens with section %q holding %d answers, %q overview charts drawn; want the answer, 4, 3", o.First, o.Answers, o.Drawn)
	}
	has := func(texts []string, pred func(string) bool) bool { return slices.ContainsFunc(texts, pred) }
	if !has(o.HeatEncode, func(s string) bool { return s == "1.00×" }) || !has(o.HeatEncode, func(s string) bool { return s == "strconv †" }) {
		t.Errorf("the encode heatmap lacks a 1.00× cell or the † on strconv: %q", o.HeatEncode)
	}
	if !has(o.HeatDecode, func(s string) bool { return strings.HasPrefix(s, "! ") }) {
		t.Errorf("the decode heatmap does not mark the implausible cells with !: %q", o.HeatDecode)
	}
	if !has(o.Scatter, func(s string) bool { return s == "Pareto front" }) || !has(o.Scatter, func(s string) bool { return strings.HasPrefix(s, "strconv † !") }) {
		t.Errorf("the scatter lacks its Pareto front or the marked strconv point: %q", o.Scatter)
	}
	if o.Last != "strconv" {
		t.Errorf("int64/single's decode chart puts %s last, want strconv, whose figure is implausible", o.Last)
	}
	if !strings.HasPrefix(o.Front, "Pareto front (all dataset shapes): ") {
		t.Errorf("front reads %q", o.Front)
	}
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		const pick = document.getElementById("scatter-set");
		pick.value = Array.from(pick.options).find(o => o.textContent === "int64/single").value;
		pick.dispatchEvent(new Event("change"));
	})()`)); err != nil {
		t.Fatal(err)
	}
	if o := readOverview(); !strings.HasPrefix(o.Front, "Pareto front (int64/single): ") || !has(o.Scatter, func(s string) bool { return strings.HasPrefix(s, "byteorder") }) {
		t.Errorf("after picking int64/single the front reads %q and the scatter %q", o.Front, o.Scatter)
	}
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		const pick = document.getElementById("scatter-set");
		pick.value = "0";
		pick.dispatchEvent(new Event("change"));
	})()`)); err != nil {
		t.Fatal(err)
	}

	// Ticking a need greys the codecs that fail it, with the reason, and
	// the Pareto front is that of the codecs left.
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		const box = document.querySelector("#needs input[value='human-readable']");
		box.checked = true;
		box.dispatchEvent(new Event("change"));
	})()`)); err != nil {
		t.Fatal(err)
	}
	needsOut, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.needsOut + "|" + document.getElementById("needs-out").textContent`))
	if err != nil || !strings.HasPrefix(needsOut, "5|Left out by your needs (grey above): gob (human-readable: its encoding is binary)") {
		t.Errorf("after ticking human-readable the page reads %q (err %v); want 5 codecs left out, gob first with why", needsOut, err)
	}
	if o := readOverview(); !strings.Contains(o.Front, "of the codecs your needs leave") || strings.Contains(o.Front, "msgpack") || strings.Contains(o.Front, "byteorder") {
		t.Errorf("after ticking human-readable the front reads %q; want one of the text codecs alone", o.Front)
	}
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`(() => {
		const box = document.querySelector("#needs input[value='human-readable']");
		box.checked = false;
		box.dispatchEvent(new Event("change"));
	})()`)); err != nil {
		t.Fatal(err)
	}

	// The table filters and sorts.
	if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.ID("filter"), "yaml tiny")); err != nil {
		t.Fatal(err)
	}
	count, err := chromedp.Run(tab, chromedp.Text(chromedp.ID("count")))
	if err != nil || count != "4 of 104 results" {
		t.Errorf("after filtering on \"yaml tiny\" the count reads %q (err %v), want \"4 of 104 results\"", count, err)
	}
	// The variant filter keeps the results of the codecs with a mark: B,
	// the encode buffer reused (gob-stream, byteorder, strconv).
	marked, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
		const f = document.getElementById("filter");
		f.value = "";
		f.dispatchEvent(new Event("input"));
		const m = document.getElementById("marks");
		m.value = "+B";
		m.dispatchEvent(new Event("change"));
		const codecs = new Set(Array.from(document.querySelectorAll("#results-table tbody tr")).filter(r => !r.hidden).map(r => r.cells[1].textContent.split(" ")[0]));
		m.value = "";
		m.dispatchEvent(new Event("change"));
		return Array.from(codecs).sort().join(" ");
	})()`))
	if err != nil || marked != "byteorder gob-stream strconv" {
		t.Errorf("filtered on mark B, the table shows the codecs %q (err %v), want byteorder gob-stream strconv", marked, err)
	}
	// The charts' variant filter draws them again with the codecs it
	// keeps: no codec of the fixture has mark Z, so every chart is empty,
	// and all are back without the filter.
	charted, err2 := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
		const m = document.getElementById("chart-marks");
		const count = () => Array.from(document.querySelectorAll("[data-chart]")).filter(el => !el.classList.contains("empty")).length;
		const before = count();
		m.value = "+Z";
		m.dispatchEvent(new Event("change"));
		const none = count();
		m.value = "";
		m.dispatchEvent(new Event("change"));
		return before + " " + none + " " + count();
	})()`))
	if f := strings.Fields(charted); err2 != nil || len(f) != 3 || f[0] == "0" || f[1] != "0" || f[2] != f[0] {
		t.Errorf("charts drawn before, with the filter on mark Z, and after: %q (err %v), want N 0 N", charted, err2)
	}
	if err := chromedp.Do(tab,
		chromedp.Evaluate[chromedp.Void](`(() => {
			const f = document.getElementById("filter");
			f.value = "";
			f.dispatchEvent(new Event("input"));
		})()`),
		chromedp.Click(chromedp.CSS("#results-table th:nth-child(6)")),
	); err != nil {
		t.Fatal(err)
	}
	first, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
		const r = document.querySelector("#results-table tbody tr");
		return r.cells[1].textContent.trim() + " " + r.cells[2].textContent + " " + r.cells[5].textContent;
	})()`))
	if err != nil || first != "strconv [B] † int64 1.60ns ±4.4%" {
		t.Errorf("after sorting by time the first row is %q (err %v), want the fastest with its ±, strconv [B] † int64 1.60ns ±4.4%%", first, err)
	}

	// In a 1,400-pixel window the table fits without scrolling sideways,
	// under the legend of its marks; the codec columns show when asked.
	type layout struct {
		PageWidth, WindowWidth, TableRight, LegendBottom, TableTop float64
		Columns                                                    int
	}
	measure := func() layout {
		t.Helper()
		raw, err := chromedp.Run(tab, chromedp.Evaluate[[]byte](`(() => {
			const t = document.getElementById("results-table").getBoundingClientRect();
			const l = document.getElementById("legend");
			return {
				PageWidth: document.documentElement.scrollWidth, WindowWidth: document.documentElement.clientWidth,
				TableRight: t.right, TableTop: t.top, LegendBottom: l ? l.getBoundingClientRect().bottom : 1e9,
				Columns: Array.from(document.querySelectorAll("#results-table th")).filter(th => th.offsetWidth > 0).length,
			};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		var l layout
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := measure()
	if l.PageWidth > l.WindowWidth || l.TableRight > l.WindowWidth {
		t.Errorf("the page is %.0f px wide, its table ends at %.0f px: wider than the %.0f px window", l.PageWidth, l.TableRight, l.WindowWidth)
	}
	if l.LegendBottom > l.TableTop {
		t.Errorf("the legend ends at %.0f px, below the table's top at %.0f px: want it above", l.LegendBottom, l.TableTop)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("details"))); err != nil {
		t.Fatal(err)
	}
	if wide := measure(); wide.Columns != l.Columns+3 {
		t.Errorf("%d columns with the codec columns asked for, want %d", wide.Columns, l.Columns+3)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("details"))); err != nil {
		t.Fatal(err)
	}

	// At 1,400 and at 800 pixels the page never scrolls sideways: a
	// table wider than the window (the results, a study's matrix) scrolls
	// in a box of its own, which ends within the window.
	for _, width := range []int64{1400, 800} {
		if err := chromedp.Do(tab, chromedp.EmulateViewport(width, 1000)); err != nil {
			t.Fatal(err)
		}
		// The charts resize on the window's resize event, which the new
		// viewport fires on a later frame: fire it now, so that they have
		// their new width before the page is measured.
		raw, err := chromedp.Run(tab, chromedp.Evaluate[string](`(() => {
			window.dispatchEvent(new Event("resize"));
			const w = document.documentElement.clientWidth;
			const over = Array.from(document.querySelectorAll("main > section, .fwrap, p, ul, dl, nav, .filters, main > section > table"))
				.filter(el => el.getBoundingClientRect().right > w + 0.5)
				.map(el => (el.id || el.className || el.tagName) + " to " + Math.round(el.getBoundingClientRect().right));
			return document.documentElement.scrollWidth + " " + w + (over.length ? " " + over.join(", ") : "");
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if f := strings.Fields(raw); len(f) != 2 || f[0] != f[1] {
			t.Errorf("at %d px: page width, window width and what goes past it: %s", width, raw)
		}
	}
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1400, 1000)); err != nil {
		t.Fatal(err)
	}
	// At 1,400 pixels a study's matrix of 63 cases fits: no scrolling
	// sideways within its box either.
	wide, err := chromedp.Run(tab, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("section.matrix .fwrap"))
		.filter(el => el.scrollWidth > el.clientWidth + 0.5).map(el => el.parentElement.id + " " + el.scrollWidth + " in " + el.clientWidth).join(", ")`))
	if err != nil || wide != "" {
		t.Errorf("at 1400 px, matrices wider than their box: %q (err %v)", wide, err)
	}

	// Screenshots: the top of the page, one category's charts close up,
	// the table, and the whole page.
	out := screenshotDir(t)
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "report-top.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	shot, err = chromedp.Run(tab, chromedp.Screenshot(chromedp.ID("overview")))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "report-overview.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	shot, err = chromedp.Run(tab, chromedp.Screenshot(chromedp.ID("cat-6")))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "report-huge.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](`document.getElementById("results").scrollIntoView()`)); err != nil {
		t.Fatal(err)
	}
	shot, err = chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "report-table.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	shot, err = chromedp.Run(tab, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "report-full.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", out)

	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") && u != "about:blank" {
			t.Errorf("the page requested %s: it must load nothing but its own file", u)
		}
	}
	for _, p := range problems {
		t.Errorf("browser console: %s", p)
	}
}
