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

// each returns the cost of a value of size bytes whose every call takes d.
func each(size int, d time.Duration) Cost {
	return Cost{Bytes: size, Pass: d, Build: d, Compare: d, Encode: d, Decode: d}
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
		if cost != each(cost.Bytes, time.Millisecond) || cost.Bytes <= 0 {
			t.Errorf("%s: %+v, want every call 1ms (one tick) and a size", k, cost)
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
	f := Predict(jobs, opts, nil, 0)
	if want := 2 * 2 * (time.Second + setupGuess); f.Total != want || f.Checks != 0 || len(f.Beyond) != 0 {
		t.Errorf("without costs: %+v, want %v of budgets alone", f, want)
	}
	costs := Costs{"tiny/single": each(60, time.Microsecond), "huge/slice": each(14<<20, time.Second)}
	f = Predict(jobs, opts, costs, 0)
	w, fresh := runner.Checks(14<<20, 2), runner.FreshWork(14<<20, 2)
	huge := time.Duration(w.Calls()+fresh.Calls())*time.Second + time.Duration(w.Bounded)*time.Second
	if sampling := 2 * (slowCalls*time.Second + setupGuess); f.Jobs[1] != sampling+huge {
		t.Errorf("huge/slice's job %v, want %v of sampling (%d calls an op) and %v of checks", f.Jobs[1], sampling, slowCalls, huge)
	}
	if tiny := 2 * (time.Second + setupGuess); f.Jobs[0] < tiny || f.Jobs[0] > tiny+tiny/10 {
		t.Errorf("tiny/single's job %v, want its budgets and setup, %v, and little more", f.Jobs[0], tiny)
	}
	if f.Jobs[0] >= f.Jobs[1]/10 || f.Total != f.Jobs[0]+f.Jobs[1] {
		t.Errorf("jobs %v, total %v", f.Jobs, f.Total)
	}
	if len(f.Beyond) != 1 || !strings.HasPrefix(f.Beyond[0], "huge/slice (a value of about 15 MB") || !strings.Contains(f.Why(), "huge/slice") {
		t.Errorf("beyond %q, why %q: want huge/slice named", f.Beyond, f.Why())
	}
	opts.Total = time.Minute
	if f = Predict(jobs, opts, costs, 0); !f.Capped || f.Total != time.Minute+overrun(time.Minute) {
		t.Errorf("with -time 1m: %+v, want capped at -time and its overrun", f)
	}
}

// TestPredictOnABusyMachine checks that the share of a CPU measured as a
// command starts stretches the setup alone: a quarter of a CPU makes it
// four times as long; the budgets (wall time) and the checks (timed at
// that share already) stay; no share, or a whole one, is an idle
// machine's estimate.
func TestPredictOnABusyMachine(t *testing.T) {
	jobs := []runner.Job{estJob("tiny", "single"), estJob("huge", "slice")}
	opts := runner.Options{Budget: time.Second}
	costs := Costs{"tiny/single": each(60, time.Microsecond), "huge/slice": each(14<<20, time.Second)}
	idle := Predict(jobs, opts, costs, 0)
	if whole := Predict(jobs, opts, costs, 1); whole.Total != idle.Total {
		t.Errorf("a whole CPU: %v, want the idle estimate %v", whole.Total, idle.Total)
	}
	busy := Predict(jobs, opts, costs, 0.25)
	if want := idle.Sampling + 4*time.Duration(4-1)*setupGuess; busy.Sampling != want {
		t.Errorf("a quarter of a CPU: sampling and setup %v, want %v (each of 4 setups four times as long)", busy.Sampling, want)
	}
	if busy.Checks != idle.Checks || busy.Share != 0.25 || busy.Total != busy.Sampling+busy.Checks {
		t.Errorf("a quarter of a CPU: %+v, want the checks as timed (%v) and the share kept", busy, idle.Checks)
	}
	opts.Total = time.Minute
	if f := Predict(jobs, opts, costs, 0.25); f.Total != time.Minute+overrun(time.Minute) {
		t.Errorf("-time 1m at a quarter of a CPU: %v, want -time and its overrun", f.Total)
	}
}

// TestCountEstimateOnABusyMachine checks the count pass's estimate: an
// idle machine's CPU time, divided by the share of a CPU its processes
// get; as many waves of processes as the CPUs make.
func TestCountEstimateOnABusyMachine(t *testing.T) {
	jobs := []runner.Job{estJob("tiny", "single"), estJob("small", "single")}
	idle := CountEstimate(jobs, 2, 0)
	if want := 2 * (countStart + 4*countBench); idle != want {
		t.Errorf("idle, 2 CPUs: %v, want %v (two waves of one worker and four benchmarks)", idle, want)
	}
	if got := CountEstimate(jobs, 4, 0); got != idle/2 {
		t.Errorf("idle, 4 CPUs: %v, want one wave, %v", got, idle/2)
	}
	if got := CountEstimate(jobs, 2, 0.2); got != 5*idle {
		t.Errorf("a fifth of a CPU: %v, want five times the idle %v", got, idle)
	}
	if CountThreads(2) != 2 || CountThreads(8) != CountProcs || CountThreads(0) != 1 {
		t.Errorf("CountThreads: %d on 2 CPUs, %d on 8, %d on 0", CountThreads(2), CountThreads(8), CountThreads(0))
	}
}
