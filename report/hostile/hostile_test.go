package hostile_test

import (
	"bytes"
	"testing"

	"github.com/serbench/serbench/internal/golden"
	reporthostile "github.com/serbench/serbench/report/hostile"
	"github.com/serbench/serbench/report/internal/fixture"
)

func TestWrite(t *testing.T) {
	var buf bytes.Buffer
	if err := reporthostile.Write(&buf, fixture.Hostile()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "hostile.txt.golden", buf.Bytes())
}

func TestWriteCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := reporthostile.WriteCSV(&buf, fixture.Hostile()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "hostile.csv.golden", buf.Bytes())
}
