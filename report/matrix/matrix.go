// Package matrix renders any study's matrix (results.Matrix: codecs by
// cases, a verdict per codec): a text matrix for the terminal (Write),
// the verdicts alone (WriteVerdicts), CSV (WriteCSV) and a Markdown
// section for summary.md (WriteMarkdown). report.html draws the same
// matrix (package html); its JSON is results.Matrix.WriteJSON.
//
// A renderer reads the matrix and its Study alone: it links no study and
// no codec, and draws a new study without a change.
package matrix

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/serbench/serbench/results"
)

// lineWidth is where the legend wraps.
const lineWidth = 100

// Write writes m as text: a row per codec and a column per case
// (numbered; the cases are named below), the legend, the verdicts, the
// versions tried, the reproducers of the worst cells, and how the study
// ran. verbose adds every cell that is not of the best outcome, in words.
func Write(w io.Writer, m *results.Matrix, verbose bool) error {
	var b strings.Builder
	grid(&b, m)
	b.WriteString("\n")
	legend(&b, m)
	b.WriteString("\n")
	nameW := 0
	for _, c := range m.Cases {
		nameW = max(nameW, utf8.RuneCountInString(c.Name))
	}
	for i, c := range m.Cases {
		fmt.Fprintf(&b, "%3d %s  %s\n", i+1, pad(c.Name, nameW), c.Doc)
	}
	b.WriteString("\n")
	verdicts(&b, m)
	rollup(&b, m)
	profiles(&b, m)
	versions(&b, m)
	repros(&b, m)
	if f := Footer(m); f != "" {
		b.WriteString("\n" + f + "\n")
	}
	if verbose {
		words(&b, m)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteVerdicts writes m's title and its verdicts: what a command prints
// of a matrix it did not just run.
func WriteVerdicts(w io.Writer, m *results.Matrix) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s by %s)\n", m.Study.Title, count(len(m.Codecs), "codec"), count(len(m.Cases), m.Study.CaseWord))
	verdicts(&b, m)
	_, err := io.WriteString(w, b.String())
	return err
}

