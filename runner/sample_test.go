package runner

import (
	"context"
	"github.com/serbench/serbench/machine"
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestSamplesSpanHalfTheBudget checks that a benchmark whose interval
// meets the target at once still samples for half its budget, so that its
// samples cannot all fall in one phase of a shared machine, and that the
// meter probes the machine every machine.ProbeEvery between samples. It runs on a
// fake clock: every sample takes 1ms of it and identical time per op, so
// the target is met at the sixth sample and only the span can keep the
// benchmark sampling, to the first sample that starts at half the budget.
func TestSamplesSpanHalfTheBudget(t *testing.T) {
	const budget, sampleTime = 400 * time.Millisecond, time.Millisecond
	clock := newFakeClock()
	r := onClock(t, Options{Budget: budget, SampleTime: sampleTime, Target: 1}, clock)
	walks := 0 // the meter's walks, each returning its number as its time
	r.meter.Probe = func() float64 { walks++; return float64(walks) }
	// 100µs a batch; no collection before each sample: not what this
	// checks, and two hundred take half a second.
	b := &bench{loop: clock.work(10 * time.Microsecond), n: 10, gc: gcRunning}
	r.sample(context.Background(), []*bench{b}, func(*bench) {})
	if !b.done || !b.res.TargetMet {
		t.Fatalf("done %v, target met %v; want both", b.done, b.res.TargetMet)
	}
	want := int(budget/2/sampleTime) + 1 // samples starting at 0, 1ms, ..., budget/2
	if len(b.res.Samples) != want || b.spent != time.Duration(want)*sampleTime {
		t.Errorf("%d samples, %v charged; want %d of %v, the last starting at half the %v budget",
			len(b.res.Samples), b.spent, want, sampleTime, budget)
	}
	// The meter probed at the first sample's start and at every
	// machine.ProbeEvery after it; a sample records the latest probe, the fastest
	// of its three walks (the first).
	perProbe := int(machine.ProbeEvery / sampleTime)
	if n, want := r.Machine().Probes, (want-1)/perProbe+1; n != want {
		t.Errorf("the meter probed %d times over %d samples of %v; want one per %v, %d", n, len(b.res.Samples), sampleTime, machine.ProbeEvery, want)
	}
	for i, s := range b.res.Samples {
		if want := float64(3*(i/perProbe) + 1); s.Probe != want {
			t.Fatalf("sample %d has probe time %v; want the meter's latest probe, %v", i, s.Probe, want)
		}
	}
}

// TestPooledAgainstMedian checks the pooled figure on a loop that runs at
// two speeds in turn, one sample in three slow: the median is the fast
// speed, the pooled figure (total time over total iterations, as
// testing.B reports it) lies between the two. The speeds are a fake
// clock's, so the figures are exact.
func TestPooledAgainstMedian(t *testing.T) {
	const fast, slow = 2 * time.Millisecond, 6 * time.Millisecond
	clock := newFakeClock()
	r := onClock(t, Options{Budget: 200 * time.Millisecond, SampleTime: time.Millisecond, Target: 1, MinSamples: 9}, clock)
	// One call is one batch, longer than SampleTime: one sample.
	b := &bench{loop: clock.work(fast, fast, slow), n: 1}
	r.sample(context.Background(), []*bench{b}, func(*bench) {})
	med, pool := b.res.NsPerOp.Median, b.res.PooledNsPerOp
	if want := pooled(b.res.Samples); pool != want {
		t.Fatalf("pooled %v, want the samples' total time over their iterations, %v", pool, want)
	}
	k := len(b.res.Samples)
	if k < 9 {
		t.Fatalf("%d samples, want at least MinSamples, 9", k)
	}
	total := time.Duration(k)*fast + time.Duration(k/3)*(slow-fast)
	if want := float64(total.Nanoseconds()) / float64(k); med != float64(fast.Nanoseconds()) || pool != want {
		t.Errorf("median %.0fns, pooled %.0fns; want the fast speed, %d, and %.0f, the %d samples' total time over them",
			med, pool, fast.Nanoseconds(), want, k)
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
// cycles of its own, as a program's steady state does: it starts at a
// cycle's end and ends at another, so it holds at least one; and that
// with GCFirst the samples hold none: each 1ms sample allocates 1.6 MB
// (64 KB every 40µs), less than the runtime's smallest heap goal, so a
// sample that starts from a collected heap never reaches a cycle.
//
// The loop's time is a fake clock's, and the loop ends a cycle itself
// (runtime.GC) once it has allocated 2 MB since the last one ended, as a
// heap goal would: a cycle that the runtime starts on its own ends when
// the OS lets its mark workers run, which on a busy machine was after
// up to 300 MB of 64 KB allocations (measured here), so a sample could
// run into cycleWait without a cycle and the test would measure the load.
func TestFastAllocatorPaysItsCollections(t *testing.T) {
	const size = 64 << 10
	const perCycle = 32 // iterations, 2 MB
	newAlloc := func(clock *fakeClock) loop {
		var cycles cycleCounter
		last, since := cycles.read(), 0
		return func(n int) error {
			for range n {
				if c := cycles.read(); c != last {
					last, since = c, 0 // a cycle ended: the heap starts over
				}
				allocSink = make([]byte, size)
				clock.advance(40 * time.Microsecond)
				if since++; since == perCycle {
					runtime.GC()
				}
			}
			return nil
		}
	}
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := r.allocationOf(newAlloc(newFakeClock()), 16)
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
			clock := newFakeClock()
			r := onClock(t, Options{Budget: time.Second, SampleTime: time.Millisecond, BatchTime: 10 * time.Microsecond, GCFirst: tt.gcFirst}, clock)
			alloc := newAlloc(clock)
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
				s, elapsed, atEnd, err := r.timeSample(alloc, nil, 1, mode, aligned && i%2 == 1)
				if err != nil {
					t.Fatal(err)
				}
				if s.GCs < tt.minGCs {
					t.Errorf("sample %d (%v, %.1f MB) held %d collections; want at least %d",
						i, elapsed, float64(s.Iters)*a.bytes/(1<<20), s.GCs, tt.minGCs)
				}
				// A whole-cycle sample ends at a cycle's end, well within
				// cycleWait; a sample from a collected heap does not.
				if atEnd != (mode == gcCycles) || elapsed >= r.cycleWait() {
					t.Errorf("sample %d (%v) ended at a cycle's end: %v; want %v, within %v", i, elapsed, atEnd, mode == gcCycles, r.cycleWait())
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

// TestLongVerificationAnnounced: a verification on the spot that took
// markCheck or more has the next one announced as step "verify" and the
// batches' step "timed" said again after it; a short one is not.
func TestLongVerificationAnnounced(t *testing.T) {
	var at time.Time
	now := func() time.Time { return at }
	spend := markCheck
	c := newControl(4, 1, now, func(int, []byte) error { at = at.Add(spend); return nil })
	var steps []string
	c.mark = func(s string) { steps = append(steps, s) }
	for range 2 {
		if err := c.check(0, nil); err != nil {
			t.Fatal(err)
		}
	}
	spend = markCheck / 2
	for range 2 {
		if err := c.check(0, nil); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{stepVerify, stepTimed, stepVerify, stepTimed}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %v, want %v: the first long check unannounced, the second and the first short one announced, the second short one not", steps, want)
	}
}
