package results_test

import (
	"math"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

func TestScalings(t *testing.T) {
	at := func(op results.Op, codec string, procs int, med, lo, hi float64) results.Result {
		return results.Result{Op: op, Codec: codec, Dataset: "user", Shape: "single", Procs: procs, Status: results.OK, Bytes: 100,
			NsPerOp: results.Stat{Median: med, Lo: lo, Hi: hi}}
	}
	rs := []results.Result{
		at(results.Encode, "json", 1, 1000, 900, 1100),
		at(results.Encode, "json", 2, 500, 450, 550),
		at(results.Decode, "json", 2, 800, 0, 0), // no one-goroutine twin
		at(results.Encode, "gob", 1, 1000, 0, 0),
		at(results.Encode, "gob", 2, 800, 780, 820),
	}
	sc := results.Scalings(rs)
	if len(sc) != 2 {
		t.Fatalf("%d scalings, want json's and gob's encode", len(sc))
	}
	j := sc[0]
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if j.Codec != "json" || !near(j.Speedup.Median, 2) || !near(j.Speedup.Lo, 900.0/550) || !near(j.Speedup.Hi, 1100.0/450) || !near(j.Efficiency.Median, 1) {
		t.Errorf("json: %+v", j)
	}
	if g := sc[1]; g.Codec != "gob" || !near(g.Efficiency.Median, 0.625) || g.Speedup.Lo != 0 || g.Speedup.Hi != 0 {
		t.Errorf("gob, whose one-goroutine figure has no interval: %+v", g)
	}
	msgs, mb := rs[1].Throughput()
	if !near(msgs, 2e6) || !near(mb, 200) {
		t.Errorf("throughput at 500ns/op of 100 bytes: %v msgs/s, %v MB/s", msgs, mb)
	}
}

func TestKeyProcs(t *testing.T) {
	for procs, want := range map[int]string{0: "Encode/codec=json/dataset=user/shape=single", 1: "Encode/codec=json/dataset=user/shape=single",
		4: "Encode/codec=json/dataset=user/shape=single-4"} {
		r := results.Result{Op: results.Encode, Codec: "json", Dataset: "user", Shape: "single", Procs: procs}
		if got := r.Key(); got != want {
			t.Errorf("procs %d: key %s, want %s", procs, got, want)
		}
	}
	ix := results.NewIndex([]results.Result{
		{Op: results.Encode, Codec: "json", Dataset: "user", Shape: "single", Procs: 1},
		{Op: results.Encode, Codec: "json", Dataset: "user", Shape: "single", Procs: 2},
	})
	if len(ix.Categories) != 2 || ix.Categories[1].String() != "user/single-2" {
		t.Errorf("categories %v: want one per GOMAXPROCS", ix.Categories)
	}
}

// TestFlagScaling checks that a speed-up whose interval lies above the
// machine's ceiling is flagged, and one that reaches into it is not.
func TestFlagScaling(t *testing.T) {
	at := func(codec string, procs int, med, lo, hi float64) results.Result {
		return results.Result{Op: results.Encode, Codec: codec, Dataset: "user", Shape: "single", Procs: procs, Status: results.OK, Bytes: 100,
			NsPerOp: results.Stat{Median: med, Lo: lo, Hi: hi}}
	}
	rs := []results.Result{
		at("cheat", 1, 1000, 990, 1010), at("cheat", 2, 435, 430, 440), // 2.30×, at least 2.25×
		at("honest", 1, 1000, 900, 1100), at("honest", 2, 800, 700, 900), // 1.25×, at least 1×
		at("edge", 1, 1000, 950, 1050), at("edge", 2, 600, 550, 650), // 1.67×, at least 1.46×: within the ceiling's top
	}
	env := results.Env{CPUList: []int{1, 2}, SpinSpeedup: []float64{1, 0.87}, SpinSpeedupHi: []float64{1, 1.5}}
	results.FlagScaling(rs, env)
	if rs[1].Flagged == "" || rs[0].Flagged != "" {
		t.Errorf("the 2.30× speed-up above a 1.5× ceiling: flagged %q (its one-goroutine twin %q)", rs[1].Flagged, rs[0].Flagged)
	}
	if !strings.Contains(rs[1].Flagged, "2.30×") {
		t.Errorf("flag %q does not give the speed-up", rs[1].Flagged)
	}
	for _, i := range []int{2, 3, 4, 5} {
		if rs[i].Flagged != "" {
			t.Errorf("%s at %d: flagged %q", rs[i].Codec, rs[i].Procs, rs[i].Flagged)
		}
	}
}
