package matrix_test

import (
	"bytes"
	"encoding/csv"
	"testing"
	"unicode/utf8"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/results"
)

var fixtures = []struct {
	name string
	m    func() *results.Matrix
}{{"hostile", fixture.Hostile}, {"fidelity", fixture.Fidelity}, {"evolution", fixture.Evolution}}

// TestRenderers renders each fixture matrix with every renderer and
// compares the output with its golden file.
func TestRenderers(t *testing.T) {
	for _, f := range fixtures {
		for _, r := range []struct {
			file  string
			write func(*bytes.Buffer, *results.Matrix) error
		}{
			{".txt", func(b *bytes.Buffer, m *results.Matrix) error { return matrix.Write(b, m, false) }},
			{"-v.txt", func(b *bytes.Buffer, m *results.Matrix) error { return matrix.Write(b, m, true) }},
			{"-verdicts.txt", func(b *bytes.Buffer, m *results.Matrix) error { return matrix.WriteVerdicts(b, m) }},
			{".csv", func(b *bytes.Buffer, m *results.Matrix) error { return matrix.WriteCSV(b, m) }},
			{".md", func(b *bytes.Buffer, m *results.Matrix) error { return matrix.WriteMarkdown(b, m) }},
			{".json", func(b *bytes.Buffer, m *results.Matrix) error { return m.WriteJSON(b) }},
		} {
			t.Run(f.name+r.file, func(t *testing.T) {
				var b bytes.Buffer
				if err := r.write(&b, f.m()); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, f.name+r.file+".golden", b.Bytes())
			})
		}
	}
}

// TestCSVPrintable: a decoder's message that quotes its bad input (NUL,
// bytes that are not UTF-8, a carriage return) reaches the CSV escaped,
// and the file still reads back as CSV with the escaped text.
func TestCSVPrintable(t *testing.T) {
	m := fixture.Hostile()
	raw := "invalid character '\x00' after \xff\xfe value\r\x1b[31m"
	m.Cells[0].Detail = raw // set directly: Add would have escaped it
	var b bytes.Buffer
	if err := matrix.WriteCSV(&b, m); err != nil {
		t.Fatal(err)
	}
	for i, c := range b.Bytes() {
		if c == 0 || c == '\x1b' {
			t.Fatalf("byte %d of the CSV is %#x", i, c)
		}
	}
	if !utf8.Valid(b.Bytes()) {
		t.Fatal("the CSV is not UTF-8")
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := `invalid character '\x00' after \xff\xfe value\x0d\x1b[31m`
	detail := matrix.Header(m)
	col := len(detail) - 2
	if got := rows[1][col]; got != want {
		t.Errorf("detail %q, want %q", got, want)
	}
}

// FuzzReadMatrix reads any bytes as a matrix and renders what reads.
func FuzzReadMatrix(f *testing.F) {
	for _, fx := range fixtures {
		var b bytes.Buffer
		if err := fx.m().WriteJSON(&b); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte(`{"study":{"name":"x","outcomes":[{"name":"a","codes":{"":""}}],"rules":[{"when":["a"],"detail":true}]},"codecs":[{"name":"a"}],"cases":[{"name":"p"}],"cells":[{"codec":"a","case":"p","outcome":"a"},{"codec":"a","case":"p"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := results.ReadMatrix(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			return
		}
		var out bytes.Buffer
		for _, write := range []func() error{
			func() error { return matrix.Write(&out, m, true) },
			func() error { return matrix.WriteCSV(&out, m) },
			func() error { return matrix.WriteMarkdown(&out, m) },
			func() error { return m.WriteJSON(&out) },
		} {
			if err := write(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// rolledUp is the evolution fixture with a rollup and facets, as the
// interop study sums its rows up.
func rolledUp() *results.Matrix {
	m := fixture.Evolution()
	m.Study.FacetWord = "language"
	for i := range m.Codecs {
		m.Codecs[i].Facet = []string{"python", "node"}[i%2]
	}
	m.Rollup = &results.Rollup{Title: "Portable to?", About: "Per codec, its best peer.",
		Columns: []string{"Python", "JavaScript (Node)"},
		Rows:    []results.RollupRow{{Name: "msgpack", Cells: []string{"yes, with strict_map_key=False (msgpack)", "no: uint64-max | neg-zero"}}, {Name: "json", Cells: []string{"", "yes (json)"}}}}
	return m
}

// TestRollup renders a matrix's rollup as text and Markdown: a line per
// answer, a table row per group.
func TestRollup(t *testing.T) {
	var txt, md bytes.Buffer
	if err := matrix.Write(&txt, rolledUp(), false); err != nil {
		t.Fatal(err)
	}
	if err := matrix.WriteMarkdown(&md, rolledUp()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "rollup.txt.golden", txt.Bytes())
	golden.Check(t, "rollup.md.golden", md.Bytes())
}
