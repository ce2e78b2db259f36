package cli

import (
	"testing"
	"time"

	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// TestProbeSpeeds runs the speed probe in a real child: a speed for
// each codec that has a calibrated shape, none for a job without one.
// What the speeds are depends on the machine; that each is a positive
// ratio does not.
func TestProbeSpeeds(t *testing.T) {
	var jobs []runner.Job
	for _, c := range []string{"json", "cbor"} {
		j, err := preset.Job(c, "tiny", "single", []results.Op{results.Encode, results.Decode})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	costs := measure.Costs{"tiny/single": {Bytes: 60, Encode: time.Microsecond, Decode: time.Microsecond}}
	speeds := probeSpeeds(jobs, costs)
	if len(speeds) != 2 {
		t.Fatalf("speeds %v, want json's and cbor's", speeds)
	}
	for c, s := range speeds {
		if s.Encode <= 0 || s.Decode <= 0 {
			t.Errorf("%s: %+v, want positive ratios", c, s)
		}
	}
	if got := probeSpeeds(jobs, nil); got != nil {
		t.Errorf("no costs: %v, want no probe", got)
	}
}
