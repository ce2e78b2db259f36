package runner

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/serbench/serbench/results"
)

// gated returns a runner with the quiet gate on, on clock, whose gauge
// checks the machine with three walks of walkTime each by the clock and
// finds it busy (walks ten times slower) at the checks, counted from 0,
// for which busy says so. The first checks are the gauge's warm-up.
func gated(t *testing.T, opts Options, clock *fakeClock, walkTime time.Duration, busy func(check int) bool) *Runner {
	t.Helper()
	opts.Gate = true
	r := onClock(t, opts, clock)
	walks := 0
	r.gauge.Probe = func() float64 {
		clock.advance(walkTime)
		walks++
		if busy((walks - 1) / 3) {
			return 1000
		}
		return 100
	}
	return r
}

// sampleBench returns a bench whose samples are one batch of 20
// iterations, 100µs and 110µs each by the clock in turn: samples of 2ms
// and 2.2ms, so that the interval of samples of both stays wider than
// any target. No collection before them: not what these tests check, and
// each takes real time.
func sampleBench(clock *fakeClock) *bench {
	return &bench{loop: clock.work(100*time.Microsecond, 110*time.Microsecond), n: 20, gc: gcRunning,
		res: results.Result{Op: results.Encode, Status: results.OK}}
}

// TestQuietGate checks the quiet gate on a fake clock: the gauge's checks
// are scripted busy or quiet and take their time by the clock, as do the
// samples, so what is charged to a benchmark's budget is the same on any
// machine.
func TestQuietGate(t *testing.T) {
	opts := Options{SampleTime: 2 * time.Millisecond, Budget: 200 * time.Millisecond, Target: 0.001, MaxSamples: 40}
	t.Run("samples ending in a busy phase are set aside", func(t *testing.T) {
		clock := newFakeClock()
		r := gated(t, opts, clock, 10*time.Microsecond, func(i int) bool { return i%8 == 7 })
		b := sampleBench(clock)
		r.sample(context.Background(), []*bench{b}, func(*bench) {})
		if b.res.Status != results.OK || len(b.res.Samples) < 6 {
			t.Fatalf("status %s with %d samples, want ok with at least 6", b.res.Status, len(b.res.Samples))
		}
		if b.res.Busy == 0 || b.res.Busy > len(b.res.Samples) {
			t.Errorf("%d samples set aside of %d, want some, fewer than kept", b.res.Busy, b.res.Busy+len(b.res.Samples))
		}
	})
	t.Run("a machine busy throughout is measured anyway", func(t *testing.T) {
		clock := newFakeClock()
		// A check takes 3ms: waiting reaches half the budget in 34 turns,
		// before maxWaits.
		const check = 3 * time.Millisecond
		r := gated(t, opts, clock, check/3, func(i int) bool { return i > 0 })
		r.gauge.Quiet() // the reference: the one quiet check
		b := sampleBench(clock)
		r.sample(context.Background(), []*bench{b}, func(*bench) {})
		if b.res.Status != results.OK || len(b.res.Samples) < 6 || b.res.Busy != 0 {
			t.Fatalf("status %s with %d samples, %d set aside; want ok, at least 6, all used", b.res.Status, len(b.res.Samples), b.res.Busy)
		}
		// Waiting is charged to the budget and stops at half of it; then
		// every turn samples, until the budget is spent.
		if b.waited < opts.Budget/2 || b.waited >= opts.Budget/2+check {
			t.Errorf("waited %v for a quiet phase that never came; want half the %v budget, to the turn", b.waited, opts.Budget)
		}
		turn := check + 2200*time.Microsecond + check // a check, a sample, a check
		if b.spent < opts.Budget || b.spent >= opts.Budget+turn {
			t.Errorf("spent %v on a budget of %v; want the budget, to the turn (%v)", b.spent, opts.Budget, turn)
		}
	})
	t.Run("the budget is wall time, waits included", func(t *testing.T) {
		o := opts
		o.MaxSamples = 0 // no cap: the budget ends sampling
		clock := newFakeClock()
		// Busy for two checks in three; a check takes 30µs.
		const check = 30 * time.Microsecond
		r := gated(t, o, clock, check/3, func(i int) bool { return i%3 != 0 })
		b := sampleBench(clock)
		r.sample(context.Background(), []*bench{b}, func(*bench) {})
		if b.res.Status != results.OK || len(b.res.Samples) < 6 {
			t.Fatalf("status %s with %d samples, want ok with at least 6", b.res.Status, len(b.res.Samples))
		}
		// Every moment of the clock from the first turn on is charged:
		// the samples, the checks and the waits.
		if took := clock.now().Sub(b.first); b.spent != took || b.waited == 0 {
			t.Errorf("charged %v (%v of it waiting) for %v of sampling; want all of it, waits included", b.spent, b.waited, took)
		}
		turn := check + 2200*time.Microsecond + check
		if b.spent < o.Budget || b.spent >= o.Budget+turn {
			t.Errorf("spent %v on a budget of %v; want the budget, to the turn (%v)", b.spent, o.Budget, turn)
		}
	})
}

