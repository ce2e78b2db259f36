package measure

import (
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// tickClock returns a clock that advances by step at each reading: a
// calibration on it times every step alike, whatever the machine's speed.
func tickClock(step time.Duration) func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time { t = t.Add(step); return t }
}

func estJob(ds, shape string) runner.Job {
	return runner.Job{Codec: codec.Info{Name: "json"}, Dataset: ds, Shape: shape, Ops: []results.Op{results.Encode, results.Decode}}
}

// TestCalibrate checks that each dataset shape is timed once, on the
// clock given, and that a user's type (no registry dataset) is left out.
func TestCalibrate(t *testing.T) {
	jobs := []runner.Job{estJob("tiny", "single"), estJob("tiny", "single"), estJob("medium", "slice"), estJob("mine", "single")}
	c := Calibrate(jobs, tickClock(time.Millisecond))
	if len(c) != 2 {
		t.Fatalf("costs of %d shapes, want 2 (tiny/single, medium/slice): %v", len(c), c)
	}
	for k, cost := range c {
		if cost.Pass != time.Millisecond || cost.Bytes <= 0 {
			t.Errorf("%s: %+v, want a pass of 1ms (one tick) and a size", k, cost)
		}
	}
	if c["medium/slice"].Bytes <= c["tiny/single"].Bytes {
		t.Errorf("medium/slice %d bytes, tiny/single %d: want more", c["medium/slice"].Bytes, c["tiny/single"].Bytes)
	}
}

// TestPredict checks what an estimate is made of: budgets and setup
// alone without costs; the calibrated passes beside them; the shapes
// whose checks cost more than their budget named; -time capping it all.
func TestPredict(t *testing.T) {
	jobs := []runner.Job{estJob("tiny", "single"), estJob("huge", "slice")}
	opts := runner.Options{Budget: time.Second}
	f := Predict(jobs, opts, nil)
	if want := 2 * 2 * (time.Second + setupGuess); f.Total != want || f.Checks != 0 || len(f.Beyond) != 0 {
		t.Errorf("without costs: %+v, want %v of budgets alone", f, want)
	}
	costs := Costs{"tiny/single": {Bytes: 60, Pass: time.Microsecond}, "huge/slice": {Bytes: 14 << 20, Pass: time.Second}}
	f = Predict(jobs, opts, costs)
	passes, bounded := runner.Passes(14<<20, 2)
	huge := time.Duration(passes)*time.Second + time.Duration(bounded)*time.Second
	if f.Jobs[1] != 2*(time.Second+setupGuess)+huge {
		t.Errorf("huge/slice's job %v, want budgets and %v of checks", f.Jobs[1], huge)
	}
	if f.Jobs[0] >= f.Jobs[1]/10 || f.Total != f.Jobs[0]+f.Jobs[1] {
		t.Errorf("jobs %v, total %v", f.Jobs, f.Total)
	}
	if len(f.Beyond) != 1 || !strings.HasPrefix(f.Beyond[0], "huge/slice (a value of about 15 MB") || !strings.Contains(f.Why(), "huge/slice") {
		t.Errorf("beyond %q, why %q: want huge/slice named", f.Beyond, f.Why())
	}
	opts.Total = time.Minute
	if f = Predict(jobs, opts, costs); !f.Capped || f.Total != time.Minute+overrun(time.Minute) {
		t.Errorf("with -time 1m: %+v, want capped at -time and its overrun", f)
	}
}
