package html

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/results"
)

//go:embed matrix.tmpl
var matrixTmpl string

// matrixView is a study's matrix as a section of the page: a row per
// codec with its verdict, a cell per case coloured by its outcome's tone
// and its words on hover, the legend, each codec's profile when the
// study sums rows up so, and the reproducers' hex dumps.
type matrixView struct {
	ID, Title, About, Question, Footer string
	Cases                              []results.MatrixCase
	Rows                               []matrixRow
	Legend                             []matrixCell
	ProfileTitle                       string
	Profiles                           []matrixProfile
	Repros                             []matrixRepro
	Rollup                             *results.Rollup
	// FacetWord and Facets offer the rows' facets to filter by, with
	// the rules that hide the other rows (FacetStyle), without a script.
	FacetWord  string
	Facets     []matrixFacet
	FacetStyle template.CSS
}

// A matrixFacet is one choice of the facet filter: its radio button's id
// and the facet's value.
type matrixFacet struct {
	ID, Value string
}

type matrixProfile struct {
	Codec, Text string
}

type matrixRow struct {
	Codec, Library, Verdict, Why, Facet string
	Cells                               []matrixCell
}

type matrixCell struct {
	Code, Tone, Title string
}

type matrixRepro struct {
	Title, Tone, Hex string
}

func matrixViews(ms []*results.Matrix) []*matrixView {
	var vs []*matrixView
	for _, m := range ms {
		vs = append(vs, newMatrixView(m))
	}
	return vs
}

func newMatrixView(m *results.Matrix) *matrixView {
	s := &m.Study
	v := &matrixView{ID: s.Name, Title: s.Title, About: s.About, Question: s.Question, Cases: m.Cases, Footer: matrix.Footer(m)}
	for _, k := range matrix.Legend(m) {
		v.Legend = append(v.Legend, matrixCell{Code: k.Code, Tone: string(k.Tone), Title: k.Label})
	}
	for _, c := range m.Codecs {
		verdict := m.Verdict(c.Name)
		row := matrixRow{Codec: c.Name, Library: strings.TrimSpace(c.Label + " " + c.Version), Verdict: verdict.Verdict, Why: verdict.Why, Facet: facetID(c.Facet)}
		for i, cell := range m.Row(c.Name) {
			if cell == nil {
				row.Cells = append(row.Cells, matrixCell{Tone: "none", Title: "not run"})
				continue
			}
			title := c.Name + " · " + m.Cases[i].Name + ": " + s.Text(cell)
			if cell.Tried != nil {
				title += "\ntried: " + s.Text(cell.Tried)
			}
			if r := cell.Repro; r != nil {
				title += fmt.Sprintf("\nreproducer: %d bytes", r.Size)
				if r.File != "" {
					title += ", " + r.File
				}
				if r.Hex != "" {
					v.Repros = append(v.Repros, matrixRepro{
						Title: fmt.Sprintf("%s %s: %s, %d bytes %s", c.Name, cell.Case, s.What(cell), r.Size, r.File),
						Tone:  string(s.Kind(cell.Outcome).Tone), Hex: r.Hex})
				}
			}
			row.Cells = append(row.Cells, matrixCell{Code: s.Code(cell), Tone: string(s.Kind(cell.Outcome).Tone), Title: title})
		}
		v.Rows = append(v.Rows, row)
		if p := m.Profile(c.Name); p != "" {
			v.Profiles = append(v.Profiles, matrixProfile{Codec: c.Name, Text: p})
		}
	}
	v.ProfileTitle = s.ProfileTitle
	v.Rollup = m.Rollup
	v.facets(m)
	return v
}

// facets sets the facet filter of the matrix's rows: a radio button per
// facet and one for all, and the CSS rules that hide the rows of the
// other facets while one is checked.
func (v *matrixView) facets(m *results.Matrix) {
	var values []string
	for _, c := range m.Codecs {
		if c.Facet != "" && !slices.Contains(values, c.Facet) {
			values = append(values, c.Facet)
		}
	}
	if len(values) < 2 {
		return
	}
	v.FacetWord = cmp.Or(m.Study.FacetWord, "facet")
	var css strings.Builder
	for _, f := range values {
		id := "facet-" + facetID(v.ID) + "-" + facetID(f)
		v.Facets = append(v.Facets, matrixFacet{ID: id, Value: f})
		fmt.Fprintf(&css, "#%s:checked ~ .fwrap tr[data-facet]:not([data-facet=\"%s\"]) { display: none; }\n", id, facetID(f))
	}
	v.FacetStyle = template.CSS(css.String())
}

// facetID makes s safe as a part of an id and in a CSS string: lowercase
// letters, digits and '-'.
func facetID(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, s)
}

var matricesPage = template.Must(template.Must(page.Clone()).New("matrices.html").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>serbench report: {{range $i, $m := .Matrices}}{{if $i}}, {{end}}{{$m.Title}}{{end}}</title>
<style>{{.Style}}</style>
</head>
<body>
<header>
<h1>serbench report</h1>
<p class="sub">Study matrices without a benchmark run.</p>
<nav>{{range .Matrices}}<a href="#{{.ID}}">{{.Title}}</a>
{{end}}</nav>
</header>
<main>
{{range .Matrices}}{{template "matrix" .}}{{end}}
</main>
</body>
</html>
`))

// WriteMatrices writes a page of the study matrices ms alone, for a
// directory that holds no benchmark run: their sections as report.html
// draws them, without charts or a script.
func WriteMatrices(w io.Writer, ms []*results.Matrix) error {
	return matricesPage.Execute(w, struct {
		Matrices []*matrixView
		Style    template.CSS
	}{matrixViews(ms), template.CSS(reportCSS)})
}
