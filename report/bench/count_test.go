package bench_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/results"
)

// TestCountedLine: a counted result is one line of instructions/op,
// declared exact, apart from its timed samples.
func TestCountedLine(t *testing.T) {
	run := &results.Run{Options: results.Options{Measure: results.MeasureInstructions}, Results: []results.Result{
		{Op: results.Encode, Codec: "json", Dataset: "tiny", Shape: "single", Status: results.OK, Bytes: 34, InstrPerOp: 2043.6},
	}}
	var buf bytes.Buffer
	if err := bench.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"Unit instructions/op assume=exact", "BenchmarkEncode/codec=json/dataset=tiny/shape=single 1 2043.6 instructions/op 34 B/msg"} {
		if !strings.Contains(out, want) {
			t.Errorf("results.bench lacks %q:\n%s", want, out)
		}
	}
}
