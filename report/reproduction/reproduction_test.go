package reproduction_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/serbench/serbench/claims"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/reproduction"
	"github.com/serbench/serbench/results"
)

// measured returns a result with a median and a ±4% interval.
func measured(op results.Op, codec, ds string, ns float64, bytes int) results.Result {
	return results.Result{Op: op, Codec: codec, Dataset: ds, Shape: "single", Status: results.OK, Bytes: bytes,
		NsPerOp: results.Stat{Median: ns, Lo: 0.96 * ns, Hi: 1.04 * ns}}
}

// fixture is a fixed run holding seed 004's four methods on int64, JSON
// on the integer-keyed map, and nothing else: the claims it lacks data for
// read "cannot be tested here".
func fixture() *results.Run {
	run := &results.Run{
		Env: results.Env{GoVersion: "go1.99", GOOS: "linux", GOARCH: "amd64", CPU: "Fixture CPU", NumCPU: 2, GOMAXPROCS: 2,
			Serbench: "v0.1.0-fixture", Date: "2000-01-02T03:04:05Z", Load: "3.10 2.50 1.90"},
		Elapsed:  results.Duration(95 * time.Second),
		Warnings: []string{"a fixture's warning"},
	}
	for _, m := range []struct {
		codec    string
		enc, dec float64
		bytes    int
	}{
		{"seed004-byteorder", 0.9, 0.6, 8},
		{"seed004-strconv", 14, 11, 5},
		{"seed004-binary", 60, 55, 8},
		{"seed004-gob", 700, 1400, 5},
	} {
		run.Results = append(run.Results, measured(results.Encode, m.codec, "int64", m.enc, m.bytes), measured(results.Decode, m.codec, "int64", m.dec, m.bytes))
	}
	run.Results = append(run.Results, measured(results.Encode, "json", "intmap", 300, 70), measured(results.Decode, "json", "intmap", 900, 70))
	return run
}

func TestGolden(t *testing.T) {
	cs, err := claims.Lookup([]string{"s003-json-string-keys", "s003-mac-mini", "s004-binary-slower-than-string", "s004-bytes-100x", "s004-bytes-vs-string", "s004-gob-slowest", "s004-reflection-slow"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := reproduction.Write(&buf, fixture(), cs); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "reproduction.golden", buf.Bytes())
}
