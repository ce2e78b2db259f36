package measure

import (
	"context"
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

// refine samples the contested benchmarks of run again until end, each
// result merged with its first (runner.Merge) and reported to
// cfg.Finished as final again (a journal keeps the later line). It
// returns what measured them, for its peak memory, and the error that
// ended it early.
func refine(ctx context.Context, run *results.Run, jobs []runner.Job, cfg Config, end time.Time) (peaker, error) {
	left := time.Until(end)
	if left < minRefine {
		return nil, nil
	}
	contested := results.Contested(run.Results)
	if len(contested) == 0 {
		return nil, nil
	}
	todo := Select(jobs, contested)
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
			r := results.Result{Op: op, Codec: j.Codec.Name, Dataset: j.Dataset, Shape: j.Shape}
			if want[r.Key()] {
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
