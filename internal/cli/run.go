package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/internal/progress"
	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/report/table"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// runConfig is what a run's command line asks for.
type runConfig struct {
	preset  string
	label   string // the preset as recorded: "quick (custom: -codecs json,gob)"
	sel     preset.Selection
	opts    runner.Options
	out     string
	resume  string
	quiet   bool
	inproc  bool
	timeout time.Duration
}

// parseRun parses the run command's flags.
func parseRun(args []string, stderr io.Writer) (*runConfig, error) {
	fs := flag.NewFlagSet("serbench run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		presetName = fs.String("preset", "quick", "named selection to run; see 'serbench list presets'")
		codecs     = fs.String("codecs", "", "comma-separated codecs (default: the preset's)")
		datasets   = fs.String("datasets", "", "comma-separated datasets (default: the preset's)")
		shapes     = fs.String("shapes", "", "comma-separated shapes: single, slice, ptrslice (default: the preset's)")
		ops        = fs.String("ops", "", "comma-separated ops: encode, decode (default: both)")
		xl         = fs.Bool("xl", false, "include extra-large cases (the complex map's slice: needs 12 GiB of memory)")
		out        = fs.String("o", "serbench-out", "directory for the outputs; the run works in DIR.partial until it ends")
		resume     = fs.String("resume", "", "continue the killed or interrupted run whose output directory is `DIR`, with its options")
		target     = fs.Float64("target", 0, "stop sampling when the median's CI is within this fraction, in [0.001, 1] (default 0.03)")
		budget     = fs.Duration("budget", 0, "sampling time per benchmark, in [10ms, 10m] (default: the preset's, else 1s)")
		sampleTime = fs.Duration("sample", 0, "wall time one sample aims for, in [1ms, 10s] (default: the preset's, else 10ms)")
		maxSamples = fs.Int("max-samples", 0, "most samples per benchmark (default 10000: the budget ends sampling first)")
		pinCPU     = fs.Int("pin", -1, "pin the measuring thread to CPU `N`, numbered from 0 as taskset and /proc/cpuinfo number them (Linux; -1: no pinning)")
		batchTime  = fs.Duration("batch", 0, "wall time of one timed batch within a sample, in [1µs, -sample] (default 50µs)")
		noGC       = fs.Bool("nogc", false, "no garbage collection before any sample")
		gcFirst    = fs.Bool("gc-first", false, "a garbage collection before every sample, also of operations that allocate fast")
		gate       = fs.Bool("gate", false, "sample only while a probe says the machine runs at full speed (its fast phases, not its average)")
		timeout    = fs.Duration("timeout", 0, "kill a codec that makes no progress for this long, at least 1s (default: 20 budgets, within 1m to 2m)")
		inproc     = fs.Bool("in-process", false, "measure in this process, not in worker processes (a crash or hang then ends or slows the run)")
		quiet      = fs.Bool("q", false, "no progress on stderr")
	)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: serbench run [flags]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("run takes no arguments, got %q; use flags such as -codecs json,gob", fs.Args())
	}
	p, err := preset.Lookup(*presetName)
	if err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	c := &runConfig{preset: p.Name, sel: p.Selection, out: *out, resume: *resume, quiet: *quiet, inproc: *inproc, timeout: *timeout}
	if *codecs != "" {
		c.sel.Codecs = splitList(*codecs)
	}
	if *datasets != "" {
		c.sel.Datasets = splitList(*datasets)
	}
	if *shapes != "" {
		c.sel.Shapes = nil
		for _, s := range splitList(*shapes) {
			c.sel.Shapes = append(c.sel.Shapes, dataset.Shape(s))
		}
	}
	if *ops != "" {
		c.sel.Ops = nil
		for _, s := range splitList(*ops) {
			c.sel.Ops = append(c.sel.Ops, results.Op(s))
		}
	}
	c.sel.XL = c.sel.XL || *xl
	c.label = p.Label(c.sel)
	if err := checkRunFlags(fs); err != nil {
		return nil, err
	}
	// runner.Options.PinCPU counts from 1, 0 for none; -pin counts from 0.
	c.opts = runner.Options{Target: *target, Budget: p.Budget, SampleTime: p.SampleTime, PinCPU: *pinCPU + 1, NoGC: *noGC, GCFirst: *gcFirst, Gate: *gate, BatchTime: *batchTime, MaxSamples: *maxSamples}
	if *budget != 0 {
		c.opts.Budget = *budget
	}
	if *sampleTime != 0 {
		c.opts.SampleTime = *sampleTime
	}
	if err := c.opts.Validate(); err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	c.opts = c.opts.WithDefaults()
	return c, nil
}

