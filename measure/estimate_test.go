package measure

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/registry"
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
	f := Predict(jobs, opts, nil, nil, 0)
	tail := tailGuess + 2*freshGuess/freshParallel
	if want := 2 * 2 * (time.Second/2 + setupGuess); f.Sampling != want || f.Tail != tail || f.Total != want+tail || f.Checks != 0 || len(f.Beyond) != 0 {
		t.Errorf("without costs: %+v, want %v of budgets alone and the tail, %v", f, want, tail)
	}
	costs := Costs{"tiny/single": each(60, time.Microsecond), "huge/slice": each(14<<20, time.Second)}
	f = Predict(jobs, opts, costs, nil, 0)
	w, fresh := runner.Checks(14<<20, 2), runner.FreshWork(14<<20, 2)
	huge := time.Duration(w.Calls()+fresh.Calls())*time.Second + time.Duration(w.Bounded)*time.Second
	// Each encode's sample is 4s (the call, a decode and two walks), a
	// decode's 3s: six samples are beyond three budgets, three samples
	// are not; and four calls of calibration.
	if sampling := (12+4)*time.Second + (9+4)*time.Second + 2*setupGuess; f.Jobs[1] != sampling+huge {
		t.Errorf("huge/slice's job %v, want %v of sampling (three samples and the calibration an op) and %v of checks", f.Jobs[1], sampling, huge)
	}
	if tiny := 2 * (time.Second/2 + setupGuess); f.Jobs[0] < tiny || f.Jobs[0] > tiny+tiny/10 {
		t.Errorf("tiny/single's job %v, want half its budgets (an idle machine's) and setup, %v, and little more", f.Jobs[0], tiny)
	}
	if f.Jobs[0] >= f.Jobs[1]/10 || f.Total != f.Jobs[0]+f.Jobs[1]+tail {
		t.Errorf("jobs %v, total %v", f.Jobs, f.Total)
	}
	if len(f.Beyond) != 1 || !strings.HasPrefix(f.Beyond[0], "huge/slice (a value of about 15 MB") || !strings.Contains(f.Why(), "huge/slice") {
		t.Errorf("beyond %q, why %q: want huge/slice named", f.Beyond, f.Why())
	}
	opts.Total = time.Minute
	if f = Predict(jobs, opts, costs, nil, 0); !f.Capped || f.Tail != tail || f.Total != time.Minute+tail {
		t.Errorf("with -time 1m: %+v, want capped at -time and its tail, %v", f, tail)
	}
	opts.Total = time.Hour
	if f = Predict(jobs, opts, costs, nil, 0); f.Capped || f.Total != f.Jobs[0]+f.Jobs[1]+tail {
		t.Errorf("with -time 1h: %+v, want the jobs' own time: their first pass needs less than its part of -time", f)
	}
}

// TestPredictAtCodecSpeeds checks that a codec's speed scales json's
// calls in its jobs, and that an unknown speed leaves them as they are.
func TestPredictAtCodecSpeeds(t *testing.T) {
	jobs := []runner.Job{estJob("huge", "slice")}
	opts := runner.Options{Budget: time.Second}
	costs := Costs{"huge/slice": each(14<<20, time.Second)}
	json := Predict(jobs, opts, costs, nil, 0)
	if other := Predict(jobs, opts, costs, Speeds{"cbor": {Encode: 0.5, Decode: 0.5}}, 0); other.Total != json.Total {
		t.Errorf("another codec's speed: %v, want json's cost %v", other.Total, json.Total)
	}
	if unknown := Predict(jobs, opts, costs, Speeds{"json": {}}, 0); unknown.Total != json.Total {
		t.Errorf("an unknown speed: %v, want json's cost %v", unknown.Total, json.Total)
	}
	half := Predict(jobs, opts, costs, Speeds{"json": {Encode: 0.5, Decode: 0.25}}, 0)
	w, fresh := runner.Checks(14<<20, 2), runner.FreshWork(14<<20, 2)
	saved := time.Duration((w.Encodes+fresh.Encodes)*float64(time.Second/2) + (w.Decodes+fresh.Decodes)*float64(time.Second*3/4))
	if half.Checks != json.Checks-saved {
		t.Errorf("half as dear to encode, a quarter to decode: checks %v, want %v less than json's %v", half.Checks, saved, json.Checks)
	}
	// An encode's sample is 0.5+0.25+2 s, six of them beyond three
	// budgets, so three; a decode's 0.25+2 s, three too.
	if want := 3*(2750+2250)*time.Millisecond + 4*(750*time.Millisecond) + 2*setupGuess; half.Sampling != want {
		t.Errorf("sampling %v, want %v: the codec's own calls, three samples an op and the calibration", half.Sampling, want)
	}
}

