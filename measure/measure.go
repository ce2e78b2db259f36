// Package measure runs a whole serbench measurement and returns its
// record: the environment, the options as recorded, the codecs, every
// result in job order, the machine's steadiness, peak memory and the
// warnings a reader needs. The command line and a program get the same
// record, and write the same files from it through report/....
package measure

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// Config says how to measure.
type Config struct {
	// Options are the runner's; Options.Total shares a whole-run time.
	Options runner.Options
	// Preset labels the run in its record.
	Preset string
	// Workers, if set, returns what measures with opts in worker
	// processes (a *worker.Pool), reporting to finished and progress.
	// Nil measures in this process, with a runner.Runner. measure does
	// not link the worker package itself, so that a program measuring in
	// its own process does not.
	Workers func(opts runner.Options, finished func(*runner.Job, results.Result), progress func(runner.Event)) Measurer
	// Fresh, if set, decodes the encodings the checks verified in
	// processes that never saw the values (worker tasks running
	// DecodeFresh): an encoding must carry its value, not point at it.
	// Nil leaves that check out (a run in this process).
	Fresh FreshDecoder
	// Cold, if set, makes the first calls of every codec on every
	// dataset shape measured in processes of their own (worker tasks
	// running ColdCalls), reported apart from the warm figures
	// (Result.ColdNs). Nil leaves them out.
	Cold ColdCaller
	// LossProbes, if set, names for each loss a codec declares the
	// fidelity probe that shows it (fidelity.Shown), for the codec's
	// record. It must give the same answer in every time zone: the
	// record is written to results.json.
	LossProbes func(codec.Info) map[string]string
	// Started, if set, is called once the run's record holds what is
	// known before the first job (the loop overhead included); an error
	// stops the run before it measures anything.
	Started func(*results.Run) error
	// Excess, if set, says why the losses a codec declares are larger
	// than what the fidelity probes observe (fidelity.Excess): verify
	// allows what is declared, so each of its jobs fails with the
	// reasons instead of being measured. An Info its Validate refuses
	// (a time precision coarser than a day) fails them too.
	Excess func(codec.Info) []string
	// Finished, if set, is called with each benchmark's result the moment
	// it is final: a journal appends it there.
	Finished func(*runner.Job, results.Result)
	// Progress, if set, is called after each job measured.
	Progress func(runner.Event)
	// AlsoCount counts every benchmark's instructions under Valgrind
	// after timing it (run -measure both; Options.Count alone counts
	// instead of timing): Workers is called a second time, with
	// Options.Count set, for the workers that count.
	AlsoCount bool
}

// NewRun starts the record of a run of jobs: environment, options (with
// their defaults) and the codecs the jobs use, in registry order.
func NewRun(cfg Config, jobs []runner.Job) *results.Run {
	run := &results.Run{
		Started: time.Now().UTC(),
		Env:     machine.Environment(time.Now()),
		Options: cfg.Options.Record(),
	}
	run.Options.Preset = cfg.Preset
	if cfg.AlsoCount {
		run.Options.Measure = results.MeasureBoth
	}
	run.Env.CPUList = runner.ProcsOf(jobs)
	for _, n := range run.Env.CPUList {
		run.Env.SpinSpeedup = append(run.Env.SpinSpeedup, runner.SpinSpeedup(n, spinTime))
	}
	seen := map[string]bool{}
	for _, j := range jobs {
		if !seen[j.Codec.Name] {
			seen[j.Codec.Name] = true
			c := Codec(j.Codec)
			if cfg.LossProbes != nil {
				c.LossProbes = cfg.LossProbes(j.Codec)
			}
			run.Codecs = append(run.Codecs, c)
		}
	}
	return run
}

// Codec returns a codec's record: its metadata and the version of its
// module in this build (Config.LossProbes adds the probes that show its
// losses).
func Codec(c codec.Info) results.Codec {
	return results.Codec{
		Name: c.Name, Family: c.Family, Label: c.Label, Module: c.Module,
		Version: registry.Version(c.Module), URL: c.URL, API: string(c.API),
		Variant: c.Variant, Losses: codec.LossNames(c.Losses), Notes: c.Notes,
		ReusesBuffer: c.ReusesBuffer, ReusesTarget: c.ReusesTarget, Aliases: c.Aliases, ReadsOnly: c.ReadsOnly,
	}
}

