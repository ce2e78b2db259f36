package measure

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/serbench/serbench/machine"
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
// count pass is not journaled: a resumed run counts again. It reports to
// Config.Progress as a pass of its own (runner.Event.Counting), first with
// an event that says it begins.
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
	opts := counting(cfg.Options)
	opts.Verified = true // the timed pass made the checks after timing
	var progress func(runner.Event)
	if cfg.Progress != nil {
		cfg.Progress(runner.Event{Counting: true, Total: len(todo)})
		progress = func(e runner.Event) {
			e.Counting = true
			cfg.Progress(e)
		}
	}
	rs, _, err := countPasses(ctx, byCodec(todo), cfg, opts, progress)
	MergeCounts(run.Results, rs)
	return err
}

// CountProcs is how many processes count each benchmark: a count repeats
// to a few instructions within a process, but between processes it moves
// by what the process's random hash seeds make its maps' lookups probe
// (docs/harness.md). The median of three processes is a figure two runs
// repeat, and their smallest and largest counts its interval
// (results.Spread).
const CountProcs = 3

// countPasses counts jobs in CountProcs passes at once, each in
// measurers of its own (a busy machine slows a count, it does not move
// it, so the passes share the CPUs), and returns each benchmark's result
// with the median of its counts as InstrPerOp and every pass's count as
// InstrCounts. The first pass runs with opts as given and reports to
// progress; the others count only (Options.Verified). A benchmark that
// is not counted in every pass takes the first such pass's result.
func countPasses(ctx context.Context, jobs []runner.Job, cfg Config, opts runner.Options, progress func(runner.Event)) ([]results.Result, Measurer, error) {
	passes := make([][]results.Result, CountProcs)
	errs := make([]error, CountProcs)
	var first Measurer
	var wg sync.WaitGroup
	for i := range CountProcs {
		o, prog := opts, progress
		if i > 0 {
			o.Verified, prog = true, nil
		}
		m, err := cfg.measurer(o, nil, prog)
		if err != nil {
			return nil, nil, err
		}
		if i == 0 {
			first = m
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			passes[i], errs[i] = m.Run(ctx, jobs)
		}()
	}
	wg.Wait()
	return mergePasses(passes), first, cmp.Or(errs...)
}

// mergePasses returns the first pass's results, each OK one that every
// pass counted with the median of the passes' counts (InstrPerOp) and
// the counts (InstrCounts); one that a pass did not count takes that
// pass's result: why it failed or was skipped there.
func mergePasses(passes [][]results.Result) []results.Result {
	by := make([]map[string]*results.Result, len(passes))
	for i, rs := range passes {
		by[i] = map[string]*results.Result{}
		for j := range rs {
			by[i][rs[j].Key()] = &rs[j]
		}
	}
	var out []results.Result
	for _, r := range passes[0] {
		out = append(out, merged(r, by))
	}
	return out
}

// merged returns r (the first pass's result of a benchmark) with the
// counts of every pass, or the result of the first pass that did not
// count it.
func merged(r results.Result, by []map[string]*results.Result) results.Result {
	if r.Status != results.OK {
		return r
	}
	var counts []float64
	for i := range by {
		o := by[i][r.Key()]
		if o == nil {
			r.Status, r.Reason = results.Error, fmt.Sprintf("counting: process %d of %d ended before the benchmark", i+1, len(by))
			return r
		}
		if o.Status != results.OK {
			return *o
		}
		counts = append(counts, o.InstrPerOp)
	}
	r.InstrCounts = counts
	r.InstrPerOp = results.Spread(counts).Mid
	return r
}

// Costs of a count in CPU time: a worker's start under Valgrind, and one
// benchmark's preparation and windows (the checks after timing left to
// one pass), from the CPU time of count passes of the quick preset's
// codecs (notes/noise-log.md).
const (
	countStart = 1500 * time.Millisecond
	countBench = 300 * time.Millisecond
)

