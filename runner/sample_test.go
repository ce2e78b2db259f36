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

// TestMinIters checks which operations get samples long enough to hold
// the heap goals: those that allocate fast enough to do so in time.
func TestMinIters(t *testing.T) {
	const goal = 4 << 20
	tests := []struct {
		name  string
		a     allocation
		goals int
		want  int
	}{
		{"no allocation", allocation{bytes: 0, ns: 100}, 2, 0},
		{"goals off", allocation{bytes: 64 << 10, ns: 5000}, 0, 0},
		{"fast: 4 goals of 64 KB allocations in 1.3ms", allocation{bytes: 64 << 10, ns: 5000}, 4, 256},
		{"slow: 4 goals of 64 B allocations would take 262ms", allocation{bytes: 64, ns: 1000}, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.minIters(tt.goals, goal, 10*time.Millisecond); got != tt.want {
				t.Errorf("minIters = %d; want %d", got, tt.want)
			}
		})
	}
}

// TestSampleHoldsHeapGoals checks that a sample of a loop that allocates
// fast runs until it has allocated HeapGoals heap goals, so that the
// collection-free start after the forced collection is a small part of
// it.
func TestSampleHoldsHeapGoals(t *testing.T) {
	const size = 64 << 10
	alloc := func(n int) error {
		for range n {
			allocSink = make([]byte, size)
		}
		return nil
	}
	a, err := allocationOf(alloc, 16)
	if err != nil {
		t.Fatal(err)
	}
	if a.bytes < size || a.bytes > 2*size {
		t.Fatalf("allocationOf: %.0f bytes per op; want about %d", a.bytes, size)
	}
	const minGoal = 4 << 20 // the runtime's smallest heap goal
	const goals = 3
	r, err := New(Options{Budget: 12 * time.Second, SampleTime: 4 * time.Millisecond, BatchTime: 10 * time.Microsecond, HeapGoals: goals})
	if err != nil {
		t.Fatal(err)
	}
	s, elapsed, err := r.timeSample(alloc, 1, a)
	if err != nil {
		t.Fatal(err)
	}
	if allocated := float64(s.Iters) * a.bytes; allocated < goals*minGoal || s.GCs < 1 {
		t.Errorf("the sample allocated %.1f MB in %v with %d collections; want at least %d goals of 4 MB and a collection",
			allocated/(1<<20), elapsed, s.GCs, goals)
	}
}
