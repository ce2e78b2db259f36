package table_test

import (
	"bytes"
	"testing"

	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/report/internal/golden"
	"github.com/serbench/serbench/report/table"
)

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := table.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "table.golden", buf.Bytes())
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		ns   float64
		want string
	}{
		{3.05, "3.05ns"}, {15.7, "15.7ns"}, {336, "336ns"}, {1480, "1.48µs"}, {156000, "156µs"},
		{4.37e6, "4.37ms"}, {1.2e9, "1.20s"}, {0, "0.00ns"},
	} {
		if got := table.Duration(c.ns); got != c.want {
			t.Errorf("Duration(%v) = %q, want %q", c.ns, got, c.want)
		}
	}
}
