package measure

import (
	"cmp"
	"context"
	"slices"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// counting returns the options of a pass that counts instructions
// (runner.Options.Count): a count takes what it takes, so the pass has no
// whole-run time to share.
func counting(opts runner.Options) runner.Options {
	opts.Count, opts.Total = true, 0
	return opts
}

// byCodec returns jobs with each codec's jobs together, in the order the
// codecs first appear: a count pays Valgrind's start of a worker once per
// group of consecutive jobs of one codec (runner.Groups), and a count
// does not depend on what ran before it in the worker.
func byCodec(jobs []runner.Job) []runner.Job {
	first := map[string]int{}
	for i, j := range jobs {
		if _, ok := first[j.Codec.Name]; !ok {
			first[j.Codec.Name] = i
		}
	}
	out := slices.Clone(jobs)
	slices.SortStableFunc(out, func(a, b runner.Job) int { return cmp.Compare(first[a.Codec.Name], first[b.Codec.Name]) })
	return out
}

// countAlso counts, after the timed pass of a run that measures both
// (Config.AlsoCount), the instructions of every benchmark the timed pass
// measured, in workers of their own (Config.Workers, given counting
// options), and adds them to the timed results: InstrPerOp, or
// CountSkipped with the reason a benchmark could not be counted. The
// count pass is not journaled: a resumed run counts again.
func countAlso(ctx context.Context, run *results.Run, jobs []runner.Job, cfg Config) error {
	ok := map[string]bool{}
	for _, r := range run.Results {
		if r.Status == results.OK {
			ok[r.Key()] = true
		}
	}
	var todo []runner.Job
	for _, j := range jobs {
		var ops []results.Op
		for _, op := range j.Ops {
			if ok[j.Key(op)] {
				ops = append(ops, op)
			}
		}
		if len(ops) > 0 {
			j.Ops = ops
			todo = append(todo, j)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	m, err := cfg.measurer(counting(cfg.Options), nil, nil)
	if err != nil {
		return err
	}
	rs, err := m.Run(ctx, byCodec(todo))
	MergeCounts(run.Results, rs)
	return err
}

// MergeCounts adds the counts of counted (a count pass's results) to the
// results of the same benchmarks in timed: a count's instructions per op,
// or why the benchmark could not be counted.
func MergeCounts(timed, counted []results.Result) {
	by := map[string]*results.Result{}
	for i := range counted {
		by[counted[i].Key()] = &counted[i]
	}
	for i := range timed {
		c := by[timed[i].Key()]
		switch {
		case c == nil:
		case c.Status == results.OK:
			timed[i].InstrPerOp, timed[i].CountSkipped = c.InstrPerOp, c.CountSkipped
		case c.CountSkipped != "":
			timed[i].CountSkipped = c.CountSkipped
		default:
			timed[i].CountSkipped = "counting: " + string(c.Status) + ": " + c.Reason
		}
	}
}
