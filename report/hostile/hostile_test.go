package hostile_test

import (
	"bytes"
	"testing"

	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/report/internal/golden"
	reporthostile "github.com/serbench/serbench/report/hostile"
)

// fixture is a fixed matrix with one cell of each outcome.
func fixture() *hostile.Matrix {
	return &hostile.Matrix{
		Go: "go1.26.8", Serbench: "v0.0.0-test", Quick: true, Timeout: "10s", Elapsed: "4s",
		Codecs: []hostile.CodecInfo{
			{Name: "json", Label: "encoding/json", Module: "std", Version: "go1.26.8"},
			{Name: "msgpack", Label: "vmihailenco/msgpack/v5", Module: "github.com/vmihailenco/msgpack/v5", Version: "v5.4.1"},
		},
		Classes: []hostile.ClassInfo{
			{Name: "empty", Doc: "a zero-length input"},
			{Name: "long-array", Doc: "a slice's declared element count far beyond the input"},
			{Name: "deep-array", Doc: "arrays nested deep"},
		},
		Cells: []hostile.Cell{
			{Codec: "json", Class: "empty", Outcome: hostile.Clean, Seed: "complexdata/single", Inputs: 1, Detail: "unexpected end of JSON input"},
			{Codec: "json", Class: "long-array", Outcome: hostile.NA},
			{Codec: "json", Class: "deep-array", Outcome: hostile.Changed, Inputs: 2, Size: 2008, File: "hostile/json-deep-array.bin"},
			{Codec: "msgpack", Class: "empty", Outcome: hostile.Clean, Inputs: 1, Detail: "EOF"},
			{Codec: "msgpack", Class: "long-array", Outcome: hostile.Crash, Crash: "out of memory", Detail: "fatal error: runtime: out of memory",
				Inputs: 2, Size: 6, File: "hostile/msgpack-long-array.bin", PeakRSS: 30 << 20},
			{Codec: "msgpack", Class: "deep-array", Outcome: hostile.Hang, Crash: "timeout", Inputs: 2, Size: 100004, File: "hostile/msgpack-deep-array.bin"},
		},
	}
}

func TestWrite(t *testing.T) {
	var buf bytes.Buffer
	if err := reporthostile.Write(&buf, fixture()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "hostile.txt.golden", buf.Bytes())
}

func TestWriteCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := reporthostile.WriteCSV(&buf, fixture()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "hostile.csv.golden", buf.Bytes())
}