func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseRun(args, stderr)
	if err != nil {
		return err
	}
	var done []results.Result // results a resumed run's journal holds
	if cfg.resume != "" {
		if len(args) != 2 && !(len(args) == 3 && args[2] == "-q") {
			return usagef("-resume takes the options of the run it continues: give it alone (and -q), not %q", args)
		}
		h, rs, err := journal.Read(filepath.Join(partialDir(cfg.resume), journal.Name))
		if err != nil {
			return &UsageError{Msg: fmt.Sprintf("nothing to resume in %s: %v", cfg.resume, err)}
		}
		quiet := cfg.quiet
		if cfg, err = parseRun(h.Args, stderr); err != nil {
			return fmt.Errorf("the journal's arguments %q: %w", h.Args, err)
		}
		cfg.quiet, cfg.resume, done = quiet, cfg.out, rs
		args = h.Args
	}
	jobs, err := cfg.sel.Jobs()
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	work := partialDir(cfg.out)
	run := newRun(cfg.label, cfg.opts, cfg.sel)
	r, err := runner.New(cfg.opts)
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if cfg.resume == "" {
		if err := prepareWorkDir(cfg.out, work); err != nil {
			return err
		}
	}
	run.Env.Overhead = r.LoopOverhead(ctx)
	var jw *journal.Writer
	if cfg.resume != "" {
		jw, err = journal.Append(filepath.Join(work, journal.Name))
	} else {
		jw, err = journal.Create(filepath.Join(work, journal.Name), journal.Header{Args: args, Run: *run, Jobs: countOps(jobs)})
	}
	if err != nil {
		return &RunError{Msg: err.Error()}
	}
	defer jw.Close()
	todo := remainingJobs(jobs, done)
	var journalErr error
	record := func(_ *runner.Job, res results.Result) {
		if err := jw.Add(res); err != nil && journalErr == nil {
			journalErr = err
		}
	}
	var prog *progress.Reporter // nil with -q: no progress
	if !cfg.quiet {
		prog = progress.New(stderr, len(todo))
	}
	var m measurer = r
	if cfg.inproc {
		r.Finished = record
		if prog != nil {
			r.Progress = prog.Event
		}
	} else {
		pool := &worker.Pool{Options: cfg.opts, Timeout: cfg.timeout, Finished: record}
		if prog != nil {
			pool.Progress = prog.Event
		}
		pool.Waiting = func(cell string, quiet, timeout time.Duration) {
			fmt.Fprintf(stderr, "serbench: waiting on %s: no progress for %v; killed at %v (-timeout)\n", cell, quiet, timeout)
		}
		m = pool
	}
	start := time.Now()
	_, runErr := m.Run(ctx, todo)
	prog.Finish()
	run.Elapsed = results.Duration(time.Since(start))
	run.Peak = m.Peak()
	machine := m.Machine()
	run.Machine = &machine
	if journalErr != nil {
		return &RunError{Msg: fmt.Sprintf("the journal in %s could not be written: %v; the run stopped", work, journalErr)}
	}
	jw.Close()
	_, all, err := journal.Read(filepath.Join(work, journal.Name))
	if err != nil {
		return &RunError{Msg: err.Error()}
	}
	run.Results = inJobOrder(jobs, all)
	results.MarkImplausible(run.Results, run.Env.Overhead)
	if runErr != nil {
		run.Warnings = append(run.Warnings, fmt.Sprintf("interrupted: %d of %d benchmarks were measured before: %v", len(run.Results), countOps(jobs), runErr))
	}
	var notes []string
	for _, w := range []string{twoSpeeds(run), imprecise(run), implausible(run)} {
		if w != "" {
			notes = append(notes, w)
		}
	}
	run.Warnings = append(run.Warnings, notes...)
	if err := table.Write(stdout, run); err != nil {
		return err
	}
	if err := writeOutputs(work, run); err != nil {
		return &RunError{Msg: fmt.Sprintf("%v; the journal of every result is kept in %s", err, work)}
	}
	if runErr == nil {
		if err := publish(work, cfg.out); err != nil {
			return &RunError{Msg: fmt.Sprintf("%v; every output is in %s", err, work)}
		}
	}
	dir := cfg.out
	if runErr != nil {
		dir = work
	}
	fmt.Fprintf(stderr, "serbench: %s; took %v; wrote %s\n", tally(run), time.Duration(run.Elapsed).Round(time.Millisecond), outputList(dir))
	for _, w := range notes {
		fmt.Fprintln(stderr, "serbench: "+w)
	}
	if runErr != nil {
		return &RunError{Msg: fmt.Sprintf("interrupted (%v): %d of %d benchmarks measured are kept in %s; continue with: serbench run -resume %s", runErr, len(run.Results), countOps(jobs), work, cfg.out)}
	}
	if c := results.Count(run.Results); c.Failed > 0 {
		return &FailedError{Msg: fmt.Sprintf("%d benchmarks failed verification or errored; their reasons are in %s", c.Failed, filepath.Join(cfg.out, "results.csv"))}
	}
	return nil
}

// A measurer measures jobs: a runner.Runner in this process, or a
// worker.Pool in worker processes.
type measurer interface {
	Run(ctx context.Context, jobs []runner.Job) ([]results.Result, error)
	Peak() results.Memory
	Machine() results.Machine
}

