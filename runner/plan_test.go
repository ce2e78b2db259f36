package runner

import (
	"testing"
	"time"
)

// TestPlanShares: each group's benchmarks get an equal share of what is
// left; a group that ends early leaves more to the next, and the shares
// stay within the budget's range.
func TestPlanShares(t *testing.T) {
	clock := time.Unix(0, 0)
	p := &Plan{end: clock.Add(100 * time.Second), left: 10, max: 30 * time.Second, now: func() time.Time { return clock }}
	if got, want := p.Budget(2), 7*time.Second; got != want { // 0.7 × 100s / 10
		t.Errorf("first share %v, want %v", got, want)
	}
	clock = clock.Add(4 * time.Second) // the group ended early: 96s for 8
	if got, want := p.Budget(4), 8400*time.Millisecond; got != want {
		t.Errorf("second share %v, want %v", got, want)
	}
	clock = clock.Add(95 * time.Second) // 1s left for the last 4
	if got, want := p.Budget(4), 175*time.Millisecond; got != want {
		t.Errorf("third share %v, want %v", got, want)
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
