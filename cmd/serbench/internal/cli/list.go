package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/evolve/change"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/internal/suggest"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/registry"
)

// listWidth is the most columns a line of 'serbench list' takes.
const listWidth = 100

func listCmd(args []string, stdout, stderr io.Writer) error {
	what, long, err := parseList(args, stderr)
	if err != nil {
		return err
	}
	for i, w := range what {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := listingOf(w, long).write(stdout, listWidth); err != nil {
			return err
		}
	}
	return nil
}

// parseList parses the list command's line: what to list (all three
// without an argument) and whether in the long form.
func parseList(args []string, stderr io.Writer) (what []string, long bool, err error) {
	b := newFlags("list", "serbench list [-v] ["+strings.Join(lists, "|")+"]",
		"Lists what -codecs, -datasets, -preset, fidelity's -probes, hostile's -classes, evolve's -cases, cost's -costs, reproduce's -claims and run's -need accept; without an argument, the first three.", stderr)
	fs := b.fs
	b.verbose(&long, "the long form: each codec's version, label, home page and notes as well")
	// Accept the argument before or after the flags.
	var arg []string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		arg, args = args[:1], args[1:]
	}
	if err := b.parse(args); err != nil {
		return nil, false, err
	}
	args = append(arg, fs.Args()...)
	switch {
	case len(args) == 0:
		return []string{"codecs", "datasets", "presets"}, long, nil
	case len(args) > 1:
		return nil, false, usagef("list takes at most one argument: %s", listsInWords())
	}
	if slices.Contains(lists, args[0]) {
		return args, long, nil
	}
	return nil, false, usagef("cannot list %q%s; choose %s", args[0], suggest.Hint(args[0], lists), listsInWords())
}

// lists are what serbench list lists, each a case in listingOf: every
// study's CaseList among them.
var lists = []string{"codecs", "datasets", "presets", "probes", "classes", "cases", "costs", "claims", "needs"}

// listsInWords is lists in words: "codecs, ..., claims or needs".
func listsInWords() string {
	return strings.Join(lists[:len(lists)-1], ", ") + " or " + lists[len(lists)-1]
}

// listingOf returns the listing of what: codecs, datasets, presets,
// probes or classes.
func listingOf(what string, long bool) listing {
	switch what {
	case "codecs":
		return codecTable(long)
	case "datasets":
		return datasetTable(long)
	case "probes":
		return probeTable()
	case "classes":
		return classTable()
	case "cases":
		return caseTable()
	case "costs":
		return costTable()
	case "claims":
		return claimTable()
	case "needs":
		return needTable()
	}
	return presetTable()
}

// datasetTable lists the datasets, each with the shapes it comes in
// (extra-large ones marked), its slice length and its source; long adds
// a corpus's provenance: the file in the module it was taken from, its
// licence, size and hash.
func datasetTable(long bool) listing {
	t := listing{header: []string{"DATASET", "SHAPES", "SLICE LEN", "SOURCE", "DESCRIPTION"}}
	for _, d := range dataset.All {
		var shapes []string
		for _, s := range d.Shapes() {
			name := string(s)
			if d.IsXL(s) {
				name += "(xl)"
			}
			shapes = append(shapes, name)
		}
		r := row{cells: []string{d.Name, strings.Join(shapes, ","), strconv.Itoa(d.SliceLen), d.Source, d.Doc}}
		if c := d.Corpus; c != nil && long {
			r.notes = append(r.notes, "from: "+c.Module+" "+c.Path, "licence: "+c.License,
				fmt.Sprintf("document: %d bytes, sha256 %s", c.Size, c.SHA256))
		}
		t.rows = append(t.rows, r)
	}
	return t
}

// costTable lists the cost study's costs, with what each measures.
func costTable() listing {
	t := listing{header: []string{"COST", "DESCRIPTION"}}
	for _, c := range cost.Cases {
		t.rows = append(t.rows, row{cells: []string{c.Name, c.Doc}})
	}
	return t
}

// classTable lists hostile's input classes.
func classTable() listing {
	t := listing{header: []string{"CLASS", "DESCRIPTION"}}
	for _, c := range hostile.Classes {
		t.rows = append(t.rows, row{cells: []string{c.Name, c.Doc}})
	}
	return t
}

// caseTable lists evolve's schema changes, each with the Protobuf rules
// of buf that flag it.
func caseTable() listing {
	t := listing{header: []string{"CASE", "DESCRIPTION"}}
	for _, c := range change.Cases {
		r := row{cells: []string{c.Name, c.Doc}}
		if len(c.Buf) > 0 {
			r.notes = append(r.notes, "buf: "+strings.Join(c.Buf, ", "))
		}
		t.rows = append(t.rows, r)
	}
	return t
}

