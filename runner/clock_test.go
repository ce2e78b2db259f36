package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// A fakeClock stands still until a test's loop or probe moves it on, so
// that what a runner measures by it (batches, samples, budgets, waits) is
// the same on any machine, however fast or busy.
type fakeClock struct{ ns atomic.Int64 }

func newFakeClock() *fakeClock {
	c := new(fakeClock)
	c.ns.Store(time.Unix(1e9, 0).UnixNano())
	return c
}

func (c *fakeClock) now() time.Time { return time.Unix(0, c.ns.Load()) }

func (c *fakeClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// work returns a loop whose every iteration takes d by the clock; with
// more than one d, its calls take them in turn.
func (c *fakeClock) work(d ...time.Duration) loop {
	calls := 0
	return func(n int) error {
		c.advance(time.Duration(n) * d[calls%len(d)])
		calls++
		return nil
	}
}

// onClock returns a runner with opts whose batches, samples, budgets,
// meter and gauge all go by clock.
func onClock(t *testing.T, opts Options, clock *fakeClock) *Runner {
	t.Helper()
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	r.now, r.meter.Now = clock.now, clock.now
	if r.gauge != nil {
		r.gauge.Now = clock.now
	}
	return r
}

// TestCalibrateSubNanosecond: an operation of a fraction of a nanosecond
// (a self-timed loop) reaches the batch time in a few steps; n used to
// grow by one a step once a batch read under a nanosecond per iteration.
func TestCalibrateSubNanosecond(t *testing.T) {
	for _, perOp := range []float64{0.3, 0.9, 1.5, 40} {
		clock := newFakeClock()
		r := onClock(t, Options{NoGC: true}, clock)
		calls := 0
		l := func(n int) error {
			calls++
			clock.advance(time.Duration(float64(n) * perOp))
			return nil
		}
		n, err := r.calibrate(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		if got := time.Duration(float64(n) * perOp); got < r.opts.BatchTime {
			t.Errorf("%vns/op: calibrated to n=%d, a batch of %v, under the batch time %v", perOp, n, got, r.opts.BatchTime)
		}
		// Each step and the warm-up are counted: a handful of steps,
		// then SampleTime/BatchTime warm-up batches at most.
		if limit := 20 + int(r.opts.SampleTime/r.opts.BatchTime); calls > limit {
			t.Errorf("%vns/op: %d batches to calibrate, want at most %d", perOp, calls, limit)
		}
	}
}
