package measure

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// firstPass is the part of a whole-run time (-time) the first pass over
// every benchmark gets, in percent. The rest goes to the refining pass:
// the benchmarks whose order against a rival this run has not settled
// (results.Contested) are sampled again, so that the budget is spent
// where an answer or a ranking is decided rather than evenly.
const firstPass = 65

// minRefine is the least time left worth a refining pass.
const minRefine = 2 * time.Second

// refine samples the contested benchmarks of run again until end, and
// then those whose order the machine's two speeds could turn
// (results.Turnable: a second window for each, later in the run), each
// result merged with its first (runner.Merge) and reported to
// cfg.Finished as final again (a journal keeps the later line). It
// returns what measured them, for its peak memory, and the error that
// ended it early.
func refine(ctx context.Context, run *results.Run, jobs []runner.Job, cfg Config, end time.Time, machine results.Machine) (peaker, error) {
	left := time.Until(end)
	if left < minRefine {
		return nil, nil
	}
	contested := results.Contested(run.Results)
	var turnable []string
	for _, k := range results.Turnable(run.Results, machine) {
		if _, found := slices.BinarySearch(contested, k); !found {
			turnable = append(turnable, k)
		}
	}
	if len(contested)+len(turnable) == 0 {
		return nil, nil
	}
	todo := append(Select(jobs, contested), Select(jobs, turnable)...)
	first := map[string]results.Result{}
	for _, r := range run.Results {
		first[r.Key()] = r
	}
	opts := cfg.Options
	opts.Total = left
	merged := map[string]results.Result{}
	finished := func(j *runner.Job, r results.Result) {
		m := runner.Merge(first[r.Key()], r, opts)
		merged[r.Key()] = m
		if cfg.Finished != nil {
			cfg.Finished(j, m)
		}
	}
	var progress func(runner.Event)
	if cfg.Progress != nil {
		progress = func(e runner.Event) {
			e.Refining = true
			cfg.Progress(e)
		}
	}
	m, err := cfg.measurer(opts, finished, progress)
	if err != nil {
		return nil, err
	}
	_, runErr := m.Run(ctx, todo)
	for i := range run.Results {
		if r, ok := merged[run.Results[i].Key()]; ok {
			run.Results[i] = r
		}
	}
	run.Refined = len(merged)
	return m, runErr
}

// Select returns the jobs with only the ops whose benchmark keys are
// listed.
func Select(jobs []runner.Job, keys []string) []runner.Job {
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	var out []runner.Job
	for _, j := range jobs {
		var ops []results.Op
		for _, op := range j.Ops {
			if want[j.Key(op)] {
				ops = append(ops, op)
			}
		}
		if len(ops) > 0 {
			j.Ops = ops
			out = append(out, j)
		}
	}
	return out
}

func maxMemory(a, b results.Memory) results.Memory {
	return results.Memory{HeapBytes: max(a.HeapBytes, b.HeapBytes), RSSBytes: max(a.RSSBytes, b.RSSBytes)}
}

// overrun is how far past its whole-run time (-time) a run may go: the
// benchmark in progress then is stopped, and it and those not reached are
// cut short.
var overrun = func(total time.Duration) time.Duration { return max(total/20, 10*time.Second) }

// cutShort returns a result for each benchmark of todo that done lacks,
// skipped because the run's time ended first. They are not journaled, so
// that -resume measures them.
func cutShort(todo []runner.Job, done []results.Result, total time.Duration) []results.Result {
	have := map[string]bool{}
	for _, r := range done {
		have[r.Key()] = true
	}
	var out []results.Result
	for _, j := range todo {
		for _, op := range j.Ops {
			r := results.Result{Op: op, Codec: j.Codec.Name, Dataset: j.Dataset, Shape: j.Shape, Items: j.Items, Procs: j.Procs,
				Status: results.Skipped, CutShort: true,
				Reason: fmt.Sprintf("cut short: the run's time (-time %v) ended before it was measured; a longer -time or a narrower selection measures it", total)}
			if !have[r.Key()] {
				out = append(out, r)
			}
		}
	}
	return out
}

// cutWarning says how many benchmarks the run's time cut short.
func cutWarning(run *results.Run) string {
	n := 0
	for i := range run.Results {
		if run.Results[i].CutShort {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d benchmarks were cut short: the run's time (-time %v) ended before they were measured; -resume DIR measures them, or a longer -time", n, time.Duration(run.Options.Time))
}

// setupGuess is the time a benchmark takes beyond its sampling budget
// and the passes over its value that Predict counts (calibrating, the
// floors, the worker's share of the run).
const setupGuess = 200 * time.Millisecond

// Estimate returns about how long measuring jobs takes with opts: the
// whole-run time when one is set (and a run ends within it, cutting short
// what it does not reach), else a budget and a setup per benchmark,
// uncalibrated (Predict with costs calibrated counts the checks).
func Estimate(jobs []runner.Job, opts runner.Options) time.Duration {
	return Predict(jobs, opts, nil, nil, 0).Total
}
