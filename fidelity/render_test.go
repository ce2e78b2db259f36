package fidelity_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/golden"
)

// fixture is a matrix with every outcome, written by hand.
func fixture(t testing.TB) *fidelity.Matrix {
	probes, err := fidelity.Lookup([]string{"time-nanos", "slice-empty", "map-string-key", "nan", "cycle", "reuse", "forward-unknown"})
	if err != nil {
		t.Fatal(err)
	}
	codecs := []codec.Info{{Name: "alpha", Family: "a", Label: "Alpha", API: codec.Reflection}, {Name: "beta-long-name", Family: "b", Label: "Beta", API: codec.Codegen}}
	m := fidelity.NewMatrix(codecs, probes)
	tried := fidelity.Cell{Outcome: fidelity.RefusedEncode, Detail: "beta: unsupported type: map[string]int"}
	for _, c := range []fidelity.Cell{
		{Codec: "alpha", Probe: "time-nanos", Outcome: fidelity.Normalised, Norm: "UTC,1ms"},
		{Codec: "alpha", Probe: "slice-empty", Outcome: fidelity.Exact},
		{Codec: "alpha", Probe: "map-string-key", Outcome: fidelity.Exact},
		{Codec: "alpha", Probe: "nan", Outcome: fidelity.RefusedEncode, Detail: "alpha: unsupported value: NaN"},
		{Codec: "alpha", Probe: "cycle", Outcome: fidelity.Crashed, Detail: "the child died: exit status 2: fatal error: stack overflow"},
		{Codec: "alpha", Probe: "reuse", Outcome: fidelity.Changed, Detail: "  &fidelity.Reused{\n- \tB: 0,\n+ \tB: 7,\n  }"},
		{Codec: "alpha", Probe: "forward-unknown", Outcome: fidelity.Unsupported, Detail: "no codec.Forwarder"},
		{Codec: "beta-long-name", Probe: "time-nanos", Outcome: fidelity.Exact},
		{Codec: "beta-long-name", Probe: "slice-empty", Outcome: fidelity.Normalised, Norm: "nil≡empty"},
		{Codec: "beta-long-name", Probe: "map-string-key", Outcome: fidelity.Unsupported, Detail: "declared: cannot represent maps", Tried: &tried},
		{Codec: "beta-long-name", Probe: "nan", Outcome: fidelity.RefusedDecode, Detail: "beta: NaN at offset 3"},
		{Codec: "beta-long-name", Probe: "cycle", Outcome: fidelity.Crashed, Detail: "hung: no answer in 30s; the child was killed"},
		{Codec: "beta-long-name", Probe: "forward-unknown", Outcome: fidelity.Exact},
	} {
		m.Add(c)
	}
	return m
}

func TestWriteText(t *testing.T) {
	for _, tc := range []struct {
		name    string
		verbose bool
	}{{"matrix.golden", false}, {"matrix-v.golden", true}} {
		var b bytes.Buffer
		if err := fidelity.WriteText(&b, fixture(t), tc.verbose); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, tc.name, b.Bytes())
	}
}

func TestWriteCSV(t *testing.T) {
	var b bytes.Buffer
	if err := fidelity.WriteCSV(&b, fixture(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "fidelity.csv.golden", b.Bytes())
}

func TestJSONRoundTrip(t *testing.T) {
	m := fixture(t)
	var b bytes.Buffer
	if err := m.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	back, err := fidelity.ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Cells, m.Cells) || !reflect.DeepEqual(back.Probes, m.Probes) || !reflect.DeepEqual(back.Codecs, m.Codecs) {
		t.Errorf("the matrix changed through JSON")
	}
	if c := back.Cell("beta-long-name", "map-string-key"); c == nil || c.Evidence().Outcome != fidelity.RefusedEncode {
		t.Errorf("the declared cell lost what was tried: %+v", c)
	}
	if _, err := fidelity.ReadJSON(bytes.NewReader([]byte(`{"codecs":[]}`))); err == nil {
		t.Errorf("an empty matrix reads without an error")
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

// FuzzReadJSON reads any bytes as a fidelity.json and renders what reads.
func FuzzReadJSON(f *testing.F) {
	var b bytes.Buffer
	if err := fixture(f).WriteJSON(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte(`{"codecs":[{"name":"a"}],"probes":[{"name":"p"}],"cells":[{"codec":"a","probe":"p"},{"codec":"a","probe":"p"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := fidelity.ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := fidelity.WriteText(&out, m, true); err != nil {
			t.Fatal(err)
		}
		if err := fidelity.WriteCSV(&out, m); err != nil {
			t.Fatal(err)
		}
	})
}
