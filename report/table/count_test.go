package table_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/report/table"
	"github.com/serbench/serbench/results"
)

// TestCounted: a run that counted shows instructions per op beside time,
// "-" where a benchmark was not counted; one that only counted shows no
// time and ranks by instructions.
func TestCounted(t *testing.T) {
	run := fixture.Run()
	run.Options.Measure = results.MeasureBoth
	var first *results.Result
	for i := range run.Results {
		if r := &run.Results[i]; r.Status == results.OK && first == nil {
			first = r
			r.InstrPerOp = 12345
		}
	}
	var buf bytes.Buffer
	if err := table.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "enc instr") || !strings.Contains(out, "12.3k") {
		t.Errorf("a counted run's table lacks its instructions:\n%s", out)
	}

	only := &results.Run{Options: results.Options{Measure: results.MeasureInstructions}, Results: []results.Result{
		{Op: results.Encode, Codec: "many", Dataset: "tiny", Shape: "single", Status: results.OK, InstrPerOp: 9000},
		{Op: results.Encode, Codec: "few", Dataset: "tiny", Shape: "single", Status: results.OK, InstrPerOp: 900},
	}}
	buf.Reset()
	if err := table.Write(&buf, only); err != nil {
		t.Fatal(err)
	}
	out = buf.String()
	if strings.Index(out, "few") > strings.Index(out, "many") || strings.Contains(out, "0.00ns") {
		t.Errorf("a run that only counted: want fewest instructions first and no time:\n%s", out)
	}
}
