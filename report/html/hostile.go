package html

import (
	_ "embed"
	"fmt"

	"github.com/serbench/serbench/results"
)

//go:embed hostile.tmpl
var hostileTmpl string

// hostileView is the hostile-input section: the matrix coloured by
// outcome, each codec's verdict, and the reproducers with their hex dumps.
type hostileView struct {
	M      *results.Hostile
	Rows   []hostileRow
	Repros []results.HostileCell
}

type hostileRow struct {
	Codec, Label, Version, Verdict, Why string
	Cells                               []hostileCellView
}

type hostileCellView struct {
	Code, Outcome, Title string
}

// newHostileView returns the section's view, nil when the run has no
// hostile matrix.
func newHostileView(h *results.Hostile) *hostileView {
	if h == nil {
		return nil
	}
	v := &hostileView{M: h}
	for _, co := range h.Codecs {
		row := hostileRow{Codec: co.Name, Label: co.Label, Version: co.Version}
		row.Verdict, row.Why = h.Verdict(co.Name)
		for _, cl := range h.Classes {
			c := h.Cell(co.Name, cl.Name)
			if c == nil {
				row.Cells = append(row.Cells, hostileCellView{Code: "-", Outcome: "na", Title: "not run"})
				continue
			}
			title := fmt.Sprintf("%s %s: %s", co.Name, cl.Name, c.Outcome)
			if c.Crash != "" {
				title += " (" + c.Crash + ")"
			}
			if c.Detail != "" {
				title += "\n" + c.Detail
			}
			if c.Size > 0 {
				title += fmt.Sprintf("\nreproducer: %d bytes, %s", c.Size, c.File)
			}
			outcome := string(c.Outcome)
			if c.Outcome == results.OutcomeNA {
				outcome = "na"
			}
			row.Cells = append(row.Cells, hostileCellView{Code: c.Code(), Outcome: outcome, Title: title})
			if c.Hex != "" {
				v.Repros = append(v.Repros, *c)
			}
		}
		v.Rows = append(v.Rows, row)
	}
	return v
}
