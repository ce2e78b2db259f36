package bench_test

import (
	"bytes"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

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

// TestProduction reads back a run -cpu 1,2 run as benchstat does: a
// result at GOMAXPROCS 2 has /gomaxprocs 2, one at 1 has none (go test's
// names), and the production figures are units of their own.
func TestProduction(t *testing.T) {
	var buf bytes.Buffer
	if err := bench.Write(&buf, fixture.Production()); err != nil {
		t.Fatal(err)
	}
	var pp benchproc.ProjectionParser
	proj, err := pp.Parse("/codec,/gomaxprocs", nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	rd := benchfmt.NewReader(&buf, "results.bench")
	for rd.Scan() {
		rec, ok := rd.Result().(*benchfmt.Result)
		if !ok || !bytes.Contains(rec.Name.Full(), []byte("dataset=game")) {
			continue
		}
		if rec.GetConfig("cpu-list") != "1,2" || rec.GetConfig("cores") != "0,1" {
			t.Errorf("%s: cpu-list %q, cores %q", rec.Name, rec.GetConfig("cpu-list"), rec.GetConfig("cores"))
		}
		key := proj.Project(rec).StringValues()
		seen[key] = true
		has := func(unit string) bool {
			for _, v := range rec.Values {
				if v.OrigUnit == unit || v.Unit == unit {
					return true
				}
			}
			return false
		}
		for _, unit := range []string{bench.UnitGCCycles, bench.UnitGCCPU, bench.UnitMBPerSec} {
			if !has(unit) {
				t.Errorf("%s lacks %s", rec.Name, unit)
			}
		}
		if ok := has(bench.UnitKept); ok != bytes.HasPrefix(rec.Name.Full(), []byte("Decode")) {
			t.Errorf("%s: %s present %v", rec.Name, bench.UnitKept, ok)
		}
	}
	for _, want := range []string{"json 2", "json", "gob-stream 2"} {
		if !seen[want] {
			t.Errorf("no game result projected to %q; got %v", want, seen)
		}
	}
}
