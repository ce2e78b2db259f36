package runner

import "time"

// A Plan spreads a whole run's time over its groups of benchmarks: before
// each group it gives every benchmark of the group an equal share of the
// time left, so a group that ends early (its benchmarks met their
// interval target) leaves more to the groups after it, and a slow one
// less. Within a group, benchmarks pool their shares (see budgetPool), so
// those whose intervals stay wide get what the others leave. The run ends
// within its time but for the setup of its last group.
type Plan struct {
	end  time.Time
	left int           // benchmarks not yet given a share
	max  time.Duration // the largest share
	now  func() time.Time
}

// planShare is the part of the time left that goes to sampling; the rest
// is for setup: preparing, verifying and calibrating each job, the checks
// after timing, worker processes.
const planShare = 70 // percent

// NewPlan returns a plan for benchmarks to be measured within total, no
// benchmark given more than max (the largest Budget if zero).
func NewPlan(total time.Duration, benchmarks int, max time.Duration) *Plan {
	if max <= 0 {
		max = 10 * time.Minute
	}
	return &Plan{end: time.Now().Add(total), left: benchmarks, max: max, now: time.Now}
}

// Budget returns the sampling budget of each of a group's n benchmarks,
// and counts them as given: an equal share of the time left, within the
// range Options.Budget allows.
func (p *Plan) Budget(n int) time.Duration {
	rem := p.end.Sub(p.now())
	left := max(p.left, n, 1)
	p.left = max(p.left-n, 0)
	share := rem * planShare / 100 / time.Duration(left)
	return min(max(share, minBudget), p.max)
}

// Left returns the time left to the plan's end.
func (p *Plan) Left() time.Duration { return p.end.Sub(p.now()) }

// minBudget is the smallest budget Options allow.
const minBudget = 10 * time.Millisecond
