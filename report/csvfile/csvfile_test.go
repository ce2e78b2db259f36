package csvfile_test

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/csvfile"
	"github.com/serbench/serbench/report/internal/fixture"
)

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := csvfile.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "results.csv.golden", buf.Bytes())
}

// TestReadBack checks that the output is real CSV: every row parses with
// the header's number of fields, multi-line reasons included.
func TestReadBack(t *testing.T) {
	var buf bytes.Buffer
	run := fixture.Run()
	if err := csvfile.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("output is not CSV: %v", err)
	}
	if len(rows) != len(run.Results)+1 {
		t.Errorf("%d rows, want a header and %d results", len(rows), len(run.Results))
	}
	for i, r := range rows {
		if len(r) != len(csvfile.Header) {
			t.Errorf("row %d has %d fields, want %d", i, len(r), len(csvfile.Header))
		}
	}
}
