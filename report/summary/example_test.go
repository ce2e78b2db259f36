package summary_test

import (
	"fmt"

	"github.com/serbench/serbench/report/summary"
	"github.com/serbench/serbench/results"
)

// ExampleAnswers answers a run of two codecs on one dataset shape: a is
// smaller and faster beyond noise, so it is named, with b behind it.
func ExampleAnswers() {
	run := &results.Run{}
	for _, c := range []struct {
		codec string
		ns    float64
		size  int
	}{{"a", 100, 10}, {"b", 300, 30}} {
		for _, op := range results.Ops {
			run.Results = append(run.Results, results.Result{Op: op, Codec: c.codec, Dataset: "tiny", Shape: "single", Status: results.OK,
				Bytes: c.size, NsPerOp: results.Stat{Median: c.ns, Lo: 0.95 * c.ns, Hi: 1.05 * c.ns}})
		}
	}
	answers, _ := summary.Answers(run)
	for _, a := range answers {
		fmt.Printf("%s: %q, runner-up %q\n", a.Question, a.Winner, a.RunnerUp)
	}
	// Output:
	// Smallest encoding: "a", runner-up "b"
	// Fastest encode: "a", runner-up "b"
	// Fastest decode: "a", runner-up "b"
	// Best balance (round-trip time × size): "a", runner-up "b"
}
