package html_test

import (
	"bytes"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/html"
	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/results"
)

// TestMatrixSections renders the fixture run with the two fixture
// matrices: each gets its section, a cell per codec and case coloured by
// its outcome's tone, its words on hover, the verdicts, the reproducers'
// hex dumps and a link in the page's navigation. A run without matrices
// has no section.
func TestMatrixSections(t *testing.T) {
	run := fixture.Run()
	var plain bytes.Buffer
	if err := html.Write(&plain, run); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `class="matrix"`) {
		t.Error("a run without matrices has a matrix section")
	}
	run.Matrices = []*results.Matrix{fixture.Hostile(), fixture.Fidelity()}
	var buf bytes.Buffer
	if err := html.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, tc := range []struct {
		id    string
		tones map[string]int
		want  []string
	}{
		{"hostile", map[string]int{"good": 2, "none": 1, "fair": 1, "bad": 2},
			[]string{"Safe to decode untrusted input?", ">no<", ">yes<", "dd ff ff ff ff 83", `title="msgpack · long-array: fatal error (out of memory): fatal error: runtime: out of memory\x00\xff`}},
		{"fidelity", map[string]int{"good": 4, "fair": 2, "bad": 3, "warn": 2, "none": 3},
			[]string{"tried: refused at encode: beta: unsupported type", `title="alpha · reuse: changed:   &amp;fidelity.Reused{`}},
	} {
		start := strings.Index(page, `<section id="`+tc.id+`" class="matrix">`)
		end := start + strings.Index(page[max(start, 0):], "</section>")
		if start < 0 || end < start {
			t.Fatalf("no %s section", tc.id)
		}
		section := page[start:end]
		doc, err := nethtml.Parse(strings.NewReader(section))
		if err != nil {
			t.Fatal(err)
		}
		tones := map[string]int{}
		walk(doc, func(n *nethtml.Node) {
			for _, a := range n.Attr {
				if n.Data == "td" && a.Key == "class" && strings.HasPrefix(a.Val, "mc tone-") {
					tones[strings.TrimPrefix(a.Val, "mc tone-")]++
				}
			}
		})
		for k, n := range tc.tones {
			if tones[k] != n {
				t.Errorf("%s: %d cells of tone %s, want %d (all: %v)", tc.id, tones[k], k, n, tones)
			}
		}
		for _, w := range append(tc.want, `href="#`+tc.id+`"`) {
			if !strings.Contains(page, w) {
				t.Errorf("%s: the page lacks %q", tc.id, w)
			}
		}
		golden.Check(t, tc.id+".html.golden", []byte(section))
	}
}

// TestWriteMatrices: a directory with matrices and no run gets a page of
// the matrices alone, with no script.
func TestWriteMatrices(t *testing.T) {
	var buf bytes.Buffer
	if err := html.WriteMatrices(&buf, []*results.Matrix{fixture.Hostile()}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<section id="hostile" class="matrix">`, `<a href="#hostile">Hostile input</a>`, "<style>"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(buf.String(), "<script") {
		t.Error("the page of matrices has a script")
	}
}

// TestRollupAndFacets renders a matrix with a rollup and facets: the
// rollup's table, a radio button per facet and one for all, each row
// marked with its facet, and the rules that hide the other facets' rows
// without a script.
func TestRollupAndFacets(t *testing.T) {
	m := fixture.Evolution()
	m.Study.FacetWord = "language"
	for i := range m.Codecs {
		m.Codecs[i].Facet = []string{"python", "Node JS"}[i%2]
	}
	m.Rollup = &results.Rollup{Title: "Portable to?", Columns: []string{"Python", "JavaScript (Node)"},
		Rows: []results.RollupRow{{Name: "msgpack", Cells: []string{"yes, with <careful>", "no: neg-zero"}}}}
	var buf bytes.Buffer
	if err := html.WriteMatrices(&buf, []*results.Matrix{m}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`<h3>Portable to?</h3>`, `<td>yes, with &lt;careful&gt;</td>`, `Show the rows of language:`,
		`<input type="radio" name="facet-evolution" id="facet-evolution-all" checked>`,
		`id="facet-evolution-node-js"><label for="facet-evolution-node-js">Node JS</label>`,
		`<tr data-facet="python">`, `<tr data-facet="node-js">`,
		`#facet-evolution-python:checked ~ .fwrap tr[data-facet]:not([data-facet="python"]) { display: none; }`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script") {
		t.Error("the facet filter uses a script")
	}
	start := strings.Index(page, `<section id="evolution"`)
	golden.Check(t, "rollup.html.golden", []byte(page[start:strings.Index(page, "</section>")]))
}
