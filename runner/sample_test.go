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
