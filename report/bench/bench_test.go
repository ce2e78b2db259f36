package bench_test

import (
	"bytes"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/results"
)

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := bench.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "results.bench.golden", buf.Bytes())
}

// TestReadBack reads the output with benchfmt, as benchstat does: one
// result per sample of every measured benchmark, and no syntax error.
func TestReadBack(t *testing.T) {
	run := fixture.Run()
	var buf bytes.Buffer
	if err := bench.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, r := range run.Results {
		if r.Status == results.OK {
			want[r.Key()] = len(r.Samples)
		}
	}
	got := map[string]int{}
	rd := benchfmt.NewReader(&buf, "results.bench")
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatal(rec)
		case *benchfmt.Result:
			got[string(rec.Name.Full())]++
			if rec.GetConfig("goos") == "" || rec.GetConfig("gomaxprocs") == "" {
				t.Fatalf("%s lacks the environment config", rec.Name)
			}
			if _, ok := rec.Value(bench.UnitEncoded); !ok {
				t.Fatalf("%s lacks %s", rec.Name, bench.UnitEncoded)
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d benchmarks, want %d", len(got), len(want))
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d lines, want one per sample (%d)", k, got[k], n)
		}
	}
}
