package fidelity

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteText writes m as a matrix of one-character cells, a codec per row
// and a probe per column (numbered; the key follows), then the legend.
// verbose adds every cell that is not exact, in words, with its diff or
// message.
func WriteText(w io.Writer, m *Matrix, verbose bool) error {
	var b strings.Builder
	width := 0
	for _, c := range m.Codecs {
		width = max(width, utf8.RuneCountInString(c.Name))
	}
	pad := strings.Repeat(" ", width+2)
	// Probes are numbered from 1; a space separates groups.
	var tens, units strings.Builder
	for i, p := range m.Probes {
		if i > 0 && p.Group != m.Probes[i-1].Group {
			tens.WriteByte(' ')
			units.WriteByte(' ')
		}
		n := i + 1
		if n >= 10 {
			fmt.Fprintf(&tens, "%d", n/10%10)
		} else {
			tens.WriteByte(' ')
		}
		fmt.Fprintf(&units, "%d", n%10)
	}
	if len(m.Probes) >= 10 {
		b.WriteString(strings.TrimRight(pad+tens.String(), " ") + "\n")
	}
	b.WriteString(pad + units.String() + "\n")
	for _, c := range m.Codecs {
		b.WriteString(c.Name + strings.Repeat(" ", width+2-utf8.RuneCountInString(c.Name)))
		for i, cell := range m.Row(c.Name) {
			if i > 0 && m.Probes[i].Group != m.Probes[i-1].Group {
				b.WriteByte(' ')
			}
			if cell == nil {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(cell.Outcome.Symbol())
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	var legend []string
	for _, o := range Outcomes {
		legend = append(legend, o.Symbol()+" "+o.Describe())
	}
	b.WriteString(strings.Join(legend, "  ") + "\n\n")
	for i, p := range m.Probes {
		fmt.Fprintf(&b, "%3d %-20s %s\n", i+1, p.Name, p.Doc)
	}
	if verbose {
		for _, c := range m.Codecs {
			var lines []string
			for i, cell := range m.Row(c.Name) {
				if cell == nil || cell.Outcome == Exact {
					continue
				}
				text := strings.ReplaceAll(strings.TrimRight(cell.Text(), "\n"), "\n", "\n      ")
				lines = append(lines, fmt.Sprintf("  %s: %s", m.Probes[i].Name, text))
			}
			if len(lines) > 0 {
				b.WriteString("\n" + c.Name + "\n" + strings.Join(lines, "\n") + "\n")
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes m as fidelity.csv: a header, then one line per cell;
// tried is what running a probe the codec declares unsupported gives.
func WriteCSV(w io.Writer, m *Matrix) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"codec", "probe", "group", "outcome", "normalisation", "detail", "tried"})
	for _, c := range m.Codecs {
		for i, cell := range m.Row(c.Name) {
			if cell == nil {
				continue
			}
			tried := ""
			if cell.Tried != nil {
				tried = cell.Tried.Text()
			}
			cw.Write([]string{c.Name, cell.Probe, m.Probes[i].Group, string(cell.Outcome), cell.Norm, cell.Detail, tried})
		}
	}
	cw.Flush()
	return cw.Error()
}
