package html_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/html"
	"github.com/serbench/serbench/report/internal/fixture"
)

// matrix is a fixed fidelity matrix: two codecs, three probes, every
// kind of cell the section draws.
func matrix(t *testing.T) *fidelity.Matrix {
	probes, err := fidelity.Lookup([]string{"time-nanos", "map-string-key", "any-2^53+1"})
	if err != nil {
		t.Fatal(err)
	}
	m := fidelity.NewMatrix([]codec.Info{{Name: "gob"}, {Name: "json"}}, probes)
	tried := fidelity.Cell{Outcome: fidelity.RefusedEncode, Detail: "unsupported type: map[string]int"}
	for _, c := range []fidelity.Cell{
		{Codec: "gob", Probe: "time-nanos", Outcome: fidelity.Exact},
		{Codec: "gob", Probe: "map-string-key", Outcome: fidelity.Unsupported, Detail: "declared: cannot represent maps", Tried: &tried},
		{Codec: "gob", Probe: "any-2^53+1", Outcome: fidelity.Crashed, Detail: "fatal error: <stack overflow>"},
		{Codec: "json", Probe: "time-nanos", Outcome: fidelity.Normalised, Norm: "UTC,1ms"},
		{Codec: "json", Probe: "any-2^53+1", Outcome: fidelity.Changed, Detail: "-\tV: int(9007199254740993),\n+\tV: float64(9.007199254740992e+15),"},
	} {
		m.Add(c)
	}
	return m
}

// TestWriteWith renders the fixture run with a matrix: the section holds a
// cell per codec and probe, coloured by outcome, its words on hover, and
// the page without a matrix has no section.
func TestWriteWith(t *testing.T) {
	var buf bytes.Buffer
	if err := html.WriteWith(&buf, fixture.Run(), matrix(t)); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	start, end := strings.Index(page, `<section id="fidelity">`), strings.Index(page, "</main>")
	if start < 0 || end < start {
		t.Fatalf("no fidelity section before </main>")
	}
	section := page[start:end]
	if n := strings.Count(section, `<td class="fcell`); n != 6 {
		t.Errorf("%d cells, want 6 (2 codecs by 3 probes)", n)
	}
	for _, want := range []string{`class="fcell fo-changed" title="json · any-2^53&#43;1: changed: -	V: int(9007199254740993),`, "tried: refused at encode: unsupported type", "fo-none", "fatal error: &lt;stack overflow&gt;", `href="#fidelity"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	golden.Check(t, "fidelity.html.golden", []byte(section))

	buf.Reset()
	if err := html.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `id="fidelity"`) {
		t.Errorf("a page without a matrix has a fidelity section")
	}
}
