package runner

import (
	"testing"

	"github.com/serbench/serbench/results"
)

func TestMerge(t *testing.T) {
	samples := func(ns ...float64) []results.Sample {
		var ss []results.Sample
		for _, x := range ns {
			ss = append(ss, results.Sample{Iters: 10, NsPerOp: x, BPerOp: 64, AllocsPerOp: 2})
		}
		return ss
	}
	a := results.Result{Op: results.Encode, Codec: "json", Status: results.OK, Samples: samples(100, 110, 90), Checked: 1000, Bytes: 40}
	b := results.Result{Op: results.Encode, Codec: "json", Status: results.OK, Samples: samples(101, 99, 100, 102, 98, 100, 100), Checked: 1000, Bytes: 40}
	m := Merge(a, b, Options{Target: 0.05})
	if len(m.Samples) != 10 || m.Checked != 2000 || m.Bytes != 40 {
		t.Fatalf("merged %d samples, %d checked, %d B; want 10, 2000, 40", len(m.Samples), m.Checked, m.Bytes)
	}
	if m.NsPerOp.Median != 100 || m.NsPerOp.Lo <= 0 || !m.TargetMet {
		t.Errorf("merged figure %+v (target met %v); want a median of 100 with an interval within 5%%", m.NsPerOp, m.TargetMet)
	}
	if m.BPerOp != 64 || m.Allocs != 2 {
		t.Errorf("B/op %v, allocs %v; want 64 and 2", m.BPerOp, m.Allocs)
	}
	if len(a.Samples) != 3 {
		t.Error("Merge changed its first argument's samples")
	}

	failed := b
	failed.Status, failed.Reason = results.Failed, "decoded value differs"
	if m := Merge(a, failed, Options{}); m.Status != results.Failed || m.Reason != "on a second visit (the run's refining pass): decoded value differs" {
		t.Errorf("a second visit that failed: %v %q; want the failure, said to be of the second visit", m.Status, m.Reason)
	}
}