// CountEstimate returns about how long counting jobs takes: CountProcs
// passes, as many at once as there are CPUs (CountThreads), each starting
// a worker per group of a codec's jobs, their CPU time stretched by share,
// the share of a CPU each of CountThreads threads got as the command
// started (machine.Stretch; 0 or 1: an idle machine's time).
func CountEstimate(jobs []runner.Job, cpus int, share float64) time.Duration {
	n, groups := 0, 0
	for i, j := range jobs {
		if j.Skip != "" {
			continue
		}
		n += len(j.Ops)
		if i == 0 || jobs[i-1].Codec.Name != j.Codec.Name {
			groups++
		}
	}
	if n == 0 {
		return 0
	}
	pass := time.Duration(groups)*countStart + time.Duration(n)*countBench
	waves := (CountProcs + max(cpus, 1) - 1) / max(cpus, 1)
	return machine.Stretch(pass*time.Duration(waves), share)
}

// CountThreads is how many of a count pass's processes CountEstimate
// has run at once on cpus CPUs (a CPU each): the threads whose share of
// a CPU, measured as the command starts, stretches its estimate.
func CountThreads(cpus int) int { return min(CountProcs, max(cpus, 1)) }

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
			timed[i].InstrPerOp, timed[i].InstrCounts, timed[i].CountSkipped = c.InstrPerOp, c.InstrCounts, c.CountSkipped
		case c.CountSkipped != "" && timed[i].Status == results.OK:
			timed[i].CountSkipped = c.CountSkipped + "; it runs without Valgrind (the timed pass measured it)"
		case c.CountSkipped != "":
			timed[i].CountSkipped = c.CountSkipped
		default:
			timed[i].CountSkipped = "counting: " + string(c.Status) + ": " + c.Reason
		}
	}
}

// checkSkips checks the reason of each benchmark of rs (a count's merged
// results of jobs) that could not be counted because its child died or
// hung under Valgrind, alone (a skipped result with CountSkipped, as
// worker.Valgrind.Crashed records it): it measures the benchmark again
// without Valgrind, briefly, in a worker of its own. Where it runs there,
// the skip stands and its reason says so; where it fails there too, the
// failure is the codec's and its result is the one without Valgrind.
func checkSkips(ctx context.Context, rs []results.Result, jobs []runner.Job, cfg Config) error {
	skipped := map[string]int{}
	for i, r := range rs {
		if r.Status == results.Skipped && r.CountSkipped != "" {
			skipped[r.Key()] = i
		}
	}
	if len(skipped) == 0 {
		return nil
	}
	var todo []runner.Job
	for _, j := range jobs {
		var ops []results.Op
		for _, op := range j.Ops {
			if _, ok := skipped[j.Key(op)]; ok {
				ops = append(ops, op)
			}
		}
		if len(ops) > 0 {
			j.Ops = ops
			todo = append(todo, j)
		}
	}
	opts := cfg.Options
	opts.Count, opts.Verified, opts.Total, opts.Budget = false, false, 0, nativeBudget
	m, err := cfg.measurer(opts, nil, nil)
	if err != nil {
		return err
	}
	native, err := m.Run(ctx, todo)
	for _, n := range native {
		i, ok := skipped[n.Key()]
		if !ok {
			continue
		}
		if n.Status == results.OK {
			rs[i].CountSkipped += "; it runs without Valgrind (measured again there, it passed)"
			rs[i].Reason = rs[i].CountSkipped
			continue
		}
		rs[i] = n
	}
	return err
}

// nativeBudget is the sampling time of a benchmark measured again without
// Valgrind to check why it could not be counted: long enough for its
// checks, which decide.
const nativeBudget = 50 * time.Millisecond

// finishAll calls finished (Config.Finished) with each result of rs, a
// count's merged results of jobs, as a pass that measures in one process
// calls it with each result the moment it is final.
func finishAll(jobs []runner.Job, rs []results.Result, finished func(*runner.Job, results.Result)) {
	if finished == nil {
		return
	}
	byKey := map[string]*runner.Job{}
	for i := range jobs {
		for _, op := range jobs[i].Ops {
			byKey[jobs[i].Key(op)] = &jobs[i]
		}
	}
	for _, r := range rs {
		finished(byKey[r.Key()], r)
	}
}
