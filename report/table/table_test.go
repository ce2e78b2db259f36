package table_test

import (
	"bytes"
	"testing"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/report/table"
)

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := table.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "table.golden", buf.Bytes())
}