// countOps counts the benchmarks of jobs.
func countOps(jobs []runner.Job) int {
	n := 0
	for _, j := range jobs {
		n += len(j.Ops)
	}
	return n
}

// remainingJobs returns the jobs with only the ops that have no result in
// done.
func remainingJobs(jobs []runner.Job, done []results.Result) []runner.Job {
	have := map[string]bool{}
	for _, r := range done {
		have[r.Key()] = true
	}
	var todo []runner.Job
	for _, j := range jobs {
		var ops []results.Op
		for _, op := range j.Ops {
			r := results.Result{Op: op, Codec: j.Codec.Name, Dataset: j.Dataset, Shape: j.Shape}
			if !have[r.Key()] {
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
			k := results.Result{Op: op, Codec: j.Codec.Name, Dataset: j.Dataset, Shape: j.Shape}
			if r, ok := by[k.Key()]; ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// newRun starts the record of a run: environment, options (presetLabel
// its preset, as preset.Preset.Label names it) and the metadata of the
// selected codecs.
func newRun(presetLabel string, o runner.Options, sel preset.Selection) *results.Run {
	run := &results.Run{
		Started: time.Now().UTC(),
		Env:     runner.Environment(time.Now()),
		Options: results.Options{
			Preset: presetLabel, Target: o.Target, Confidence: o.Confidence,
			SampleTime: results.Duration(o.SampleTime), Budget: results.Duration(o.Budget),
			MinSamples: o.MinSamples, MaxSamples: o.MaxSamples, GCBefore: !o.NoGC, WholeCycles: !o.NoGC && !o.GCFirst, PinCPU: o.PinCPU,
			BatchTime: results.Duration(o.BatchTime),
		},
	}
	if o.Gate {
		run.Options.Gate = o.GateTolerance
	}
	for _, c := range registry.Codecs {
		if len(sel.Codecs) > 0 && !slices.Contains(sel.Codecs, c.Name) {
			continue
		}
		var losses []string
		for _, l := range c.Losses {
			losses = append(losses, l.String())
		}
		run.Codecs = append(run.Codecs, results.Codec{
			Name: c.Name, Family: c.Family, Label: c.Label, Module: c.Module,
			Version: registry.Version(c.Module), URL: c.URL, API: string(c.API),
			Variant: c.Variant, Losses: losses, Notes: c.Notes,
		})
	}
	return run
}

// tally summarizes a run's statuses and how many measured results reached
// the interval target.
func tally(run *results.Run) string {
	c := results.Count(run.Results)
	return fmt.Sprintf("%d measured (%d within ±%s%%), %d failed or errored, %d skipped; loop overhead %.2fns/op, included in every figure",
		c.OK, c.Met, percent(run.Options.Target), c.Failed, c.Skipped, run.Env.Overhead)
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
	why := fmt.Sprintf("spent their %v budget", time.Duration(run.Options.Budget))
	if capped > 0 {
		why = fmt.Sprintf("spent their %v budget (%d of them took their cap of %d samples first)", time.Duration(run.Options.Budget), capped, run.Options.MaxSamples)
	}
	msg := fmt.Sprintf("%d of %d benchmarks %s before the interval of their median reached ±%s%%: a noisy machine or a short budget. ",
		c.OK-c.Met, c.OK, why, percent(run.Options.Target))
	if split > 0 {
		msg += fmt.Sprintf("%d of them started 30 to 70%% of their samples while the machine was busy: their samples fall in both of its speeds, and their median between the two, where a larger budget narrows the interval little. ", split)
	}
	return msg + "Read their ± column; a larger -budget takes more samples, and ranks closer than their intervals may change between runs."
}

// busyShare is the share of a run in which the machine may be busy before
// the run says so: on a machine of its own the probe is busy for less than
// 1% of a run.
const busyShare = 0.05

// twoSpeeds returns a warning when the machine ran at two speeds: its
// probe was busy for busyShare of the run or more.
func twoSpeeds(run *results.Run) string {
	m := run.Machine
	if m == nil || m.Probes == 0 || m.Busy < busyShare {
		return ""
	}
	return fmt.Sprintf("the machine ran at two speeds: a probe timed between samples ran %.1f× slower than its fast speed for %.0f%% of the run (%d probes). "+
		"Other work on this machine or its host (another tenant of a cloud VM) took the CPU in phases, so the medians measure a mix of the two speeds "+
		"and can move between runs by more than their ± intervals. For figures that hold, run on an idle machine; otherwise run twice and check with serbench compare.",
		m.Slowdown, 100*m.Busy, m.Probes)
}

// percent formats a fraction as a percentage to a tenth: 0.03 as "3".
func percent(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/10, 'f', -1, 64)
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
	return fmt.Sprintf("%d figures are implausible, too fast to be the codec's work (below twice the loop overhead, or faster than copying the encoding), and are left out of every ranking: %s",
		n, strings.Join(names, ", "))
}
