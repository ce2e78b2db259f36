package claims_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/claims"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
)

// withCounts returns rs with instr instructions per op on codec's results.
func withCounts(rs []results.Result, codec string, instr float64) []results.Result {
	for i := range rs {
		if rs[i].Codec == codec {
			rs[i].InstrPerOp = instr
		}
	}
	return rs
}

// TestCheckByCounts: a claim of time that time leaves undecided (medians
// siding with it, intervals overlapping) is decided by instruction
// counts where the run counted, and says so; counts within
// results.CountGap leave it undecided; a claim of size never asks them.
func TestCheckByCounts(t *testing.T) {
	better := claims.Claim{ID: "t-better", Rule: claims.Better,
		Test: claims.Experiment{Measure: claims.RoundTrip, Codecs: []string{"a", "b"}, Datasets: []string{"tiny"}, Shapes: []dataset.Shape{dataset.Single}}}
	undecided := func() []results.Result { return cat(both("a", "tiny", 100, 10), both("b", "tiny", 104, 10)) }
	tests := []struct {
		name     string
		rs       []results.Result
		verdict  claims.Verdict
		byCounts bool
	}{
		{"time alone: undecided", undecided(), claims.Undecided, false},
		{"counts 3x apart: they decide", withCounts(withCounts(undecided(), "a", 1000), "b", 3000), claims.Holds, true},
		{"counts against the claim", withCounts(withCounts(undecided(), "a", 3000), "b", 1000), claims.NotHold, true},
		{"counts within the gap: still undecided", withCounts(withCounts(undecided(), "a", 1000), "b", 1010), claims.Undecided, false},
		{"one side not counted: time's verdict", withCounts(undecided(), "a", 1000), claims.Undecided, false},
		{"time apart: time decides", withCounts(withCounts(cat(both("a", "tiny", 100, 10), both("b", "tiny", 300, 10)), "a", 3000), "b", 1000), claims.Holds, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := claims.Check(better, tt.rs)
			if o.Verdict != tt.verdict || o.ByCounts != tt.byCounts {
				t.Errorf("verdict %q by counts %v (%s); want %q by counts %v", o.Verdict, o.ByCounts, o.Reason, tt.verdict, tt.byCounts)
			}
			if o.ByCounts && !strings.Contains(o.Reason, "instruction counts") {
				t.Errorf("reason %q does not say the counts decided", o.Reason)
			}
		})
	}
}

// TestLighterByCounts: a claim that one dataset is lighter for a codec
// than another, which time leaves undecided, is decided by the counts of
// the two datasets, either way.
func TestLighterByCounts(t *testing.T) {
	lighter := claims.Claim{ID: "t-lighter", Rule: claims.LighterData,
		Test: claims.Experiment{Measure: claims.EncodeTime, Codecs: []string{"json"}, Datasets: []string{"user", "metric"}, Shapes: []dataset.Shape{dataset.Single}}}
	counted := func(user, metric float64) []results.Result {
		u, m := res(results.Encode, "json", "user", 100, 40), res(results.Encode, "json", "metric", 104, 40)
		u.InstrPerOp, m.InstrPerOp = user, metric
		return []results.Result{u, m}
	}
	for _, tt := range []struct {
		name     string
		rs       []results.Result
		verdict  claims.Verdict
		byCounts bool
	}{
		{"counts side with it", counted(2000, 4000), claims.Holds, true},
		{"counts against it", counted(4000, 2000), claims.NotHold, true},
		{"counts within the gap", counted(2000, 2010), claims.Undecided, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := claims.Check(lighter, tt.rs)
			if o.Verdict != tt.verdict || o.ByCounts != tt.byCounts {
				t.Errorf("verdict %q by counts %v (%s); want %q by counts %v", o.Verdict, o.ByCounts, o.Reason, tt.verdict, tt.byCounts)
			}
		})
	}
}
