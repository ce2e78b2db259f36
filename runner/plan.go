package runner

import (
	"context"
	"time"

	"github.com/serbench/serbench/results"
)

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

// A GroupRunner measures one group of jobs (see Groups) with opts, whose
// Budget is the group's share of the run's time, calling finished with
// each job's results as they are final.
type GroupRunner func(ctx context.Context, opts Options, group []*Job, finished func(*Job, []results.Result)) ([][]results.Result, error)

// Schedule is the one loop that owns a run's time, for a Runner in this
// process and a worker pool alike: it measures jobs group by group
// through run, giving each group its share of opts.Total (Plan) as its
// budget, reports progress after each job and returns the results in job
// order. When ctx is cancelled it returns the results of the jobs
// finished so far, an interrupted group's too, with ctx's error.
func Schedule(ctx context.Context, opts Options, jobs []Job, progress func(Event), run GroupRunner) ([]results.Result, error) {
	byJob := make([][]results.Result, len(jobs))
	start := time.Now()
	done := 0
	plan := opts.Plan(jobs)
	var err error
	for _, g := range Groups(jobs, opts.NoInterleave) {
		if err = ctx.Err(); err != nil {
			break
		}
		// A group is measured with its share of the run's time as its
		// budget; it plans nothing itself.
		o := opts
		o.Total = 0
		if plan != nil {
			o.Budget = plan.Budget(Benchmarks(g))
		}
		var res [][]results.Result
		res, err = run(ctx, o, g, func(job *Job, rs []results.Result) {
			done++
			if progress != nil {
				progress(Event{Done: done, Total: len(jobs), Job: job, Results: rs, Elapsed: time.Since(start)})
			}
		})
		Place(byJob, jobs, g, res) // an interrupted group's finished jobs too
		if err != nil {
			break
		}
	}
	var out []results.Result
	for _, rs := range byJob {
		out = append(out, rs...)
	}
	return out, err
}