// ceilingAgain measures the machine's ceiling for a speed-up again as the
// run ends (a shared machine's load moves), and keeps the highest of the
// two readings in Env.SpinSpeedupHi.
func ceilingAgain(run *results.Run) {
	run.Env.SpinSpeedupHi = run.Env.SpinSpeedupHi[:0]
	for i, n := range run.Env.CPUList {
		c := runner.SpinSpeedup(n, spinTime)
		if i < len(run.Env.SpinSpeedup) {
			c = max(c, run.Env.SpinSpeedup[i])
		}
		run.Env.SpinSpeedupHi = append(run.Env.SpinSpeedupHi, c)
	}
}

// spinTime is how long each step of runner.SpinSpeedup runs: three steps
// per GOMAXPROCS of -cpu as a run starts.
const spinTime = 50 * time.Millisecond

// A Measurer measures jobs: a runner.Runner in this process, or a
// worker.Pool in worker processes.
type Measurer interface {
	Run(ctx context.Context, jobs []runner.Job) ([]results.Result, error)
	peaker
	Machine() results.Machine
}

// A peaker reports the peak memory of what it ran.
type peaker interface{ Peak() results.Memory }

// measurer returns what measures with opts, reporting to finished and
// progress: a runner.Runner in this process, or what Workers returns.
func (cfg Config) measurer(opts runner.Options, finished func(*runner.Job, results.Result), progress func(runner.Event)) (Measurer, error) {
	if cfg.Workers != nil {
		return cfg.Workers(opts, finished, progress), nil
	}
	r, err := runner.New(opts)
	if err != nil {
		return nil, err
	}
	r.Finished, r.Progress = finished, progress
	return r, nil
}

// Run measures the benchmarks of jobs that run does not hold a result for
// (all of them in a new run; the rest in a resumed one) and completes
// run: its results in job order, elapsed time, peak memory, machine,
// implausible figures marked, and warnings. When ctx is cancelled it
// returns ctx's error with the results measured before in run.
func Run(ctx context.Context, run *results.Run, jobs []runner.Job, cfg Config) error {
	start := time.Now()
	if cfg.Options.Salt == 0 {
		cfg.Options.Salt = runner.NewSalt() // one per run, every worker's
	}
	r, err := runner.New(cfg.Options)
	if err != nil {
		return err
	}
	if run.Env.Overhead == 0 {
		run.Env.Overhead = r.LoopOverhead(ctx)
	}
	if cfg.Started != nil {
		if err := cfg.Started(run); err != nil {
			return err
		}
	}
	// A whole-run time counts from the start, the loop overhead's
	// measurement included. Part of it is kept for the refining pass.
	opts := cfg.Options
	if opts.Count {
		opts = counting(opts)
	}
	var end time.Time
	if opts.Total > 0 {
		end = start.Add(opts.Total)
		opts.Total = max((opts.Total-time.Since(start))*firstPass/100, time.Second)
	}
	todo := Remaining(jobs, run.Results)
	todo, refused := cfg.declared(todo)
	run.Results = append(run.Results, refused...)
	if !end.IsZero() {
		todo = smallFirst(todo)
	}
	if opts.Count {
		todo = byCodec(todo)
	}
	runCtx := ctx
	if !end.IsZero() {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithDeadline(ctx, end.Add(overrun(cfg.Options.Total)))
		defer cancel()
	}
	var m Measurer
	var rs []results.Result
	var runErr error
	if opts.Count {
		rs, m, runErr = countPasses(runCtx, todo, cfg, opts, cfg.Progress)
		if m == nil {
			return runErr
		}
		if runErr == nil {
			runErr = checkSkips(runCtx, rs, todo, cfg)
		}
		finishAll(todo, rs, cfg.Finished)
	} else {
		if m, err = cfg.measurer(opts, cfg.Finished, cfg.Progress); err != nil {
			return err
		}
		rs, runErr = m.Run(runCtx, todo)
	}
	if runErr != nil && ctx.Err() == nil && runCtx.Err() != nil {
		// The run's own time ended, not the user's patience: what was not
		// measured is cut short, which is an outcome, not a failure.
		runErr = nil
		rs = append(rs, cutShort(todo, rs, cfg.Options.Total)...)
	}
	run.Results = inJobOrder(jobs, append(run.Results, rs...))
	run.Peak = m.Peak()
	machine := m.Machine()
	if runErr == nil && !end.IsZero() {
		var p peaker
		if p, runErr = refine(runCtx, run, jobs, cfg, end, machine); p != nil {
			run.Peak = maxMemory(run.Peak, p.Peak())
		}
		if runErr != nil && ctx.Err() == nil {
			runErr = nil // the run's time ended in the refining pass: every benchmark has its first result
		}
	}
	if runErr == nil && cfg.AlsoCount {
		runErr = countAlso(ctx, run, jobs, cfg)
	}
	if runErr == nil {
		runErr = checkFresh(ctx, run, cfg)
	}
	if runErr == nil {
		runErr = checkCold(ctx, run, cfg)
	}
	dropVerified(run)
	if runErr == nil {
		ceilingAgain(run)
	}
	results.FlagScaling(run.Results, run.Env)
	run.Elapsed = results.Duration(time.Since(start))
	run.Machine = &machine
	results.MarkImplausible(run.Results, run.Env.Overhead)
	if runErr != nil {
		run.Warnings = append(run.Warnings, fmt.Sprintf("interrupted: %d of %d benchmarks were measured before: %v", len(run.Results), countOps(jobs), runErr))
	}
	warnings := []string{cutWarning(run), twoSpeeds(run), imprecise(run), implausible(run), multiThreaded(run)}
	if !run.Options.Timed() {
		warnings = []string{cutWarning(run)} // a count has no interval, probe or speed to doubt
	}
	for _, w := range warnings {
		if w != "" {
			run.Warnings = append(run.Warnings, w)
		}
	}
	return runErr
}

