package worker

import (
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/results"
)

// TestClaimsSpent: the parent charges what its own clocks saw a worker
// spend to the cell the worker last said it was in, and flags a result
// whose samples add up to less than tooFastRatio of what its timed cells
// spent: the lesser of their wall time and CPU time. The clocks are injected: each
// step is a tick of known CPU and wall time.
func TestClaimsSpent(t *testing.T) {
	ms := time.Millisecond
	sample := cell{job: 0, op: results.Decode, step: "timed"}
	other := cell{job: 0, op: results.Encode, step: "timed"}
	untimed := cell{job: 0, op: results.Decode, step: "sample"}
	check := cell{job: 0, op: results.Decode, step: "check"}
	type tick struct {
		in        cell
		cpu, wall time.Duration
	}
	for _, tc := range []struct {
		name    string
		ticks   []tick
		samples time.Duration // what the result's samples add up to
		busy    time.Duration // and those set aside
		procs   int
		flagged bool
	}{
		{name: "honest", ticks: []tick{{sample, 100 * ms, 120 * ms}}, samples: 90 * ms},
		{name: "honest, in visits between another bench's", ticks: []tick{{sample, 50 * ms, 50 * ms}, {other, 500 * ms, 500 * ms}, {sample, 50 * ms, 60 * ms}}, samples: 90 * ms},
		{name: "scaled by 4", ticks: []tick{{sample, 100 * ms, 120 * ms}}, samples: 25 * ms, flagged: true},
		{name: "scaled by 4, in visits", ticks: []tick{{sample, 50 * ms, 50 * ms}, {other, 1 * ms, 1 * ms}, {sample, 50 * ms, 60 * ms}}, samples: 25 * ms, flagged: true},
		{name: "on two threads (wall time holds it)", ticks: []tick{{sample, 200 * ms, 100 * ms}}, samples: 90 * ms},
		{name: "on two goroutines", ticks: []tick{{sample, 200 * ms, 200 * ms}}, samples: 180 * ms, procs: 2},
		{name: "scaled on two goroutines", ticks: []tick{{sample, 200 * ms, 100 * ms}}, samples: 20 * ms, procs: 2, flagged: true},
		{name: "scaled by 2", ticks: []tick{{sample, 100 * ms, 100 * ms}}, samples: 45 * ms, flagged: true},
		{name: "scaled by 2 on a machine that gives the worker a quarter of a CPU escapes", ticks: []tick{{sample, 25 * ms, 100 * ms}}, samples: 45 * ms},
		{name: "scaled by 1000 on that machine", ticks: []tick{{sample, 25 * ms, 100 * ms}}, samples: 100 * ms / 1000, flagged: true},
		{name: "the parent's clock read late", ticks: []tick{{sample, 10 * ms, 60 * ms}}, samples: 10 * ms},
		{name: "delayed by the machine's other work", ticks: []tick{{sample, 50 * ms, 150 * ms}}, samples: 120 * ms},
		{name: "samples set aside count", ticks: []tick{{sample, 60 * ms, 60 * ms}}, samples: 10 * ms, busy: 40 * ms},
		{name: "the untimed work around samples is not theirs", ticks: []tick{{untimed, 300 * ms, 300 * ms}, {sample, 60 * ms, 60 * ms}, {untimed, 300 * ms, 300 * ms}}, samples: 50 * ms},
		{name: "the check's time is not sampling", ticks: []tick{{sample, 60 * ms, 60 * ms}, {check, 900 * ms, 900 * ms}}, samples: 50 * ms},
		{name: "too short to judge", ticks: []tick{{sample, ms, ms}}, samples: ms / 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cpu time.Duration
			wall := time.Unix(0, 0)
			c := &claims{clock: func() (time.Duration, time.Time, bool) { return cpu, wall, true }}
			at := cell{job: -1, step: "prepare"}
			c.spend(at) // the first event: the clocks' start
			for _, tk := range tc.ticks {
				at = tk.in // a beat arrives: the worker is now in tk.in
				cpu, wall = cpu+tk.cpu, wall.Add(tk.wall)
				c.spend(at) // the next event: what it spent was at's
			}
			r := &result{Job: 0, Result: results.Result{Op: results.Decode, Status: results.OK, Procs: tc.procs, BusyNs: float64(tc.busy),
				Samples: []results.Sample{{Iters: 1000, NsPerOp: float64(tc.samples) / 1000}}}}
			c.judge(r)
			if got := r.Result.Flagged != ""; got != tc.flagged {
				t.Errorf("flagged %v (%q), want %v", got, r.Result.Flagged, tc.flagged)
			}
			if tc.flagged && !strings.Contains(r.Result.Flagged, "scaled down in the worker") {
				t.Errorf("flag %q does not say what it caught", r.Result.Flagged)
			}
			if r.Result.SamplingCPUNs == 0 || r.Result.SamplingWallNs == 0 {
				t.Errorf("what the sampling spent is not recorded: %+v", r.Result)
			}
		})
	}
	// A worker run under Valgrind, or counting, has no clock to hold it to.
	c := &claims{}
	c.spend(sample)
	r := &result{Result: results.Result{Op: results.Decode, Samples: []results.Sample{{Iters: 1, NsPerOp: 1}}}}
	c.judge(r)
	if r.Result.Flagged != "" || r.Result.SamplingCPUNs != 0 {
		t.Errorf("judged without a clock: %+v", r.Result)
	}
}
