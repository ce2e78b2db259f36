package runner

import (
	"context"
	"testing"
	"time"
)

// TestSamplesSpanHalfTheBudget checks that a benchmark whose interval
// meets the target at once still samples for half its budget, so that its
// samples cannot all fall in one phase of a shared machine.
func TestSamplesSpanHalfTheBudget(t *testing.T) {
	const budget = 400 * time.Millisecond
	r, err := New(Options{Budget: budget, SampleTime: time.Millisecond, Target: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := &bench{loop: spin(10 * time.Microsecond), n: 10}
	start := time.Now()
	r.sample(context.Background(), []*bench{b}, func(*bench) {})
	took := time.Since(start)
	if !b.done || !b.res.TargetMet {
		t.Fatalf("done %v, target met %v; want both", b.done, b.res.TargetMet)
	}
	if took < budget/2 || took > budget*3/2 {
		t.Errorf("sampled for %v (%d samples); want from half the %v budget to little more than all of it", took, len(b.ns), budget)
	}
	// Between samples the meter probed the machine about every probeEvery.
	if n, most := r.Machine().Probes, int(took/probeEvery)+1; n < most/4 || n > most {
		t.Errorf("the meter probed %d times in %v; want about one probe per %v, at most %d", n, took, probeEvery, most)
	}
	for i, s := range b.res.Samples {
		if s.Probe <= 0 {
			t.Fatalf("sample %d has no probe time; want the meter's latest probe", i)
		}
	}
}

// spin returns a loop whose every call works for about d.
func spin(d time.Duration) loop {
	return func(n int) error {
		for range n {
			for start := time.Now(); time.Since(start) < d; {
			}
		}
		return nil
	}
}

// TestPooledAgainstMedian checks the pooled figure on a loop that runs at
// two speeds in turn, one sample in three slow: the median is the fast
// speed, the pooled figure (total time over total iterations, as
// testing.B reports it) lies between the two.
func TestPooledAgainstMedian(t *testing.T) {
	r, err := New(Options{Budget: 200 * time.Millisecond, SampleTime: time.Millisecond, Target: 1, MinSamples: 9})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0 // one call is one batch, longer than SampleTime: one sample
	fast, slow := spin(2*time.Millisecond), spin(6*time.Millisecond)
	twoSpeed := func(n int) error {
		calls++
		if calls%3 == 0 {
			return slow(n)
		}
		return fast(n)
	}
	b := &bench{loop: twoSpeed, n: 1}
	r.sample(context.Background(), []*bench{b}, func(*bench) {})
	med, pool := b.res.NsPerOp.Median, b.res.PooledNsPerOp
	if want := pooled(b.res.Samples); pool != want {
		t.Fatalf("pooled %v, want the samples' total time over their iterations, %v", pool, want)
	}
	if pool < 1.1*med {
		t.Errorf("median %.0fns, pooled %.0fns; want the pooled figure above the fast median", med, pool)
	}
}

var allocSink []byte

// TestSampleHoldsHeapGoals checks that a sample of an allocating loop
// runs until it has allocated gcWindows heap goals, so that the
// collection-free start after the forced collection is a small part of
// it, unless the budget leaves no room for samples that long.
func TestSampleHoldsHeapGoals(t *testing.T) {
	const size = 64 << 10
	alloc := func(n int) error {
		for range n {
			allocSink = make([]byte, size)
		}
		return nil
	}
	per, err := bytesPerOp(alloc, 16)
	if err != nil {
		t.Fatal(err)
	}
	if per < size || per > 2*size {
		t.Fatalf("bytesPerOp = %.0f; want about %d", per, size)
	}
	const minGoal = 4 << 20 // the runtime's smallest heap goal
	tests := []struct {
		name   string
		budget time.Duration
		goals  bool // whether the sample holds gcWindows goals
	}{
		{"room in the budget", 12 * time.Second, true},
		{"a budget too small for long samples", 12 * time.Millisecond, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(Options{Budget: tt.budget, SampleTime: time.Millisecond, BatchTime: 10 * time.Microsecond})
			if err != nil {
				t.Fatal(err)
			}
			s, elapsed, err := r.timeSample(alloc, 1, per)
			if err != nil {
				t.Fatal(err)
			}
			allocated := float64(s.Iters) * per
			if tt.goals {
				if allocated < gcWindows*minGoal || s.GCs < gcWindows/2 {
					t.Errorf("the sample allocated %.1f MB in %v with %d collections; want at least %d goals of 4 MB and %d collections",
						allocated/(1<<20), elapsed, s.GCs, gcWindows, gcWindows/2)
				}
				return
			}
			if allocated >= gcWindows*minGoal || elapsed > 10*time.Millisecond {
				t.Errorf("the sample allocated %.1f MB in %v; want it to stop near the 1ms sample time", allocated/(1<<20), elapsed)
			}
		})
	}
}