// countOps counts the benchmarks of jobs.
func countOps(jobs []runner.Job) int {
	n := 0
	for _, j := range jobs {
		n += len(j.Ops)
	}
	return n
}

// Remaining returns the jobs with only the ops that have no result in
// done.
func Remaining(jobs []runner.Job, done []results.Result) []runner.Job {
	have := map[string]bool{}
	for _, r := range done {
		have[r.Key()] = true
	}
	var todo []runner.Job
	for _, j := range jobs {
		var ops []results.Op
		for _, op := range j.Ops {
			if !have[j.Key(op)] {
				ops = append(ops, op)
			}
		}
		if len(ops) > 0 {
			j.Ops = ops
			todo = append(todo, j)
		}
	}
	return todo
}

// inJobOrder returns the results in the order of the jobs and their ops,
// whatever order they were measured in; a benchmark measured twice keeps
// its last result.
func inJobOrder(jobs []runner.Job, rs []results.Result) []results.Result {
	by := map[string]results.Result{}
	for _, r := range rs {
		by[r.Key()] = r
	}
	var out []results.Result
	for _, j := range jobs {
		for _, op := range j.Ops {
			if r, ok := by[j.Key(op)]; ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// imprecise returns a warning when more than one measured benchmark in
// twenty stopped before its interval reached the target, at the end of its
// budget or at the cap on samples: the machine was noisy or the budget
// short, and the ± column says by how much. It names how many of them had
// samples split between the machine's two speeds (results.Machine.Split),
// whose medians no budget of a quick run pins down.
func imprecise(run *results.Run) string {
	c := results.Count(run.Results)
	if c.OK == 0 || 20*(c.OK-c.Met) <= c.OK {
		return ""
	}
	var machine results.Machine
	if run.Machine != nil {
		machine = *run.Machine
	}
	capped, split := 0, 0
	for i := range run.Results {
		r := &run.Results[i]
		if r.Status != results.OK || r.TargetMet {
			continue
		}
		if run.Options.MaxSamples > 0 && len(r.Samples) >= run.Options.MaxSamples {
			capped++
		}
		if machine.Split(r) {
			split++
		}
	}
	budget := fmt.Sprintf("their %v budget", time.Duration(run.Options.Budget))
	if run.Options.Time > 0 {
		budget = fmt.Sprintf("their share of the run's %v", time.Duration(run.Options.Time))
	}
	why := "spent " + budget
	if capped > 0 {
		why = fmt.Sprintf("spent %s (%d of them took their cap of %d samples first)", budget, capped, run.Options.MaxSamples)
	}
	msg := fmt.Sprintf("%d of %d benchmarks %s before the interval of their median reached ±%s%%: a noisy machine or a short budget. ",
		c.OK-c.Met, c.OK, why, percent(run.Options.Target))
	if split > 0 {
		msg += fmt.Sprintf("%d of them started 30 to 70%% of their samples while the machine was busy: their samples fall in both of its speeds, and their median between the two, where a larger budget narrows the interval little. ", split)
	}
	more := "a larger -budget"
	if run.Options.Time > 0 {
		more = "a longer -time"
	}
	return msg + "Read their ± column; " + more + " takes more samples, and ranks closer than their intervals may change between runs."
}

// twoSpeeds returns a warning when the machine ran at two speeds: its
// probe was busy for results.MinBusy of the run or more.
func twoSpeeds(run *results.Run) string {
	m := run.Machine
	if m == nil || m.Probes == 0 || m.Busy < results.MinBusy {
		return ""
	}
	return fmt.Sprintf("the machine ran at two speeds: a probe timed between samples ran %.1f× slower than its fast speed for %.0f%% of the run (%d probes). "+
		"Other work on this machine or its host (another tenant of a cloud VM) took the CPU in phases, so the medians measure a mix of the two speeds "+
		"and can move between runs by more than their ± intervals. For figures that hold, run on an idle machine; otherwise run twice and check with serbench compare.",
		m.Slowdown, 100*m.Busy, m.Probes)
}

// implausible returns a warning naming the results whose figures cannot be
// the operation's cost (results.MarkImplausible); they are left out of
// every ranking.
func implausible(run *results.Run) string {
	var names []string
	for i := range run.Results {
		if r := &run.Results[i]; r.Implausible != "" {
			names = append(names, r.Key())
		}
	}
	if len(names) == 0 {
		return ""
	}
	n := len(names)
	if n > 5 {
		names = append(names[:5], fmt.Sprintf("and %d more", n-5))
	}
	return fmt.Sprintf("%d figures are implausible, too fast to be the codec's work (%s) or disbelieved by the checks after timing, "+
		"and are left out of every ranking with the codec's other figures on that dataset shape: %s",
		n, results.ImplausibleRule, strings.Join(names, ", "))
}

// multiThreaded returns a warning naming the results whose samples used
// more CPU time than wall time (Result.MultiThreaded): their figures are
// not the single-threaded cost the others' are.
func multiThreaded(run *results.Run) string {
	var names []string
	for i := range run.Results {
		if r := &run.Results[i]; r.Status == results.OK && r.MultiThreaded {
			names = append(names, fmt.Sprintf("%s (%.3g CPU ns for %.3g wall ns per op)", r.Key(), r.CPUNsPerOp, r.NsPerOp.Median))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("%d figures are multi-threaded: their samples used more CPU time than wall time, so the operation ran on more than one thread "+
		"and its figure is not comparable with single-threaded ones: %s", len(names), strings.Join(names, ", "))
}

// percent formats a fraction as a percentage to a tenth: 0.03 as "3".
func percent(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/10, 'f', -1, 64)
}

// declared returns the jobs whose codecs' declared losses can be
// believed, and failed results for the others' benchmarks, with why.
func (cfg Config) declared(jobs []runner.Job) ([]runner.Job, []results.Result) {
	why := map[string]string{}
	var keep []runner.Job
	var refused []results.Result
	for _, j := range jobs {
		w, ok := why[j.Codec.Name]
		if !ok {
			var reasons []string
			err := j.Codec.Validate()
			if err == nil && cfg.Excess != nil {
				reasons = cfg.Excess(j.Codec)
			}
			if err != nil {
				w = fmt.Sprintf("its codec.Info cannot be believed: %v", err)
			} else if len(reasons) > 0 {
				w = fmt.Sprintf("its declared losses are larger than it loses (%s): verification allows what a codec declares, so its round trips cannot be believed; correct its codec.Info", strings.Join(reasons, "; "))
			}
			why[j.Codec.Name] = w
		}
		if w == "" {
			keep = append(keep, j)
			continue
		}
		refused = append(refused, j.Results(results.Failed, w)...)
	}
	return keep, refused
}
