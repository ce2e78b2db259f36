package runner

import (
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/serbench/serbench/results"
)

// scripted returns a probe that plays back ns, then repeats its last value.
func scripted(ns ...float64) func() float64 {
	i := 0
	return func() float64 {
		v := ns[min(i, len(ns)-1)]
		i++
		return v
	}
}

func TestGaugeQuiet(t *testing.T) {
	tests := []struct {
		name   string
		probes []float64 // three per call of quiet
		want   []bool
	}{
		{"a steady machine is quiet", []float64{100, 100, 100, 105, 103, 119}, []bool{true, true}},
		{"a slow phase is busy", []float64{100, 100, 100, 160, 150, 170}, []bool{true, false}},
		{"the fastest of three walks counts", []float64{100, 100, 100, 300, 110, 300}, []bool{true, true}},
		{"a faster probe becomes the reference", []float64{100, 100, 100, 50, 50, 50, 100, 100, 100}, []bool{true, true, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGauge(0.2)
			g.probe = scripted(tc.probes...)
			for i, want := range tc.want {
				if got := g.quiet(); got != want {
					t.Errorf("call %d: quiet() = %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestGaugeProbeRuns checks the real probe: it takes time and the machine
// it runs on counts as quiet right after its fastest probe is learned.
func TestGaugeReferenceCreepsUp(t *testing.T) {
	g := newGauge(0.2)
	t0 := time.Now()
	clock := t0
	g.now = func() time.Time { return clock }
	g.probe = scripted(100, 100, 100, 130, 130, 130, 130, 130, 130, 125, 125, 125)
	g.quiet()
	if g.quiet() {
		t.Error("30% slower at once: quiet() = true, want false")
	}
	clock = t0.Add(20 * time.Second) // a slowdown for good: the reference is 140 by now
	if !g.quiet() {
		t.Error("30% slower for 20s: quiet() = false, want true")
	}
	if g.best != 130 {
		t.Errorf("reference %v after the machine slowed down for good, want 130", g.best)
	}
	if !g.quiet() {
		t.Error("125 after a reference of 130: quiet() = false, want true")
	}
}

func TestGaugeProbeRuns(t *testing.T) {
	if d := walk(); d <= 0 {
		t.Fatalf("walk() = %v ns, want > 0", d)
	}
	g := newGauge(10) // generous: only that the reference is learned
	g.warm(10 * time.Millisecond)
	if !g.quiet() {
		t.Error("quiet() = false within 10x of the fastest probe")
	}
}

// benchOf returns a calibrated bench of the do-nothing codec.
func benchOf(t *testing.T, r *Runner) *bench {
	t.Helper()
	var last []byte
	b := &bench{loop: encodeLoop(nop{}, &last), res: results.Result{Op: results.Encode, Status: results.OK}}
	n, err := r.calibrate(context.Background(), b.loop)
	if err != nil {
		t.Fatal(err)
	}
	b.n = n
	return b
}

func TestQuietGate(t *testing.T) {
	opts := Options{Gate: true, SampleTime: 2 * time.Millisecond, Budget: 200 * time.Millisecond, Target: 0.001, MaxSamples: 40}
	t.Run("samples ending in a busy phase are set aside", func(t *testing.T) {
		r, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0 // every eighth check (a post-sample one) finds the machine busy
		r.gauge.probe = func() float64 {
			calls++
			if (calls-1)/3%8 == 7 {
				return 1000
			}
			return 100
		}
		b := benchOf(t, r)
		r.sample(context.Background(), []*bench{b}, func(*bench) {})
		if b.res.Status != results.OK || len(b.res.Samples) < 6 {
			t.Fatalf("status %s with %d samples, want ok with at least 6", b.res.Status, len(b.res.Samples))
		}
		if b.res.Busy == 0 || b.res.Busy > len(b.res.Samples) {
			t.Errorf("%d samples set aside of %d, want some, fewer than kept", b.res.Busy, b.res.Busy+len(b.res.Samples))
		}
	})
	t.Run("a machine busy throughout is measured anyway", func(t *testing.T) {
		r, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		r.gauge.probe = scripted(100, 100, 100, 1000)
		r.gauge.quiet()
		b := benchOf(t, r)
		start := time.Now()
		r.sample(context.Background(), []*bench{b}, func(*bench) {})
		if b.res.Status != results.OK || len(b.res.Samples) < 6 || b.res.Busy != 0 {
			t.Fatalf("status %s with %d samples, %d set aside; want ok, at least 6, all used", b.res.Status, len(b.res.Samples), b.res.Busy)
		}
		// Waiting is charged to the budget and stops at half of it.
		if d := time.Since(start); d > 2*opts.Budget {
			t.Errorf("took %v waiting for a quiet phase that never came", d)
		}
	})
	t.Run("the budget is wall time, waits included", func(t *testing.T) {
		o := opts
		o.Budget = 500 * time.Millisecond
		r, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0 // busy for two checks in three
		r.gauge.probe = func() float64 {
			calls++
			if (calls-1)/3%3 != 0 {
				return 1000
			}
			return 100
		}
		b := benchOf(t, r)
		start := time.Now()
		r.sample(context.Background(), []*bench{b}, func(*bench) {})
		d := time.Since(start)
		if b.res.Status != results.OK || len(b.res.Samples) < 6 {
			t.Fatalf("status %s with %d samples, want ok with at least 6", b.res.Status, len(b.res.Samples))
		}
		if d > o.Budget*3/2 {
			t.Errorf("sampling took %v on a budget of %v", d, o.Budget)
		}
	})
}

// TestSampleIsWholeSample checks that a sample's time per op is the
// whole sample's, as testing.B reports it: a batch in ten that stalls
// counts, and so do the collections that the loop causes.
func TestSampleIsWholeSample(t *testing.T) {
	r, err := New(Options{SampleTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	stalling := func(n int) error {
		calls++
		if calls%10 == 0 {
			time.Sleep(2 * time.Millisecond)
			runtime.GC()
		}
		return nil
	}
	s, elapsed, _, err := r.timeSample(stalling, 1, gcFirst, false)
	if err != nil {
		t.Fatal(err)
	}
	if s.Batches != s.Iters || s.Batches < 10 {
		t.Errorf("%d batches, %d iterations; want equal, at least 10", s.Batches, s.Iters)
	}
	if min := float64(2*time.Millisecond) / 10; s.NsPerOp < min {
		t.Errorf("sample ns/op %v, below the %v the stalls alone take: they were left out", s.NsPerOp, min)
	}
	if got := time.Duration(s.NsPerOp * float64(s.Iters)); (got - elapsed).Abs() > time.Microsecond {
		t.Errorf("ns/op × iterations = %v, elapsed %v; want them equal", got, elapsed)
	}
	if s.GCs < s.Batches/10 {
		t.Errorf("%d collections counted; the loop ran %d", s.GCs, s.Batches/10)
	}
}

// TestCalibrateSurvivesAStall checks that one stalled batch (a first
// call's page faults, a neighbour's burst) does not end calibration with
// too small a count.
func TestCalibrateSurvivesAStall(t *testing.T) {
	r, err := New(Options{SampleTime: 5 * time.Millisecond, BatchTime: 50 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	stallOnce := func(n int) error {
		calls++
		if calls == 2 { // the first timed batch, n = 1
			time.Sleep(200 * time.Microsecond)
		}
		for range n {
			gaugeSink.Add(uint64(len(strconv.Itoa(n))))
		}
		return nil
	}
	n, err := r.calibrate(context.Background(), stallOnce)
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("calibrated to %d iterations per batch; the stall decided it", n)
	}
}
