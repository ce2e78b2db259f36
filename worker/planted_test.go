package worker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/planted"
	"github.com/serbench/serbench/results"
)

// TestPlantedWorkerFaults: each planted attack on the supervisor is
// caught, with the message that names it, and costs json, measured in the
// same run, nothing: a codec that kills its worker is "killed, cause
// unknown" once it has failed again alone; a crash its other benchmark
// caused costs nothing once the benchmark is measured alone; a forged
// result for a rival, a result sent twice and samples that outlast the
// worker are protocol violations.
func TestPlantedWorkerFaults(t *testing.T) {
	p := testPool(t, time.Minute)
	js := jobs(t,
		[3]string{"json", "tiny", "single"},
		[3]string{planted.Killer, "medium", "single"}, [3]string{planted.Killer, "tiny", "single"},
		[3]string{planted.Forger, "tiny", "single"},
		[3]string{planted.Duplicate, "tiny", "single"},
		[3]string{planted.Overclaim, "tiny", "single"},
	)
	res, err := p.Run(context.Background(), js)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2*len(js) {
		t.Fatalf("%d results, want %d", len(res), 2*len(js))
	}
	want := map[string][]string{
		planted.Killer + " tiny":    {"crashed the worker process (killed, cause unknown: SIGKILL", "and again alone in a fresh worker"},
		planted.Forger + " tiny":    {"protocol violation", "a result naming json tiny/single decode for job 0, which is planted-forger tiny/single"},
		planted.Duplicate + " tiny": {"protocol violation", "a second result for planted-duplicate tiny/single decode"},
		planted.Overclaim + " tiny": {"protocol violation", "results whose samples add up to 1h0m0s from a worker that has run for"},
	}
	for _, r := range res {
		says, bad := want[r.Codec+" "+r.Dataset]
		switch {
		case !bad && r.Status != results.OK:
			t.Errorf("%s %s/%s %s: %s (%s), want ok", r.Codec, r.Dataset, r.Shape, r.Op, r.Status, r.Reason)
		case bad && r.Op == results.Decode:
			if r.Status != results.Error {
				t.Errorf("%s decode: %s, want an error", r.Codec, r.Status)
			}
			for _, s := range says {
				if !strings.Contains(r.Reason, s) {
					t.Errorf("%s decode: %q, want %q in it", r.Codec, r.Reason, s)
				}
			}
		}
		if bad && r.Status == results.OK && r.NsPerOp.Median == 1 {
			t.Errorf("%s %s: a forged figure was kept: %+v", r.Codec, r.Op, r)
		}
	}
}

// TestCrashCountsOnlyAlone: a benchmark whose worker crashed because of
// another benchmark in it (planted-neighbour's Tiny decode beside its
// Medium) is measured alone in a fresh worker, and nothing is recorded
// as crashed.
func TestCrashCountsOnlyAlone(t *testing.T) {
	p := testPool(t, time.Minute)
	res, err := p.Run(context.Background(), jobs(t, [3]string{planted.Neighbour, "tiny", "single"}, [3]string{planted.Neighbour, "medium", "single"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 4 {
		t.Fatalf("%d results, want 4", len(res))
	}
	for _, r := range res {
		if r.Status != results.OK {
			t.Errorf("%s %s %s: %s (%s), want ok", r.Codec, r.Dataset, r.Op, r.Status, r.Reason)
		}
	}
	if n := p.Starts(); n < 2 {
		t.Errorf("%d worker started: the planted crash never happened, so the test shows nothing", n)
	}
}
