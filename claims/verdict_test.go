package claims_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/claims"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
)

// res returns a measured result with a median and a ±5% interval.
func res(op results.Op, codec, ds string, ns float64, bytes int) results.Result {
	return results.Result{Op: op, Codec: codec, Dataset: ds, Shape: "single", Status: results.OK, Bytes: bytes,
		NsPerOp: results.Stat{Median: ns, Lo: 0.95 * ns, Hi: 1.05 * ns}}
}

// both returns an encode and a decode result of ns each.
func both(codec, ds string, ns float64, bytes int) []results.Result {
	return []results.Result{res(results.Encode, codec, ds, ns, bytes), res(results.Decode, codec, ds, ns, bytes)}
}

func cat(rs ...[]results.Result) []results.Result {
	var out []results.Result
	for _, r := range rs {
		out = append(out, r...)
	}
	return out
}

func TestCheck(t *testing.T) {
	better := claims.Claim{ID: "t-better", Ratio: 10, Rule: claims.Better, Reason: "new encoder per message",
		Test: claims.Experiment{Measure: claims.RoundTrip, Codecs: []string{"a", "b"}, Datasets: []string{"tiny"}, Shapes: []dataset.Shape{dataset.Single}}}
	noRatio := better
	noRatio.Ratio = 0
	crashed := both("b", "tiny", 100, 10)
	crashed[0].Status, crashed[0].Reason = results.Error, "worker crashed"
	failed := both("b", "tiny", 100, 10)
	failed[1].Status, failed[1].Reason = results.Failed, "decoded value differs"
	refuses := claims.Claim{ID: "t-refuses", Rule: claims.Refuses, Reason: "Go version",
		Test: claims.Experiment{Measure: claims.Size, Codecs: []string{"json"}, Datasets: []string{"intmap"}, Shapes: []dataset.Shape{dataset.Single}}}
	noInterval := both("b", "tiny", 100, 10)
	for i := range noInterval {
		noInterval[i].NsPerOp.Lo, noInterval[i].NsPerOp.Hi = 0, 0 // too few samples for an interval
	}
	skipped := res(results.Encode, "json", "intmap", 0, 0)
	skipped.Status = results.Skipped
	cut := skipped
	cut.CutShort, cut.Reason = true, "cut short: the run's time ended"
	cutB := both("b", "tiny", 100, 10)
	for i := range cutB {
		cutB[i].Status, cutB[i].CutShort, cutB[i].NsPerOp = results.Skipped, true, results.Stat{}
	}
	lighter := claims.Claim{ID: "t-lighter", Rule: claims.LighterData,
		Test: claims.Experiment{Measure: claims.EncodeTime, Codecs: []string{"json"}, Datasets: []string{"user", "metric"}, Shapes: []dataset.Shape{dataset.Single}}}
	tests := []struct {
		name    string
		claim   claims.Claim
		rs      []results.Result
		verdict claims.Verdict
		reason  string
		figure  string
	}{
		{"holds", better, cat(both("a", "tiny", 10, 5), both("b", "tiny", 100, 10)), claims.Holds, "", "10×"},
		{"margin far from the article's", better, cat(both("a", "tiny", 10, 5), both("b", "tiny", 15, 10)), claims.Caveat, "by 1.5× where the article says 10×: new encoder", "1.5×"},
		{"the other way", better, cat(both("a", "tiny", 100, 5), both("b", "tiny", 10, 10)), claims.NotHold, "new encoder per message", "0.1×"},
		{"intervals overlap, far from the article's", better, cat(both("a", "tiny", 100, 5), both("b", "tiny", 101, 10)), claims.NotHold, "new encoder", ""},
		{"intervals overlap", noRatio, cat(both("a", "tiny", 100, 5), both("b", "tiny", 106, 10)), claims.Undecided, "the intervals overlap", "1.06×"},
		{"a rival without an interval is not beaten: undecided", better, cat(both("a", "tiny", 10, 5), noInterval), claims.Undecided, "too few samples", "10× (no interval)"},
		{"a harness error", better, cat(both("a", "tiny", 10, 5), crashed), claims.Untestable, "could not be measured: worker crashed", ""},
		{"rival fails", better, cat(both("a", "tiny", 10, 5), failed), claims.NotHold, "b decode on tiny/single failed", ""},
		{"not measured", better, both("a", "tiny", 10, 5), claims.Untestable, "not measured", ""},
		{"untestable", claims.Claim{Rule: claims.None, Untestable: "hardware"}, nil, claims.Untestable, "hardware", ""},
		{"refuses, as claimed", refuses, []results.Result{skipped}, claims.Holds, "", "skipped"},
		{"refuses, cut short: not a refusal", refuses, []results.Result{cut}, claims.NotMeasured, "the run's time ended", ""},
		{"a rival cut short: not measured, not untestable", better, cat(both("a", "tiny", 10, 5), cutB), claims.NotMeasured, "was cut short", ""},
		{"refuses, but encodes", refuses, []results.Result{res(results.Encode, "json", "intmap", 100, 40)}, claims.NotHold, "Go version", "round trip verified, 40 B"},
		{"lighter data", lighter, []results.Result{res(results.Encode, "json", "user", 100, 40), res(results.Encode, "json", "metric", 150, 40)}, claims.Holds, "", "1.5×"},
		{"lighter data, intervals overlap: undecided", lighter, []results.Result{res(results.Encode, "json", "user", 100, 40), res(results.Encode, "json", "metric", 106, 40)}, claims.Undecided, "the intervals overlap", "1.06×"},
		{"heavier data", lighter, []results.Result{res(results.Encode, "json", "user", 150, 40), res(results.Encode, "json", "metric", 100, 40)}, claims.NotHold, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := claims.Check(tt.claim, tt.rs)
			if o.Verdict != tt.verdict || !strings.Contains(o.Reason, tt.reason) || !strings.Contains(o.Figure, tt.figure) {
				t.Errorf("Check = %q, reason %q, figure %q; want %q with %q, figure with %q", o.Verdict, o.Reason, o.Figure, tt.verdict, tt.reason, tt.figure)
			}
		})
	}
}
