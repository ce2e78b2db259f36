package runner

import (
	"context"
	"runtime"
	"strings"
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

// TestSampleSpansWholeCycles checks that a sample of a loop that
// allocates fast, after its run-in, spans a whole number of collection
// cycles (at least one), so that no sample is a cycle-free stretch after
// the forced collection: the loop allocates 64 KB every 20µs, so a 1ms
// sample right after the collection holds less than a heap goal (4 MB or
// more) and no cycle.
func TestSampleSpansWholeCycles(t *testing.T) {
	const size = 64 << 10
	alloc := func(n int) error {
		for range n {
			allocSink = make([]byte, size)
			for start := time.Now(); time.Since(start) < 20*time.Microsecond; {
			}
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
	r, err := New(Options{Budget: time.Second, SampleTime: time.Millisecond, BatchTime: 10 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		s, elapsed, err := r.timeSample(alloc, 1, a)
		if err != nil {
			t.Fatal(err)
		}
		if s.GCs < 1 {
			t.Errorf("a sample of %d iterations (%.1f MB in %v) held no collection; want at least one",
				s.Iters, float64(s.Iters)*a.bytes/(1<<20), elapsed)
		}
	}
	off, err := New(Options{Budget: time.Second, SampleTime: time.Millisecond, BatchTime: 10 * time.Microsecond, NoRunIn: true})
	if err != nil {
		t.Fatal(err)
	}
	if s, _, err := off.timeSample(alloc, 1, a); err != nil || s.GCs != 0 {
		t.Errorf("without the run-in: %d collections, error %v; want none", s.GCs, err)
	}
}

// TestRunIn checks that, after the collection before a sample, an
// operation that allocates fast is run through a collection cycle of its
// own, so that its sample starts inside the collector's steady state, and
// that one that allocates slowly, or not at all, is not run at all.
func TestRunIn(t *testing.T) {
	const size = 64 << 10
	tests := []struct {
		name      string
		bytes     int // allocated per iteration
		a         allocation
		wantCycle bool
	}{
		{"no allocation", 0, allocation{bytes: 0, ns: 100}, false},
		{"slow: a heap goal of 64 B allocations would take 65ms", 64, allocation{bytes: 64, ns: 1000}, false},
		{"fast: a heap goal of 64 KB allocations in 1ms", size, allocation{bytes: size, ns: 16000}, true},
	}
	r, err := New(Options{Budget: time.Second, SampleTime: 4 * time.Millisecond, BatchTime: 10 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			l := func(n int) error {
				for range n {
					calls++
					if tt.bytes > 0 {
						allocSink = make([]byte, tt.bytes)
					}
				}
				return nil
			}
			runtime.GC()
			c0 := gcCycles()
			cycle, err := r.runIn(l, 1, tt.a)
			if err != nil {
				t.Fatal(err)
			}
			cycles := gcCycles() - c0
			if tt.wantCycle && (cycles < 1 || cycle < 1 || calls < cycle) {
				t.Errorf("run in for %d calls and %d collection cycles, a cycle of %d; want a cycle", calls, cycles, cycle)
			}
			if !tt.wantCycle && (calls > 0 || cycle != 0) {
				t.Errorf("run in for %d calls, a cycle of %d; want none", calls, cycle)
			}
		})
	}
}

// TestRunInError checks that a loop failing during the run-in fails the
// sample with its error.
func TestRunInError(t *testing.T) {
	r, err := New(Options{Budget: time.Second, SampleTime: 4 * time.Millisecond, BatchTime: 10 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	l := func(n int) error {
		calls += n
		if calls > 1 {
			panic("broken codec")
		}
		allocSink = make([]byte, 64<<10)
		return nil
	}
	_, _, err = r.timeSample(l, 1, allocation{bytes: 64 << 10, ns: 1000})
	if err == nil || !strings.Contains(err.Error(), "broken codec") {
		t.Errorf("timeSample: %v; want the run-in's panic", err)
	}
}