// grid writes the matrix itself. A column is as wide as the widest code;
// a case number that does not fit is written downwards, a digit a line.
// A space separates groups of cases.
func grid(b *strings.Builder, m *results.Matrix) {
	cw := 1
	for _, k := range m.Study.Outcomes {
		cw = max(cw, utf8.RuneCountInString(k.Code))
		for _, c := range k.Codes {
			cw = max(cw, utf8.RuneCountInString(c))
		}
	}
	for i := range m.Cells {
		cw = max(cw, utf8.RuneCountInString(m.Study.Code(&m.Cells[i])))
	}
	sep := " "
	if cw == 1 {
		sep = ""
	}
	nameW := codecWidth(m)
	// between returns what goes before column i: a separator, and a space
	// more where a group of cases starts.
	between := func(i int) string {
		s := ""
		if i > 0 {
			s = sep
			if m.Cases[i].Group != m.Cases[i-1].Group {
				s += " "
			}
		}
		return s
	}
	digits := len(strconv.Itoa(len(m.Cases)))
	lines := 1
	if digits > cw {
		lines = digits
	}
	for l := range lines {
		line := strings.Repeat(" ", nameW+2)
		for i := range m.Cases {
			n := strconv.Itoa(i + 1)
			if lines > 1 {
				// Digit l of the number, counted from the left of the
				// widest number; blank where the number is shorter.
				at := l - (digits - len(n))
				n = " "
				if at >= 0 {
					n = strconv.Itoa(i + 1)[at : at+1]
				}
			}
			line += between(i) + padLeft(n, cw)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	for _, c := range m.Codecs {
		line := pad(c.Name, nameW+2)
		for i, cell := range m.Row(c.Name) {
			code := " "
			if cell != nil {
				code = m.Study.Code(cell)
			}
			line += between(i) + padLeft(code, cw)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// A Key is one entry of a matrix's legend: a code and what it means.
type Key struct {
	Code, Label string
	Tone        results.Tone
}

// Legend returns the codes of m's study with what each means: each
// outcome's, then the codes its notes select ("OOM fatal error: out of
// memory").
func Legend(m *results.Matrix) []Key {
	var keys []Key
	for _, k := range m.Study.Outcomes {
		keys = append(keys, Key{k.Code, k.Label, k.Tone})
		notes := make([]string, 0, len(k.Codes))
		for n := range k.Codes {
			notes = append(notes, n)
		}
		slices.Sort(notes)
		for _, n := range notes {
			keys = append(keys, Key{k.Codes[n], k.Label + ": " + n, k.Tone})
		}
	}
	return keys
}

// legend writes the legend, wrapped.
func legend(b *strings.Builder, m *results.Matrix) {
	var items []string
	for _, k := range Legend(m) {
		items = append(items, k.Code+" "+k.Label)
	}
	line := ""
	for _, it := range items {
		if line != "" && utf8.RuneCountInString(line)+2+utf8.RuneCountInString(it) > lineWidth {
			b.WriteString(line + "\n")
			line = ""
		}
		if line != "" {
			line += "  "
		}
		line += it
	}
	b.WriteString(line + "\n")
}

// verdicts writes the study's question and each codec's verdict.
func verdicts(b *strings.Builder, m *results.Matrix) {
	q := m.Study.Question
	if q == "" {
		q = "Verdicts"
	}
	b.WriteString(q + "\n")
	nameW, wordW := codecWidth(m), 0
	vs := make([]results.Verdict, len(m.Codecs))
	for i, c := range m.Codecs {
		vs[i] = m.Verdict(c.Name)
		wordW = max(wordW, utf8.RuneCountInString(vs[i].Verdict))
	}
	for _, v := range vs {
		fmt.Fprintf(b, "  %s  %s  %s\n", pad(v.Codec, nameW), pad(v.Verdict, wordW), v.Why)
	}
}

// rollup writes the matrix's rollup, if it has one: a row's name, then
// a line per column with an answer.
func rollup(b *strings.Builder, m *results.Matrix) {
	r := m.Rollup
	if r == nil {
		return
	}
	b.WriteString("\n" + r.Title + "\n")
	for _, row := range r.Rows {
		b.WriteString("  " + row.Name + "\n")
		for i, c := range row.Cells {
			if c != "" && i < len(r.Columns) {
				fmt.Fprintf(b, "    %s: %s\n", r.Columns[i], c)
			}
		}
	}
}

// profiles writes each codec's profile (results.Matrix.Profile), when
// the study sums its rows up so.
func profiles(b *strings.Builder, m *results.Matrix) {
	if len(m.Study.Profile) == 0 {
		return
	}
	b.WriteString("\n" + m.Study.ProfileTitle + "\n")
	for _, c := range m.Codecs {
		if p := m.Profile(c.Name); p != "" {
			fmt.Fprintf(b, "  %s: %s\n", c.Name, p)
		}
	}
}

// versions writes the library and version of each codec, when the matrix
// records them.
func versions(b *strings.Builder, m *results.Matrix) {
	if !slices.ContainsFunc(m.Codecs, func(c results.MatrixCodec) bool { return c.Version != "" }) {
		return
	}
	nameW := codecWidth(m)
	b.WriteString("\nversions:\n")
	for _, c := range m.Codecs {
		fmt.Fprintf(b, "  %s  %s\n", pad(c.Name, nameW), strings.TrimSpace(c.Label+" "+c.Version))
	}
}

// repros writes the worst cells (results.ToneBad) that kept a
// reproducer.
func repros(b *strings.Builder, m *results.Matrix) {
	var lines []string
	for _, c := range m.Codecs {
		for _, cell := range m.Row(c.Name) {
			if cell == nil || cell.Repro == nil || m.Study.Kind(cell.Outcome).Tone != results.ToneBad {
				continue
			}
			line := fmt.Sprintf("  %s %s: %s, %d-byte input", cell.Codec, cell.Case, m.Study.What(cell), cell.Repro.Size)
			if cell.Repro.File != "" {
				line += " (" + cell.Repro.File + ")"
			}
			lines = append(lines, line)
		}
	}
	if len(lines) > 0 {
		b.WriteString("\nthe worst cells, with the smallest input that gives each:\n" + strings.Join(lines, "\n") + "\n")
	}
}

// Footer says how the study ran: "go1.26.8; per-input timeout 10s; 4s".
func Footer(m *results.Matrix) string {
	var parts []string
	if m.Go != "" {
		parts = append(parts, m.Go)
	}
	parts = append(parts, m.Settings...)
	if m.Elapsed != "" {
		parts = append(parts, m.Elapsed)
	}
	return strings.Join(parts, "; ")
}

// words writes, codec by codec, every cell that is not of the best
// outcome, in words, with what running a declared-unsupported case
// anyway gave.
func words(b *strings.Builder, m *results.Matrix) {
	best := results.Outcome("")
	if len(m.Study.Outcomes) > 0 {
		best = m.Study.Outcomes[0].Name
	}
	indent := func(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      ") }
	for _, c := range m.Codecs {
		var lines []string
		for _, cell := range m.Row(c.Name) {
			if cell == nil || cell.Outcome == best {
				continue
			}
			line := fmt.Sprintf("  %s: %s", cell.Case, indent(m.Study.Text(cell)))
			if cell.Tried != nil {
				line += "\n      tried: " + indent(m.Study.Text(cell.Tried))
			}
			lines = append(lines, line)
		}
		if len(lines) > 0 {
			b.WriteString("\n" + c.Name + "\n" + strings.Join(lines, "\n") + "\n")
		}
	}
}

// Header returns the CSV header of m: the columns every study has, with
// the study's facts after the outcome's.
func Header(m *results.Matrix) []string {
	h := []string{"codec", "version", "case", "group", "outcome", "note"}
	h = append(h, m.Study.Facts...)
	return append(h, "reproducer_bytes", "reproducer", "detail", "tried")
}

// WriteCSV writes m as CSV (NAME.csv): the header, then a row per cell,
// codec by codec in case order. Every text field is printable
// (results.Printable): a decoder's message quoting its bad input does not
// make the file binary.
func WriteCSV(w io.Writer, m *results.Matrix) error {
	versions := map[string]string{}
	for _, c := range m.Codecs {
		versions[c.Name] = c.Version
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(Header(m)); err != nil {
		return err
	}
	for _, c := range m.Codecs {
		for i, cell := range m.Row(c.Name) {
			if cell == nil {
				continue
			}
			row := []string{c.Name, versions[c.Name], cell.Case, m.Cases[i].Group, string(cell.Outcome), cell.Note}
			for _, f := range m.Study.Facts {
				row = append(row, cell.Facts[f])
			}
			size, file := "", ""
			if r := cell.Repro; r != nil {
				size, file = strconv.Itoa(r.Size), r.File
			}
			tried := ""
			if cell.Tried != nil {
				tried = m.Study.Text(cell.Tried)
			}
			row = append(row, size, file, cell.Detail, tried)
			for j := range row {
				row[j] = results.Printable(row[j])
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes m as a section of summary.md: the study's
// question, what it did, and each codec's verdict with why.
func WriteMarkdown(w io.Writer, m *results.Matrix) error {
	var b strings.Builder
	q := m.Study.Question
	if q == "" {
		q = m.Study.Title
	}
	fmt.Fprintf(&b, "## %s\n\n", text(q))
	how := count(len(m.Codecs), "codec") + " by " + count(len(m.Cases), m.Study.CaseWord)
	if f := Footer(m); f != "" {
		how += "; " + f
	}
	see := m.Study.Name + ".csv"
	if slices.ContainsFunc(m.Cells, func(c results.MatrixCell) bool { return c.Repro != nil && c.Repro.File != "" }) {
		see += " and the inputs kept under " + m.Study.Name + "/"
	}
	fmt.Fprintf(&b, "From the %s matrix (%s). %s See %s.\n", text(m.Study.Name), text(how), text(m.Study.About), text(see))
	for _, c := range m.Codecs {
		v := m.Verdict(c.Name)
		who := "**" + text(c.Name) + "**"
		if l := strings.TrimSpace(c.Label + " " + c.Version); l != "" {
			who += " (" + text(l) + ")"
		}
		fmt.Fprintf(&b, "\n%s: **%s**. %s\n", who, text(v.Verdict), text(v.Why))
	}
	if r := m.Rollup; r != nil {
		fmt.Fprintf(&b, "\n### %s\n\n", text(r.Title))
		if r.About != "" {
			fmt.Fprintf(&b, "%s\n\n", text(r.About))
		}
		b.WriteString("| |")
		for _, c := range r.Columns {
			b.WriteString(" " + text(c) + " |")
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(r.Columns)) + "\n")
		for _, row := range r.Rows {
			b.WriteString("| **" + text(row.Name) + "** |")
			for i := range r.Columns {
				c := ""
				if i < len(row.Cells) {
					c = row.Cells[i]
				}
				b.WriteString(" " + text(c) + " |")
			}
			b.WriteString("\n")
		}
	}
	if len(m.Study.Profile) > 0 {
		fmt.Fprintf(&b, "\n### %s\n", text(m.Study.ProfileTitle))
		for _, c := range m.Codecs {
			if p := m.Profile(c.Name); p != "" {
				fmt.Fprintf(&b, "\n**%s**: %s.\n", text(c.Name), text(p))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// text makes s safe in Markdown prose.
func text(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "<", `\<`, ">", `\>`, "*", `\*`, "_", `\_`, "`", "\\`", "|", `\|`, "\n", " ")
	return r.Replace(results.Printable(s))
}

// count returns n and the word, in the plural unless n is 1: "1 probe",
// "3 classes".
func count(n int, w string) string {
	switch {
	case n == 1:
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch"):
		w += "es"
	default:
		w += "s"
	}
	return strconv.Itoa(n) + " " + w
}

// codecWidth is the width of the longest codec name.
func codecWidth(m *results.Matrix) int {
	w := 0
	for _, c := range m.Codecs {
		w = max(w, utf8.RuneCountInString(c.Name))
	}
	return w
}

func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-utf8.RuneCountInString(s)))
}

func padLeft(s string, w int) string {
	return strings.Repeat(" ", max(0, w-utf8.RuneCountInString(s))) + s
}

// RowText says codec's row of m in words, a case a clause: "binary
// +1.20 MB, build +3.1 s, ...", each case with its cell's mark where the
// study shows figures (results.OutcomeKind.ShowNote), else the words of
// its outcome. It is "" when the codec has no cell.
func RowText(m *results.Matrix, codec string) string {
	var parts []string
	for i, c := range m.Row(codec) {
		if c == nil {
			continue
		}
		what := m.Study.Kind(c.Outcome).Label
		if k := m.Study.Kind(c.Outcome); k.ShowNote && c.Note != "" {
			what = c.Note
		}
		parts = append(parts, m.Cases[i].Name+" "+what)
	}
	return strings.Join(parts, ", ")
}