// TestSampleIsWholeSample checks that a sample's time per op is the
// whole sample's, as testing.B reports it: a batch in ten that stalls
// counts, and so do the collections that the loop causes. The batches
// take their time by a fake clock: 100µs, and a stall of 2ms in every
// tenth.
func TestSampleIsWholeSample(t *testing.T) {
	const batch, stall = 100 * time.Microsecond, 2 * time.Millisecond
	clock := newFakeClock()
	r := onClock(t, Options{SampleTime: 100 * time.Millisecond}, clock)
	calls := 0
	stalling := func(n int) error {
		calls++
		clock.advance(batch)
		if calls%10 == 0 {
			clock.advance(stall)
			runtime.GC()
		}
		return nil
	}
	s, elapsed, _, err := r.timeSample(stalling, nil, 1, gcFirst, false)
	if err != nil {
		t.Fatal(err)
	}
	if s.Batches != s.Iters || s.Batches < 10 {
		t.Fatalf("%d batches, %d iterations; want equal, at least 10", s.Batches, s.Iters)
	}
	stalls := s.Batches / 10
	want := time.Duration(s.Batches)*batch + time.Duration(stalls)*stall
	if elapsed != want || elapsed < r.opts.SampleTime || elapsed-batch-stall >= r.opts.SampleTime {
		t.Errorf("sample of %d batches took %v; want %v, its every batch, the first to reach %v", s.Batches, elapsed, want, r.opts.SampleTime)
	}
	if got := time.Duration(s.NsPerOp * float64(s.Iters)); got != elapsed {
		t.Errorf("ns/op × iterations = %v, elapsed %v; want them equal: the stalls counted", got, elapsed)
	}
	if s.GCs < stalls {
		t.Errorf("%d collections counted; the loop ran %d", s.GCs, stalls)
	}
}

// TestCalibrateSurvivesAStall checks that one stalled batch (a first
// call's page faults, a neighbour's burst) does not end calibration with
// too small a count: a loop whose first timed batch stalls calibrates to
// the count of the same loop without the stall. The loop takes 100ns an
// iteration by a fake clock; the stall is four times BatchTime, or longer
// than a whole sample (a loaded machine's time slice elsewhere), and
// comes at the first timed batch or at two in a row.
func TestCalibrateSurvivesAStall(t *testing.T) {
	clock := newFakeClock()
	r := onClock(t, Options{SampleTime: 5 * time.Millisecond, BatchTime: 50 * time.Microsecond}, clock)
	calibrated := func(stall time.Duration, at ...int) int {
		calls := 0
		l := func(n int) error {
			calls++
			if slices.Contains(at, calls) {
				clock.advance(stall)
			}
			clock.advance(time.Duration(n) * 100 * time.Nanosecond)
			return nil
		}
		n, err := r.calibrate(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	steady := calibrated(0)
	if steady < 100 {
		t.Fatalf("calibrated to %d iterations per batch without a stall, want at least 100", steady)
	}
	for _, tt := range []struct {
		stall time.Duration
		at    []int // the loop's calls that stall: 2 is the first timed batch, n = 1
	}{
		{200 * time.Microsecond, []int{2}},
		{20 * time.Millisecond, []int{2}},
		{20 * time.Millisecond, []int{2, 3}},
	} {
		if got := calibrated(tt.stall, tt.at...); got != steady {
			t.Errorf("a stall of %v at calls %v: calibrated to %d iterations per batch, %d without; want the same", tt.stall, tt.at, got, steady)
		}
	}
}
