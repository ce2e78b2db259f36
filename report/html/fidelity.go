package html

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/results"
)

//go:embed fidelity.tmpl
var fidelityTmpl string

// The section is a template of page's, which runs it when the view has a
// matrix.
var _ = template.Must(page.New("fidelity").Parse(fidelityTmpl))

// WriteWith writes run as Write does, with the fidelity matrix m (what
// serbench fidelity wrote beside the run) as a section of its own; m may
// be nil.
func WriteWith(w io.Writer, run *results.Run, m *fidelity.Matrix) error {
	if strings.Contains(strings.ToLower(echartsJS), "</script") {
		return fmt.Errorf("html: the embedded echarts.min.js contains </script and cannot be inlined")
	}
	v := newView(run)
	if m != nil {
		v.Fidelity = newFidelityView(m)
	}
	return page.Execute(w, v)
}

// fidelityView is the matrix as the page shows it: a row per codec, a
// coloured cell per probe, its outcome in words on hover.
type fidelityView struct {
	Probes   []fidelity.ProbeInfo
	Rows     []fidelityRow
	Outcomes []fidelityCell // the legend
}

type fidelityRow struct {
	Codec string
	Cells []fidelityCell
}

type fidelityCell struct {
	Class, Symbol, Title string
}

func newFidelityView(m *fidelity.Matrix) *fidelityView {
	v := &fidelityView{Probes: m.Probes}
	for _, o := range fidelity.Outcomes {
		v.Outcomes = append(v.Outcomes, fidelityCell{Class: "fo-" + string(o), Symbol: o.Symbol(), Title: o.Describe()})
	}
	for _, c := range m.Codecs {
		row := fidelityRow{Codec: c.Name}
		for i, cell := range m.Row(c.Name) {
			if cell == nil {
				row.Cells = append(row.Cells, fidelityCell{Class: "fo-none", Title: "not probed"})
				continue
			}
			title := c.Name + " · " + m.Probes[i].Name + ": " + cell.Text()
			if cell.Tried != nil {
				title += "\ntried: " + cell.Tried.Text()
			}
			row.Cells = append(row.Cells, fidelityCell{Class: "fo-" + string(cell.Outcome), Symbol: cell.Outcome.Symbol(), Title: title})
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}
