package table_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/report/table"
	"github.com/serbench/serbench/results"
)

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := table.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "table.golden", buf.Bytes())
}

// TestCutShort checks that benchmarks the run's time cut short are said
// so, apart from codecs that cannot represent the data.
func TestCutShort(t *testing.T) {
	run := fixture.Run()
	cut := 0
	for i := range run.Results {
		if r := &run.Results[i]; r.Status == results.OK && cut < 2 {
			r.Status, r.CutShort, r.Reason, r.Samples = results.Skipped, true, "cut short: the run's time (-time 3m0s) ended before it was measured", nil
			cut++
		}
	}
	var buf bytes.Buffer
	if err := table.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"2 benchmarks not measured: the run's time (-time) ended first; -resume DIR measures them, or a longer -time.\n",
		"6 benchmarks skipped: a codec that cannot represent the data",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table notes lack %q:\n%s", want, out)
		}
	}
}
