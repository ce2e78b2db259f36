package bench_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/results"
)

// TestCountedLine: a counted result is a line of instructions/op per
// process that counted it, apart from its timed samples, not declared
// exact (the processes' counts differ); compare reads them back as the
// count's median between its smallest and largest.
func TestCountedLine(t *testing.T) {
	run := &results.Run{Options: results.Options{Measure: results.MeasureInstructions}, Results: []results.Result{
		{Op: results.Encode, Codec: "json", Dataset: "tiny", Shape: "single", Status: results.OK, Bytes: 34, InstrPerOp: 2043.6, InstrCounts: []float64{2043.6, 2040, 2050}},
		{Op: results.Decode, Codec: "json", Dataset: "tiny", Shape: "single", Status: results.OK, Bytes: 34, InstrPerOp: 8000},
	}}
	var buf bytes.Buffer
	if err := bench.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"BenchmarkEncode/codec=json/dataset=tiny/shape=single 1 2043.6 instructions/op 34 B/msg",
		"BenchmarkEncode/codec=json/dataset=tiny/shape=single 1 2040 instructions/op 34 B/msg",
		"BenchmarkEncode/codec=json/dataset=tiny/shape=single 1 2050 instructions/op 34 B/msg",
		"BenchmarkDecode/codec=json/dataset=tiny/shape=single 1 8000 instructions/op 34 B/msg",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("results.bench lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Unit instructions/op assume=exact") {
		t.Errorf("results.bench declares counts exact:\n%s", out)
	}
	set, err := compare.Read(strings.NewReader(out), "results.bench")
	if err != nil {
		t.Fatalf("compare cannot read the counts back: %v", err)
	}
	rows, err := compare.Compare(set, set)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Unit == results.UnitInstructions && r.Name == "Encode/codec=json/dataset=tiny/shape=single" {
			if r.Old.Center != 2043.6 || r.Old.Lo != 2040 || r.Old.Hi != 2050 {
				t.Errorf("counts read back as %+v; want 2043.6 between 2040 and 2050", r.Old)
			}
			return
		}
	}
	t.Errorf("no row of instructions/op in %+v", rows)
}
