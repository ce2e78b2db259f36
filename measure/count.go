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

// The pace of a count, measured on this machine (notes/noise-log.md,
// count43: a loop of known instructions natively and under callgrind,
// and the CPU time of count passes of one and six jobs):
//
//   - countStart is the CPU time of a worker's start under Valgrind
//     (reading serbench's symbols, its packages' initialization), paid
//     once per group of a codec's consecutive jobs;
//   - countedRate is how many instructions a second Valgrind runs where
//     it counts them (the windows), plainRate where its instrumentation
//     is off (preparing the pool, the checks after timing, the warm-up);
//   - nativeRate is how many instructions a nanosecond of native CPU
//     time runs: it turns an op's time, and a pass over a value, into
//     instructions;
//   - windowCost is each window's own cost: the collection and the
//     return of free pages before it, the code translated again with
//     instrumentation as it starts, the dump of its count after;
//   - jsonShare is an op's native time per unit of the time Calibrate
//     took for encoding/json's call of its kind on the value (Cost.call),
//     for a count no timed pass measured (-measure instructions): codecs
//     differ by a few times either way, which only timing tells, and
//     vtproto, msgpack and cbor count about half of json's instructions
//     on this machine's large values, json itself all of them.
const (
	countStart  = 2 * time.Second
	countedRate = 180e6
	plainRate   = 1.8e9
	nativeRate  = 12.0
	windowCost  = 70 * time.Millisecond
	jsonShare   = 0.5
)

// countGuess is the CPU time of counting a benchmark whose value has no
// calibrated cost (a user's type): an op of a few thousand instructions,
// whose windows and warm-up reach runner.CountWork's least lengths.
const countGuess = time.Second

// A CountPlan is what a count pass's estimate (CountEstimate) is made
// of: its jobs, the calibrated costs of their dataset shapes
// (Calibrate; a shape without one takes countGuess a benchmark), and,
// once a timed pass has run (-measure both, as the count pass begins),
// its results: only their benchmarks that are OK are counted, and each
// one's CPU time per op (else its median ns/op) gives the instructions
// its windows run. Verified says the checks after timing were made by
// another pass (runner.Options.Verified); without it, one of the count's
// processes makes them, under Valgrind.
type CountPlan struct {
	Jobs     []runner.Job
	Costs    Costs
	Timed    []results.Result
	Verified bool
	// CPUs is how many CPUs the processes share.
	CPUs int
	// PassShare is the share of a CPU the thread that timed Costs got
	// (0: a whole one): a pass timed on a busy machine took its CPU
	// time over that share (machine.ShareAt turns the share measured
	// for a count's processes into one thread's).
	PassShare float64
}

// CountEstimate returns about how long the count pass of p takes, its
// processes getting share of a CPU each (measured with CountProcs busy
// threads as the command starts, machine.MeasureShare; 0: an idle
// machine's, min(1, CPUs/CountProcs)). Each of its CountProcs processes
// runs every job: a worker's start per group (countStart); per job, the
// preparation of its pool (runner.Checks of no ops: its calls at the
// calibrated costs, Cost.Of, at PassShare, nativeRate instructions a ns)
// at plainRate; per op, the windows and warm-up of runner.CountWork, the
// op's instructions being its native time (CountPlan.Timed, else
// jsonShare times encoding/json's call) times nativeRate, its windows at
// countedRate, its warm-up at plainRate, and windowCost a window. The
// process that makes the checks after timing (unless Verified) adds the
// rest of runner.Checks at plainRate. The processes run at once, each
// getting share: the pass lasts their CPU time together over CountProcs
// times share, or, when the checks make one process much the slowest,
// that process's CPU time at the share it gets once the others are done:
// what machine.ShareAt says one thread gets, or what the processes got
// together, whichever is more (a scheduler that shares the CPUs between
// groups of processes gives the group's share to the one left).
func CountEstimate(p CountPlan, share float64) time.Duration {
	if share <= 0 {
		share = min(1, float64(max(p.CPUs, 1))/CountProcs)
	}
	timed := map[string]float64{}
	for _, r := range p.Timed {
		if r.Status == results.OK {
			timed[r.Key()] = cmp.Or(r.CPUNsPerOp, r.NsPerOp.Median, -1)
		}
	}
	var cpu, checks time.Duration // each process's, and the checks'
	for i, j := range p.Jobs {
		var ops []countOp
		for _, op := range j.Ops {
			ns, ok := timed[j.Key(op)]
			switch {
			case j.Skip != "":
			case p.Timed == nil:
				ops = append(ops, countOp{op, 0})
			case ok:
				ops = append(ops, countOp{op, max(ns, 0)})
			}
		}
		if len(ops) == 0 {
			continue
		}
		if i == 0 || p.Jobs[i-1].Codec.Name != j.Codec.Name {
			cpu += countStart
		}
		common, check := countJob(&j, ops, p.Costs, p.Verified, cmp.Or(p.PassShare, 1))
		cpu, checks = cpu+common, checks+check
	}
	all := (CountProcs*cpu + checks) / CountProcs
	alone := max(machine.ShareAt(1, CountProcs, max(p.CPUs, 1), share), min(share*CountProcs, 1))
	return max(machine.Stretch(all, share), machine.Stretch(cpu+checks, alone))
}

// A countOp is an op a count pass counts, and its native time in ns
// (0: unknown).
type countOp struct {
	op results.Op
	ns float64
}

// countJob returns the CPU time of job's count in each process, counting
// ops, and that of its checks after timing in the process that makes
// them (none when verified); passShare is CountPlan.PassShare, or 1.
func countJob(job *runner.Job, ops []countOp, costs Costs, verified bool, passShare float64) (common, checks time.Duration) {
	c, ok := costs[costKey(job)]
	if !ok {
		return time.Duration(len(ops)) * countGuess, 0
	}
	// A call timed at passShare of a CPU took that share of its time in
	// CPU time; under Valgrind it runs nativeRate/plainRate times that.
	plain := func(d time.Duration) time.Duration {
		return seconds(d.Seconds() * min(passShare, 1) * 1e9 * nativeRate / plainRate)
	}
	prep := c.Of(runner.Checks(c.Bytes, 0))
	d := plain(prep)
	if !verified {
		checks = plain(c.Of(runner.Checks(c.Bytes, len(ops))) - prep)
	}
	pool := job.PoolFor(c.Bytes)
	for _, o := range ops {
		ns := o.ns
		if ns <= 0 {
			ns = jsonShare * float64(c.call(o.op)) * min(passShare, 1)
		}
		if job.Procs > 1 {
			continue // counted on one goroutine only: not counted
		}
		counted, warm, windows := runner.CountWork(ns*nativeRate, pool)
		d += seconds(counted/countedRate+warm/plainRate) + time.Duration(windows)*windowCost
	}
	return d, checks
}

// seconds returns s seconds as a Duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

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
