package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/internal/progress"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/report/table"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serbench run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		presetName = fs.String("preset", "quick", "named selection to run; see 'serbench list presets'")
		codecs     = fs.String("codecs", "", "comma-separated codecs (default: the preset's)")
		datasets   = fs.String("datasets", "", "comma-separated datasets (default: the preset's)")
		shapes     = fs.String("shapes", "", "comma-separated shapes: single, slice, ptrslice (default: the preset's)")
		ops        = fs.String("ops", "", "comma-separated ops: encode, decode (default: both)")
		xl         = fs.Bool("xl", false, "include extra-large cases (the complex map's slice: hundreds of MB)")
		out        = fs.String("o", "serbench-out", "directory for results.json, results.bench, results.csv, report.html and summary.md")
		target     = fs.Float64("target", 0, "stop sampling when the median's CI is within this fraction (default 0.03)")
		budget     = fs.Duration("budget", 0, "sampling time per benchmark (default: the preset's, else 1s)")
		sampleTime = fs.Duration("sample", 0, "wall time one sample aims for (default: the preset's, else 10ms)")
		maxSamples = fs.Int("max-samples", 0, "most samples per benchmark (default 10000: the budget ends sampling first)")
		pinCPU     = fs.Int("pin", 0, "pin the measuring thread to CPU N-1 (Linux; 0: no pinning)")
		batchTime  = fs.Duration("batch", 0, "wall time of one timed batch within a sample (default 50µs)")
		noGC       = fs.Bool("nogc", false, "no garbage collection before any sample")
		gcFirst    = fs.Bool("gc-first", false, "a garbage collection before every sample, also of operations that allocate fast (a heap goal within ten samples), whose samples otherwise span whole collection cycles of their own: after a collection they pay for almost none and read low")
		gate       = fs.Bool("gate", false, "sample only while a probe says the machine runs at full speed (its fast phases, not its average)")
		quiet      = fs.Bool("q", false, "no progress on stderr")
	)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: serbench run [flags]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("run takes no arguments, got %q; use flags such as -codecs json,gob", fs.Args())
	}
	p, err := preset.Lookup(*presetName)
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	sel := p.Selection
	if *codecs != "" {
		sel.Codecs = splitList(*codecs)
	}
	if *datasets != "" {
		sel.Datasets = splitList(*datasets)
	}
	if *shapes != "" {
		sel.Shapes = nil
		for _, s := range splitList(*shapes) {
			sel.Shapes = append(sel.Shapes, dataset.Shape(s))
		}
	}
	if *ops != "" {
		sel.Ops = nil
		for _, s := range splitList(*ops) {
			sel.Ops = append(sel.Ops, results.Op(s))
		}
	}
	sel.XL = sel.XL || *xl
	jobs, err := sel.Jobs()
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	opts := runner.Options{Target: *target, Budget: p.Budget, SampleTime: p.SampleTime, PinCPU: *pinCPU, NoGC: *noGC, GCFirst: *gcFirst, Gate: *gate, BatchTime: *batchTime, MaxSamples: *maxSamples}
	if *budget != 0 {
		opts.Budget = *budget
	}
	if *sampleTime != 0 {
		opts.SampleTime = *sampleTime
	}
	r, err := runner.New(opts)
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if err := checkWritable(*out); err != nil {
		return err
	}
	var prog *progress.Reporter // nil with -q: no progress
	if !*quiet {
		prog = progress.New(stderr, len(jobs))
		r.Progress = prog.Event
	}

	run := newRun(p.Name, r.Options(), sel)
	run.Env.Overhead = r.LoopOverhead(ctx)
	start := time.Now()
	res, runErr := r.Run(ctx, jobs)
	prog.Finish()
	run.Results = res
	run.Elapsed = results.Duration(time.Since(start))
	run.Peak = r.Peak()
	machine := r.Machine()
	run.Machine = &machine
	if runErr != nil {
		run.Warnings = append(run.Warnings, fmt.Sprintf("interrupted: %d results of %d jobs were measured before: %v", len(res), len(jobs), runErr))
	}
	var notes []string
	for _, w := range []string{twoSpeeds(run), imprecise(run)} {
		if w != "" {
			notes = append(notes, w)
		}
	}
	run.Warnings = append(run.Warnings, notes...)
	if err := writeOutputs(*out, run); err != nil {
		return err
	}
	if err := table.Write(stdout, run); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "serbench: %s; took %v; wrote %s\n", tally(run), time.Duration(run.Elapsed).Round(time.Millisecond), outputList(*out))
	for _, w := range notes {
		fmt.Fprintln(stderr, "serbench: "+w)
	}
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			return fmt.Errorf("interrupted; the %d results measured before were written to %s", len(res), *out)
		}
		return runErr
	}
	return nil
}

// newRun starts the record of a run: environment, options and the
// metadata of the selected codecs.
func newRun(presetName string, o runner.Options, sel preset.Selection) *results.Run {
	run := &results.Run{
		Started: time.Now().UTC(),
		Env:     runner.Environment(time.Now()),
		Options: results.Options{
			Preset: presetName, Target: o.Target, Confidence: o.Confidence,
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