// presetTable lists the presets.
func presetTable() listing {
	t := listing{header: []string{"PRESET", "DESCRIPTION"}}
	for _, p := range preset.All {
		t.rows = append(t.rows, row{cells: []string{p.Name, p.Doc}})
	}
	return t
}

// codecTable lists the registered codecs: one line each with what -codecs
// takes, then indented lines with what makes a comparison not like for
// like; long adds the version, label, home page and notes.
func codecTable(long bool) listing {
	t := listing{header: []string{"CODEC", "FAMILY", "API", "MODULE"}}
	for _, c := range registry.Codecs {
		r := row{cells: []string{c.Name, c.Family, string(c.API), c.Module}}
		if long {
			r.notes = append(r.notes, "version: "+registry.Version(c.Module), "label: "+c.Label, "home: "+c.URL)
		}
		if c.Unsupported != 0 {
			r.notes = append(r.notes, "cannot hold: "+c.Unsupported.String())
		}
		if len(c.Losses) > 0 {
			r.notes = append(r.notes, "loses: "+strings.Join(codec.LossNames(c.Losses), ", "))
		}
		if c.Variant != "" {
			r.notes = append(r.notes, "variant: "+c.Variant)
		}
		if long && c.Notes != "" {
			r.notes = append(r.notes, "notes: "+c.Notes)
		}
		t.rows = append(t.rows, r)
	}
	return t
}

// A listing is rows of cells in aligned columns, the last of them wrapped
// to the width, each row followed by its notes: indented, wrapped lines.
type listing struct {
	header []string
	rows   []row
}

type row struct {
	cells []string
	notes []string // "key: value"; wrapped lines align after "key: "
}

// noteIndent is how far notes are indented.
const noteIndent = "    "

// write writes t in lines of at most width columns. A last column that
// would be narrower than 40 columns moves under each row, as its first
// note, and out of the header.
func (t listing) write(w io.Writer, width int) error {
	n := len(t.header)
	widths := make([]int, n-1)
	for _, cells := range append([][]string{t.header}, t.cellsOf()...) {
		for i := range widths {
			widths[i] = max(widths[i], utf8.RuneCountInString(cells[i]))
		}
	}
	prefix := 0
	for _, wd := range widths {
		prefix += wd + 2
	}
	below := width-prefix < 40 // the last column goes under each row
	var b strings.Builder
	line := func(cells []string, notes []string, header bool) {
		var lead strings.Builder
		for i, c := range cells[:n-1] {
			lead.WriteString(c)
			lead.WriteString(strings.Repeat(" ", widths[i]+2-utf8.RuneCountInString(c)))
		}
		last := cells[n-1]
		if below {
			b.WriteString(strings.TrimRight(lead.String(), " ") + "\n")
			if last != "" && !header {
				notes = append([]string{last}, notes...)
			}
		} else {
			for i, l := range wrapHanging(last, width-prefix, width-prefix) {
				if i > 0 {
					lead.Reset()
					lead.WriteString(strings.Repeat(" ", prefix))
				}
				b.WriteString(strings.TrimRight(lead.String()+l, " ") + "\n")
			}
		}
		for _, note := range notes {
			hang := 2
			if k := strings.Index(note, ": "); k >= 0 && k < 16 {
				hang = k + 2
			}
			lines := wrapHanging(note, width-len(noteIndent), width-len(noteIndent)-hang)
			for i, l := range lines {
				ind := noteIndent
				if i > 0 {
					ind += strings.Repeat(" ", hang)
				}
				b.WriteString(ind + l + "\n")
			}
		}
	}
	line(t.header, nil, true)
	for _, r := range t.rows {
		line(r.cells, r.notes, false)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (t listing) cellsOf() [][]string {
	out := make([][]string, len(t.rows))
	for i, r := range t.rows {
		out[i] = r.cells
	}
	return out
}

// wrapHanging breaks s at spaces into a first line of at most first
// columns and further lines of at most rest; a word longer than its line
// is broken where it must be.
func wrapHanging(s string, first, rest int) []string {
	var lines []string
	var cur []rune
	width := func() int {
		if len(lines) == 0 {
			return max(first, 1)
		}
		return max(rest, 1)
	}
	for _, word := range strings.Fields(s) {
		wr := []rune(word)
		switch {
		case len(cur) == 0:
		case len(cur)+1+len(wr) <= width():
			cur = append(cur, ' ')
		default:
			lines = append(lines, string(cur))
			cur = nil
		}
		cur = append(cur, wr...)
		for len(cur) > width() {
			n := width()
			lines = append(lines, string(cur[:n]))
			cur = cur[n:]
		}
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, string(cur))
	}
	return lines
}
