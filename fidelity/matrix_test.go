package fidelity_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/results"
)

// TestVerdicts: the study's rules give each row its verdict, naming the
// probes that decide it, and the matrix keeps its cells and verdicts
// through JSON.
func TestVerdicts(t *testing.T) {
	if err := fidelity.Study.Validate(); err != nil {
		t.Fatal(err)
	}
	probes, err := fidelity.Lookup([]string{"time-nanos", "slice-empty", "nan", "cycle"})
	if err != nil {
		t.Fatal(err)
	}
	var codecs []codec.Info
	for _, n := range []string{"exact", "lossy", "wrong", "crashy", "none"} {
		codecs = append(codecs, codec.Info{Name: n})
	}
	m := fidelity.NewMatrix(codecs, probes)
	for _, c := range []fidelity.Cell{
		{Codec: "exact", Case: "time-nanos", Outcome: fidelity.Exact},
		{Codec: "exact", Case: "nan", Outcome: fidelity.RefusedEncode, Detail: "NaN"},
		{Codec: "lossy", Case: "time-nanos", Outcome: fidelity.Normalised, Note: "UTC,1ms"},
		{Codec: "lossy", Case: "slice-empty", Outcome: fidelity.Normalised, Note: "nil≡empty"},
		{Codec: "wrong", Case: "slice-empty", Outcome: fidelity.Changed, Detail: "-a +b"},
		{Codec: "wrong", Case: "time-nanos", Outcome: fidelity.Normalised, Note: "UTC"},
		{Codec: "crashy", Case: "cycle", Outcome: fidelity.Crashed, Detail: "stack overflow"},
		{Codec: "crashy", Case: "slice-empty", Outcome: fidelity.Normalised, Note: "nil≡empty"},
		{Codec: "none", Case: "cycle", Outcome: fidelity.Unsupported, Detail: "no schema"},
	} {
		m.Add(c)
	}
	want := map[string]results.Verdict{
		"exact":  {Codec: "exact", Verdict: "exact", Why: "Every probe tried (2) comes back exact, or is refused with an error."},
		"lossy":  {Codec: "lossy", Verdict: "lossy", Why: "Values come back equal only after a normalisation: time-nanos (UTC,1ms); slice-empty (nil≡empty)."},
		"wrong":  {Codec: "wrong", Verdict: "changes values", Why: "It returns another value without an error on slice-empty."},
		"crashy": {Codec: "crashy", Verdict: "crashes", Why: "A probe crashes, hangs or panics it: cycle."},
		"none":   {Codec: "none", Verdict: "not probed", Why: "No probe applied: no schema or code for the probes' types."},
	}
	for _, c := range codecs {
		if got := m.Judge(c.Name); got != want[c.Name] {
			t.Errorf("%s: %+v, want %+v", c.Name, got, want[c.Name])
		}
	}
	var b bytes.Buffer
	if err := m.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadMatrix(&b, "fidelity.json")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Cells, m.Cells) || !reflect.DeepEqual(back.Cases, m.Cases) || !reflect.DeepEqual(back.Verdicts, m.Verdicts) || len(back.Verdicts) != len(codecs) {
		t.Errorf("the matrix changed through JSON")
	}
}

func TestLookup(t *testing.T) {
	if _, err := fidelity.Lookup([]string{"nan", "nope"}); err == nil {
		t.Errorf("an unknown probe looks up")
	}
	if n := len(fidelity.Probes); n < 40 {
		t.Errorf("%d probes, want at least 40", n)
	}
	seen := map[string]bool{}
	for _, p := range fidelity.Probes {
		if seen[p.Name] || p.Name == "" || p.Doc == "" || p.Group == "" {
			t.Errorf("probe %q: duplicate, or without a name, doc or group", p.Name)
		}
		seen[p.Name] = true
		if (p.Kind == fidelity.Forward) != (p.Value == nil) {
			t.Errorf("probe %s: a Forward probe has no Value, any other has one", p.Name)
		}
	}
}