// TestSpeedJobs checks which value the probe times each codec on: the
// dearest for encoding/json up to probeMax, a shape of every codec.
func TestSpeedJobs(t *testing.T) {
	job := func(c, ds, shape string) runner.Job {
		j := estJob(ds, shape)
		j.Codec.Name = c
		return j
	}
	jobs := []runner.Job{job("gob", "tiny", "single"), job("gob", "big", "slice"), job("gob", "huge", "slice"), job("proto", "huge", "slice"), job("proto", "tiny", "single"), job("cbor", "mine", "single")}
	costs := Costs{"tiny/single": each(60, time.Microsecond), "big/slice": each(1<<20, probeMax), "huge/slice": each(14<<20, time.Second)}
	got := SpeedJobs(jobs, costs)
	want := []SpeedJob{{"gob", "big", "slice"}, {"proto", "tiny", "single"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("SpeedJobs = %v, want %v (cbor's user type has no cost)", got, want)
	}
}

// TestProbeSpeeds checks the probe's child side on a clock that ticks a
// millisecond a reading: every call alike, each codec at json's speed;
// a codec the registry lacks is unknown.
func TestProbeSpeeds(t *testing.T) {
	in := []byte(`[{"codec":"json","dataset":"tiny","shape":"single"},{"codec":"nosuch","dataset":"tiny","shape":"single"}]`)
	resolve := func(c, d, s string) (runner.Job, error) {
		if c != "json" {
			return runner.Job{}, errors.New("no codec " + c)
		}
		info, err := registry.Lookup("json")
		if err != nil {
			return runner.Job{}, err
		}
		return runner.Job{Codec: info, Dataset: d, Shape: s, Value: func() (any, error) { return &struct{ A int }{1}, nil }}, nil
	}
	var steps []string
	out, err := ProbeSpeeds(in, resolve, tickClock(time.Millisecond), func(s string) { steps = append(steps, s) })
	if err != nil {
		t.Fatal(err)
	}
	var got []Speed
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != (Speed{Encode: 1, Decode: 1}) || got[1] != (Speed{}) || len(steps) != 2 {
		t.Errorf("speeds %v after steps %q, want json at 1 (every call one tick) and nosuch unknown", got, steps)
	}
	if _, err := ProbeSpeeds([]byte("{"), resolve, time.Now, func(string) {}); err == nil {
		t.Error("a broken input: no error")
	}
}

// TestPredictOnABusyMachine checks that the share of a CPU measured as a
// command starts stretches the setup and the calls: a quarter of a CPU
// makes them four times as long (Calibrate's least call is an idle
// machine's, near enough); an op then samples for more of its budget
// (sampled); -time stays, not its tail; no share, or a whole one, is an
// idle machine's estimate.
func TestPredictOnABusyMachine(t *testing.T) {
	jobs := []runner.Job{estJob("tiny", "single"), estJob("huge", "slice")}
	opts := runner.Options{Budget: time.Second}
	costs := Costs{"tiny/single": each(60, time.Microsecond), "huge/slice": each(14<<20, time.Second)}
	idle := Predict(jobs, opts, costs, nil, 0)
	if whole := Predict(jobs, opts, costs, nil, 1); whole.Total != idle.Total {
		t.Errorf("a whole CPU: %v, want the idle estimate %v", whole.Total, idle.Total)
	}
	busy := Predict(jobs, opts, costs, nil, 0.25)
	// tiny/single's two ops sample for 7/8 of their budget, not half;
	// huge/slice's for three samples of calls four times as long.
	o, b := opts.WithDefaults(), time.Second*7/8
	tiny, huge := each(60, 4*time.Microsecond), each(14<<20, 4*time.Second)
	want := 4*4*setupGuess + tiny.sampling(results.Encode, o, b) + tiny.sampling(results.Decode, o, b) + huge.sampling(results.Encode, o, b) + huge.sampling(results.Decode, o, b)
	if busy.Sampling != want {
		t.Errorf("a quarter of a CPU: sampling and setup %v, want %v (each of 4 setups four times as long, tiny's budgets 7/8 spent, huge's calls four times as long)", busy.Sampling, want)
	}
	bounded := time.Duration(runner.Checks(14<<20, 2).Bounded) * time.Second
	if calls := idle.Checks - bounded; (busy.Checks-bounded-4*calls).Abs() > time.Microsecond || busy.Share != 0.25 || busy.Total != busy.Sampling+busy.Checks+busy.Tail {
		t.Errorf("a quarter of a CPU: %+v, want the checks' calls four times as long as idle (%v) and the share kept", busy, calls)
	}
	opts.Total = time.Minute
	if f, tail := Predict(jobs, opts, costs, nil, 0.25), 4*(tailGuess+2*freshGuess/freshParallel); f.Total != time.Minute+tail {
		t.Errorf("-time 1m at a quarter of a CPU: %v, want -time and its tail four times as long, %v", f.Total, tail)
	}
}

// TestCountEstimate checks the count pass's estimate (CountEstimate):
// what each job costs in every process (its preparation, and per op the
// windows and warm-up runner.CountWork says, at Valgrind's paces), a
// worker's start per group of a codec's jobs, the checks after timing
// unless another pass made them, the op's time from the timed pass
// where there was one (and only its benchmarks that are OK), and the
// CPU time stretched by the share of a CPU each process gets.
func TestCountEstimate(t *testing.T) {
	us := time.Microsecond
	costs := Costs{"tiny/single": {Bytes: 60, Pass: us, Build: us, Compare: us, Encode: us, Decode: 2 * us},
		"big/slice": {Bytes: 10_000, Pass: 50 * us, Build: 50 * us, Compare: 50 * us, Encode: 50 * us, Decode: 100 * us}}
	// A registry dataset's job draws its pool's builds (ValueAt): up to
	// runner.PoolSize of a small value.
	pooled := func(ds, shape string) runner.Job {
		j := estJob(ds, shape)
		j.ValueAt = func(int) (any, error) { return nil, nil }
		return j
	}
	tiny, big := pooled("tiny", "single"), pooled("big", "slice")
	gob := tiny
	gob.Codec.Name = "gob"
	skipped := big
	skipped.Skip = "not this codec's"
	// op returns the CPU time of counting one op of ns nanoseconds
	// natively over a pool of 64 messages.
	op := func(ns float64) time.Duration {
		counted, warm, windows := runner.CountWork(ns*nativeRate, 64)
		return seconds(counted/countedRate+warm/plainRate) + time.Duration(windows)*windowCost
	}
	plain := func(d time.Duration) time.Duration { return seconds(d.Seconds() * 1e9 * nativeRate / plainRate) }
	tc, bc := costs["tiny/single"], costs["big/slice"]
	prep, all := tc.Of(runner.Checks(60, 0)), tc.Of(runner.Checks(60, 2))
	tinyJob := plain(prep) + op(jsonShare*1000) + op(jsonShare*2000)
	timed := func(ns float64, st results.Status) results.Result {
		return results.Result{Op: results.Encode, Codec: "json", Dataset: "big", Shape: "slice", Status: st, CPUNsPerOp: ns}
	}
	bigPrep := bc.Of(runner.Checks(10_000, 0))
	for _, tc := range []struct {
		name  string
		plan  CountPlan
		share float64
		want  time.Duration
	}{
		{"one job, verified, a CPU each", CountPlan{Jobs: []runner.Job{tiny}, Costs: costs, Verified: true, CPUs: 4}, 1, countStart + tinyJob},
		{"an idle machine of 4 CPUs: a CPU each", CountPlan{Jobs: []runner.Job{tiny}, Costs: costs, Verified: true, CPUs: 4}, 0, countStart + tinyJob},
		{"an idle machine of 2 CPUs: two thirds of one each", CountPlan{Jobs: []runner.Job{tiny}, Costs: costs, Verified: true, CPUs: 2}, 0, (countStart + tinyJob) * 3 / 2},
		{"a quarter of a CPU each", CountPlan{Jobs: []runner.Job{tiny}, Costs: costs, Verified: true, CPUs: 2}, 0.25, (countStart + tinyJob) * 4},
		{"the checks after timing in one process", CountPlan{Jobs: []runner.Job{tiny}, Costs: costs, CPUs: 4}, 1, countStart + tinyJob + plain(all-prep)},
		{"the checks after timing in one process, a quarter of a CPU each", CountPlan{Jobs: []runner.Job{tiny}, Costs: costs, CPUs: 2}, 0.25,
			max((3*(countStart+tinyJob)+plain(all-prep))*4/3, time.Duration(float64(countStart+tinyJob+plain(all-prep))/0.75))},
		{"a worker per group of a codec's jobs", CountPlan{Jobs: []runner.Job{tiny, tiny, gob, skipped}, Costs: costs, Verified: true, CPUs: 4}, 1, 2*countStart + 3*tinyJob},
		{"no calibrated cost: a guess an op", CountPlan{Jobs: []runner.Job{estJob("mine", "single")}, Costs: costs, Verified: true, CPUs: 4}, 1, countStart + 2*countGuess},
		{"costs timed at half a CPU: half their time", CountPlan{Jobs: []runner.Job{tiny},
			Costs:    Costs{"tiny/single": {Bytes: 60, Pass: 2 * us, Build: 2 * us, Compare: 2 * us, Encode: 2 * us, Decode: 4 * us}},
			Verified: true, CPUs: 4, PassShare: 0.5}, 1, countStart + tinyJob},
		{"nothing to count", CountPlan{Jobs: []runner.Job{skipped}, Costs: costs, CPUs: 4}, 1, 0},
		{"timed: the op's own time, the failed op left out", CountPlan{Jobs: []runner.Job{big}, Costs: costs, Verified: true, CPUs: 4,
			Timed: []results.Result{timed(200_000, results.OK), {Op: results.Decode, Codec: "json", Dataset: "big", Shape: "slice", Status: results.Failed}}},
			1, countStart + plain(bigPrep) + op(200_000)},
		{"timed: nothing OK, nothing counted", CountPlan{Jobs: []runner.Job{big}, Costs: costs, Verified: true, CPUs: 4, Timed: []results.Result{timed(1, results.Failed)}}, 1, 0},
	} {
		if got := CountEstimate(tc.plan, tc.share); got-tc.want > time.Microsecond || tc.want-got > time.Microsecond {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// An op's time and its value's size both weigh: the windows of a
	// slow op run it more instructions than the window's least length.
	timedPlan := func(ns float64) time.Duration {
		return CountEstimate(CountPlan{Jobs: []runner.Job{big}, Costs: costs, Verified: true, CPUs: 4, Timed: []results.Result{timed(ns, results.OK)}}, 1)
	}
	if fast, slow := timedPlan(10_000), timedPlan(1_000_000); slow < 5*fast {
		t.Errorf("an op of 1ms: %v; of 10µs: %v; want the slow one's count many times longer", slow, fast)
	}
	untimed := func(j runner.Job) time.Duration {
		return CountEstimate(CountPlan{Jobs: []runner.Job{j}, Costs: costs, Verified: true, CPUs: 4}, 1)
	}
	if untimed(big) <= untimed(tiny) {
		t.Errorf("untimed, a 10 kB value %v, a 60 B one %v: want the larger value's count longer", untimed(big), untimed(tiny))
	}
}

// TestSampled checks the share of its budget an op is expected to
// sample for: half on an idle machine (or none measured), more the
// busier the machine, never more than the whole.
func TestSampled(t *testing.T) {
	for _, tc := range []struct{ share, want float64 }{{0, 0.5}, {1, 0.5}, {2, 0.5}, {0.5, 0.75}, {0.25, 0.875}, {0.01, 0.995}} {
		if got := sampled(tc.share); got != tc.want {
			t.Errorf("sampled(%v) = %v, want %v", tc.share, got, tc.want)
		}
	}
}

// TestSamplingOfAnOp checks how long an op samples for (Cost.sampling):
// its expected part of the budget when six samples fit in it; six
// samples when they do not, up to three budgets; three samples when one
// is longer than a budget; and the calibration's calls before.
func TestSamplingOfAnOp(t *testing.T) {
	o := runner.Options{Budget: time.Second}.WithDefaults()
	for _, tt := range []struct {
		name string
		c    Cost
		op   results.Op
		want time.Duration
	}{
		{"a small value", each(60, time.Microsecond), results.Decode, time.Second/2 + 4*time.Microsecond},
		{"six decodes past half the budget", Cost{Decode: 50 * time.Millisecond, Compare: 25 * time.Millisecond}, results.Decode, 6*100*time.Millisecond + 4*50*time.Millisecond},
		{"six encodes past three budgets", Cost{Encode: 200 * time.Millisecond, Decode: 200 * time.Millisecond, Compare: 100 * time.Millisecond}, results.Encode, 3*time.Second + 4*200*time.Millisecond},
		{"a sample longer than a budget", each(1<<20, 2*time.Second), results.Decode, 3*6*time.Second + 4*2*time.Second},
	} {
		if got := tt.c.sampling(tt.op, o, time.Second/2); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
