package runner

import "time"

// A Plan spreads a whole run's time over its groups of benchmarks: before
// each group it gives every benchmark of the group an equal share of the
// time left, once the setup the benchmarks still to come will need is set
// aside (preparing, verifying and calibrating each job, the checks after
// timing, a worker process per group), so a group that ends early (its
// benchmarks met their interval target) leaves more to the groups after
// it, and a slow one less. The setup per benchmark is learnt as the run
// goes: what each group took beyond the sampling budgets it was given.
// Within a group, benchmarks pool their shares (see budgetPool), so those
// whose intervals stay wide get what the others leave. The run ends within
// its time but for the setup of its last group.
type Plan struct {
	end  time.Time
	left int           // benchmarks not yet given a share
	max  time.Duration // the largest share
	now  func() time.Time

	setup  time.Duration // learnt setup, over done benchmarks
	done   int
	last   time.Time     // when the last group was given its shares
	lastN  int           // its benchmarks
	lastBy time.Duration // the share each got
}

// planShare is the part of the time left, setup set aside, that goes to
// sampling: a margin for a machine that slows down as the run goes.
const planShare = 90 // percent

// setupGuess is the setup per benchmark assumed before any group has
// shown what it is.
const setupGuess = 100 * time.Millisecond

// NewPlan returns a plan for benchmarks to be measured within total, no
// benchmark given more than max (the largest Budget if zero).
func NewPlan(total time.Duration, benchmarks int, max time.Duration) *Plan {
	if max <= 0 {
		max = 10 * time.Minute
	}
	return &Plan{end: time.Now().Add(total), left: benchmarks, max: max, now: time.Now}
}

// Budget returns the sampling budget of each of a group's n benchmarks,
// and counts them as given: an equal share of the time left once the
// setup of the benchmarks still to come is set aside, within the range
// Options.Budget allows.
func (p *Plan) Budget(n int) time.Duration {
	now := p.now()
	if p.lastN > 0 {
		// What the last group took beyond its sampling budgets was setup.
		p.setup += max(0, now.Sub(p.last)-time.Duration(p.lastN)*p.lastBy)
		p.done += p.lastN
	}
	perSetup := setupGuess
	if p.done > 0 {
		perSetup = p.setup / time.Duration(p.done)
	}
	left := max(p.left, n, 1)
	p.left = max(p.left-n, 0)
	sampling := p.end.Sub(now) - perSetup*time.Duration(left)
	share := min(max(sampling*planShare/100/time.Duration(left), minBudget), p.max)
	p.last, p.lastN, p.lastBy = now, n, share
	return share
}

// Left returns the time left to the plan's end.
func (p *Plan) Left() time.Duration { return p.end.Sub(p.now()) }

// minBudget is the smallest budget Options allow.
const minBudget = 10 * time.Millisecond
