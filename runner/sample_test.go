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

// TestAllocatesFast checks which operations count as fast allocators,
// whose samples go without the collection before them: those that fill a
// heap goal within fastAllocFactor sample times.
func TestAllocatesFast(t *testing.T) {
	tests := []struct {
		name string
		a    allocation
		want bool
	}{
		{"no allocation", allocation{bytes: 0, ns: 100}, false},
		{"slow: a heap goal of 64 B allocations takes 65ms or more", allocation{bytes: 64, ns: 1000}, false},
		{"fast: a heap goal of 64 KB allocations in 1ms (4ms if the goal is 16 MB)", allocation{bytes: 64 << 10, ns: 16000}, true},
	}
	r, err := New(Options{Budget: time.Second, SampleTime: 4 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.allocatesFast(tt.a); got != tt.want {
				t.Errorf("allocatesFast(%+v) = %v; want %v", tt.a, got, tt.want)
			}
		})
	}
}

// TestFastAllocatorPaysItsCollections checks that by default every
// sample of an operation that allocates fast spans whole collection
// cycles its own allocation drives, as a program's steady state does, and
// that with GCFirst the samples hold none: each 1ms sample allocates 1.6 MB
// (64 KB every 40µs), less than the runtime's smallest heap goal, so a
// sample that starts from a collected heap never reaches a cycle.
func TestFastAllocatorPaysItsCollections(t *testing.T) {
	const size = 64 << 10
	alloc := func(n int) error {
		for range n {
			allocSink = make([]byte, size)
			for start := time.Now(); time.Since(start) < 40*time.Microsecond; {
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
	tests := []struct {
		name      string
		gcFirst   bool
		mode      gcMode
		minGCs    int // in every sample
		maxGCsAll int // in the 40
	}{
		{"default: whole cycles", false, gcCycles, 1, 1 << 30},
		{"GCFirst: from a collected heap", true, gcFirst, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(Options{Budget: time.Second, SampleTime: time.Millisecond, BatchTime: 10 * time.Microsecond, GCFirst: tt.gcFirst})
			if err != nil {
				t.Fatal(err)
			}
			mode, err := r.collects(alloc, 1)
			if err != nil {
				t.Fatal(err)
			}
			if mode != tt.mode {
				t.Fatalf("collects = %v; want %v", mode, tt.mode)
			}
			// Half the samples chained, as sampleVisit takes them: each
			// starts where the last ended, without waiting for a cycle.
			gcs, aligned := 0, false
			for i := range 40 {
				s, elapsed, atEnd, err := r.timeSample(alloc, 1, mode, aligned && i%2 == 1)
				if err != nil {
					t.Fatal(err)
				}
				if s.GCs < tt.minGCs {
					t.Errorf("sample %d (%v, %.1f MB) held %d collections; want at least %d",
						i, elapsed, float64(s.Iters)*a.bytes/(1<<20), s.GCs, tt.minGCs)
				}
				// A whole-cycle sample ends at a cycle's end, unless it ran
				// into cycleWait (a machine too busy for a cycle in time).
				if mode == gcCycles && !atEnd && elapsed < r.cycleWait() || mode != gcCycles && atEnd {
					t.Errorf("sample %d (%v) ended at a cycle's end: %v; want %v", i, elapsed, atEnd, !atEnd)
				}
				gcs += s.GCs
				aligned = atEnd
			}
			if gcs > tt.maxGCsAll {
				t.Errorf("40 samples held %d collections; want at most %d", gcs, tt.maxGCsAll)
			}
		})
	}
}
