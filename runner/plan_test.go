package runner

import (
	"testing"
	"time"
)

// TestPlanShares: each group's benchmarks get an equal share of what is
// left once the setup still to come is set aside; the setup per benchmark
// is learnt from what groups took beyond their budgets; a group that ends
// early leaves more to the next, and the shares stay within the budget's
// range.
func TestPlanShares(t *testing.T) {
	clock := time.Unix(0, 0)
	p := &Plan{end: clock.Add(100 * time.Second), left: 10, max: 30 * time.Second, now: func() time.Time { return clock }}
	// 100s, less the guessed 0.1s of setup for each of 10, 90% of it for 10.
	if got, want := p.Budget(2), 8910*time.Millisecond; got != want {
		t.Errorf("first share %v, want %v", got, want)
	}
	// The group took 20s for 2 × 8.91s of budget: 1.09s of setup each.
	clock = clock.Add(20 * time.Second)
	// 80s left, less 8 × 1.09s, 90% of it for 8.
	if got, want := p.Budget(4), 8019*time.Millisecond; got != want {
		t.Errorf("second share %v, want %v", got, want)
	}
	// The group ended early (its intervals met the target): no setup
	// learnt from it, and more left for the last four.
	clock = clock.Add(10 * time.Second)
	if got := p.Budget(4); got < 10*time.Second {
		t.Errorf("third share %v, want more than the 10s an early group leaves", got)
	}
	clock = clock.Add(time.Hour) // past the end: the smallest budget
	if got := p.Budget(1); got != minBudget {
		t.Errorf("share past the end %v, want %v", got, minBudget)
	}
	p = &Plan{end: clock.Add(time.Hour), left: 1, max: time.Second, now: func() time.Time { return clock }}
	if got := p.Budget(1); got != time.Second {
		t.Errorf("share %v, want the cap of 1s", got)
	}
}
