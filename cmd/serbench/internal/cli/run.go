package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/cmd/serbench/internal/progress"
	"github.com/serbench/serbench/compress"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/outdir"
	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/need"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/report/table"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// runConfig is what a run's command line asks for.
type runConfig struct {
	args    []string        // the command line, which a journal keeps for -resume
	set     map[string]bool // the flags it sets
	label   string          // the preset as recorded: "quick (custom: -codecs json,gob)"
	sel     preset.Selection
	opts    runner.Options
	out     string
	resume  string
	quiet   bool
	inproc  bool
	timeout time.Duration
	sample  *sample          // -file: the user's document (sample.go)
	cpus    []int            // -cpu: each job at each GOMAXPROCS
	cold    bool             // -cold: first calls in fresh processes
	needs   []need.Want      // -need: what the user needs of a format
	mode    string           // -measure: time, instructions or both
	vg      *worker.Valgrind // the Valgrind that counts, when -measure counts
}

// runFlags are the run command's flags, as parsed.
type runFlags struct {
	preset, codecs, datasets, shapes, ops, out, resume, file, accept, need string
	xl, noGC, gcFirst, gate, inproc, quiet, cold, compress                 bool
	target                                                                 float64
	total, budget, sampleTime, batchTime, timeout                          time.Duration
	maxSamples, pinCPU                                                     int
	cpu                                                                    cpuList
	liveHeap                                                               byteSize
	measure                                                                measureMode
}

// newRunFlagSet returns the run command's flag set, parsing into f.
func newRunFlagSet(f *runFlags, stderr io.Writer) *flagBuilder {
	b := newFlags("run", "serbench run [flags]", "", stderr)
	fs := b.fs
	defaults := runner.Options{}.WithDefaults()
	fs.StringVar(&f.preset, "preset", "quick", "named selection to run; see 'serbench list presets'")
	b.codecs(&f.codecs, "the preset's")
	fs.StringVar(&f.need, "need", "", "comma-separated `NEEDS` of the format (untrusted, evolve=add+rename, exact, human-readable, ...; see serbench list needs): the codecs that fail one are left out before timing, with the evidence; the studies that decide them are read from -o DIR or run first")
	fs.StringVar(&f.datasets, "datasets", "", "comma-separated datasets (default: the preset's)")
	fs.StringVar(&f.shapes, "shapes", "", "comma-separated shapes: single, slice, ptrslice (default: the preset's)")
	fs.BoolVar(&f.compress, "compress", false, "also measure each encoding compressed: its size after "+strings.Join(compress.Names(), ", ")+", and the time to compress and decompress it")
	fs.StringVar(&f.ops, "ops", "", "comma-separated ops (default: encode, decode): "+opNames(results.AllOps()))
	fs.BoolVar(&f.xl, "xl", false, "include extra-large cases (the complex map's slice: needs 12 GiB of memory)")
	b.out(&f.out, "the outputs; the run works in DIR/partial until it ends")
	b.resume(&f.resume, "run")
	fs.Float64Var(&f.target, "target", defaults.Target, "stop sampling when the median's CI is within this fraction, "+flagRanges["target"].String())
	b.runTime(&f.total, 0, " (default: the preset's, 3m for quick; 0: none)")
	b.budget(&f.budget, 0, "; with -time, the most one may get (default: the preset's, else 1s)")
	fs.DurationVar(&f.sampleTime, "sample", 0, "wall time one sample aims for, "+flagRanges["sample"].String()+" (default: the preset's, else 10ms)")
	fs.IntVar(&f.maxSamples, "max-samples", defaults.MaxSamples, "most samples per benchmark, "+flagRanges["max-samples"].String()+" (the budget usually ends sampling first)")
	fs.IntVar(&f.pinCPU, "pin", -1, "pin the measuring thread to CPU `N`, numbered from 0 as taskset and /proc/cpuinfo number them (Linux; -1: no pinning)")
	fs.DurationVar(&f.batchTime, "batch", defaults.BatchTime, "wall time of one timed batch within a sample, "+flagRanges["batch"].String()+" and at most -sample")
	fs.BoolVar(&f.noGC, "nogc", false, "no garbage collection before any sample")
	fs.BoolVar(&f.gcFirst, "gc-first", false, "a garbage collection before every sample, also of operations that allocate fast")
	b.cpu(&f.cpu)
	b.liveHeap(&f.liveHeap)
	fs.BoolVar(&f.cold, "cold", false, "also time every codec's first encode and first decode on each dataset shape, each in a fresh process (reflection caches, run-time code generation), reported apart from the warm figures")
	fs.BoolVar(&f.gate, "gate", false, "sample only while a probe says the machine runs at full speed (its fast phases, not its average)")
	b.timeout(&f.timeout, worker.DefaultTimeout, "preparing, verifying or one sample of a benchmark")
	b.inProcess(&f.inproc)
	b.quiet(&f.quiet)
	b.measure(&f.measure)
	fs.StringVar(&f.file, "file", "", "measure the document in `FILE` (.json, .yaml, .cbor, .msgpack; JSON lines as .jsonl) instead of the datasets, in this process; FILE,FILE2 adds a second document of the same kind, which decode alternates with the first (without it, the first is the only message)")
	fs.StringVar(&f.accept, "accept", "", "with -file: comma-separated `LOSSES` a codec may make on the document and still be measured (nil-empty, time-zone, time-precision=1s, float-precision=6, ...; float-precision alone is 6 significant digits); by default a codec must return the document exactly, and one that loses part of it as it declares is skipped with the loss named")
	return b
}

// parseRun parses the run command's flags into a configuration: the
// preset's selection and options, overridden by the flags given.
func parseRun(args []string, stderr io.Writer) (*runConfig, error) {
	var f runFlags
	b := newRunFlagSet(&f, stderr)
	fs := b.fs
	if err := b.parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("run takes no arguments, got %q; use flags such as -codecs json,gob", fs.Args())
	}
	p, err := preset.Lookup(f.preset)
	if err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if f.cold && f.inproc {
		return nil, usagef("-cold times first calls in fresh processes, and -in-process runs without any: give one of them")
	}
	c := &runConfig{args: args, set: set, out: f.out, resume: f.resume, quiet: f.quiet, inproc: f.inproc, timeout: f.timeout,
		cpus: f.cpu, cold: f.cold, mode: string(f.measure)}
	if err := c.selectFrom(p, &f, stderr); err != nil {
		return nil, err
	}
	if f.need != "" {
		if c.needs, err = need.Parse(f.need); err != nil {
			return nil, &UsageError{Msg: err.Error()}
		}
	}
	if err := c.counter(); err != nil {
		return nil, err
	}
	if c.opts, err = optionsFrom(p, &f, set); err != nil {
		return nil, err
	}
	c.opts.Count = c.mode == results.MeasureInstructions
	return c, nil
}

// selectFrom sets what c measures: the preset's selection, with the
// flags' lists in place of its own, or the -file document.
func (c *runConfig) selectFrom(p preset.Preset, f *runFlags, stderr io.Writer) error {
	c.sel = p.Selection
	if f.codecs != "" {
		c.sel.Codecs = splitList(f.codecs)
	}
	if f.file != "" {
		accepted, err := parseLosses(f.accept)
		if err != nil {
			return err
		}
		if err := c.useSample(f.file, splitList(f.codecs), stderr); err != nil {
			return err
		}
		c.sample.accepted = accepted
	} else if f.accept != "" {
		return usagef("-accept applies to a -file document only: the datasets are checked against each codec's declared losses")
	}
	if f.datasets != "" {
		c.sel.Datasets = splitList(f.datasets)
	}
	if f.shapes != "" {
		c.sel.Shapes = nil
		for _, s := range splitList(f.shapes) {
			c.sel.Shapes = append(c.sel.Shapes, dataset.Shape(s))
		}
	}
	if f.ops != "" {
		c.sel.Ops = nil
		for _, s := range splitList(f.ops) {
			c.sel.Ops = append(c.sel.Ops, results.Op(s))
		}
	}
	c.sel.XL = c.sel.XL || f.xl
	c.label = p.Label(c.sel)
	if c.sample != nil {
		c.label = "" // the document, not the preset's selection, is measured
	}
	return nil
}

// optionsFrom returns the runner's options: the preset's budget, sample
// time and whole-run time, overridden by the flags set, validated and
// with defaults filled in.
func optionsFrom(p preset.Preset, f *runFlags, set map[string]bool) (runner.Options, error) {
	// runner.Options.PinCPU counts from 1, 0 for none; -pin counts from 0.
	o := runner.Options{Target: f.target, Budget: p.Budget, SampleTime: p.SampleTime, PinCPU: f.pinCPU + 1,
		NoGC: f.noGC, GCFirst: f.gcFirst, Gate: f.gate, BatchTime: f.batchTime, MaxSamples: f.maxSamples, LiveHeap: int64(f.liveHeap),
		Compress: f.compress}
	if f.budget != 0 {
		o.Budget = f.budget
	}
	if f.sampleTime != 0 {
		o.SampleTime = f.sampleTime
	}
	// The preset's whole-run time holds unless the command line sets one,
	// or sets a per-benchmark budget alone.
	switch o.Total = p.Time; {
	case set["time"]:
		o.Total = f.total
	case set["budget"]:
		o.Total = 0
	}
	if err := o.Validate(); err != nil {
		return o, &UsageError{Msg: err.Error()}
	}
	return o.WithDefaults(), nil
}

// runConfigOf parses a run's command line; with -resume, that of the run
// it continues, from its journal, and returns the results it holds.
func runConfigOf(args []string, stderr io.Writer) (*runConfig, []results.Result, error) {
	cfg, err := parseRun(args, stderr)
	if err != nil || cfg.resume == "" {
		return cfg, nil, err
	}
	for name := range cfg.set {
		if name != "resume" && name != "q" {
			return nil, nil, usagef("-resume takes the options of the run it continues: give it alone (or with -q), not with -%s", name)
		}
	}
	h, rs, err := journal.Read(filepath.Join(cfg.resume, outdir.WorkName, journal.Name))
	if err != nil {
		return nil, nil, &UsageError{Msg: fmt.Sprintf("nothing to resume in %s: %v", cfg.resume, err)}
	}
	quiet, dir := cfg.quiet, cfg.resume
	if cfg, err = parseRun(h.Args, stderr); err != nil {
		return nil, nil, fmt.Errorf("the journal's arguments %q: %w", h.Args, err)
	}
	// The run goes on in the directory named, whatever -o its journal
	// recorded: a copy is resumed as a copy, leaving the original alone,
	// and a moved directory where it is now.
	cfg.quiet, cfg.out, cfg.resume = quiet, dir, dir
	return cfg, rs, nil
}

// measure returns the measuring configuration of the run.
func (c *runConfig) measure(stderr io.Writer) measure.Config {
	mc := measure.Config{Options: c.opts, Preset: c.label, LossProbes: fidelity.Shown, Excess: fidelity.Excess, AlsoCount: c.mode == results.MeasureBoth}
	if !c.inproc {
		mc.Workers = counters(workers(c.timeout, func(cell string, quiet, timeout time.Duration) {
			fmt.Fprintf(stderr, "serbench: waiting on %s: no progress for %v; killed once it spends %v of CPU time without any, or sits blocked that long (-timeout)\n", cell, quiet, timeout)
		}), c.vg)
		mc.Fresh = freshDecoder
		if c.cold {
			mc.Cold = coldCaller
		}
	}
	return mc
}

// workers returns the measure.Config.Workers of a command: a worker.Pool
// with the hang timeout and, if set, the report of a worker waited on.
func workers(timeout time.Duration, waiting func(cell string, quiet, timeout time.Duration)) func(runner.Options, func(*runner.Job, results.Result), func(runner.Event)) measure.Measurer {
	return func(opts runner.Options, finished func(*runner.Job, results.Result), progress func(runner.Event)) measure.Measurer {
		return &worker.Pool{Options: opts, Timeout: timeout, Finished: finished, Progress: progress, Waiting: waiting}
	}
}

// openJournal creates the run's journal in work, or opens it to append
// when the run resumes.
func openJournal(work string, args []string, run *results.Run, jobs []runner.Job, resume bool) (*journal.Writer, error) {
	path := filepath.Join(work, journal.Name)
	if resume {
		return journal.Append(path)
	}
	n := 0
	for _, j := range jobs {
		n += len(j.Ops)
	}
	return journal.Create(path, journal.Header{Args: args, Run: *run, Jobs: n})
}

// A journalHook appends each result to the journal, keeping the first
// error.
type journalHook struct {
	w   *journal.Writer
	err error
}

func (h *journalHook) add(_ *runner.Job, r results.Result) {
	if h.w == nil || h.err != nil {
		return
	}
	h.err = h.w.Add(r)
}

func (h *journalHook) close() {
	if h.w != nil {
		h.w.Close()
	}
}

// runCmd runs the run command in four steps: parse the command line (or
// the journal it resumes), plan the jobs and working directory, execute
// them, and write the table and the outputs.
func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, prior, err := runConfigOf(args, stderr)
	if err != nil {
		return err
	}
	p, err := cfg.plan(prior)
	if err != nil {
		return err
	}
	defer p.dir.Close()
	if err := p.applyNeeds(ctx, stderr); err != nil {
		return err
	}
	run, runErr, err := p.execute(ctx, stderr)
	if err != nil {
		return err
	}
	if err := table.Write(stdout, run); err != nil {
		return err
	}
	p.judgeAll(ctx, run)
	return finish(run, runErr, p.dir, stderr, p.studies...)
}

// A runPlan is a run ready to measure: its configuration, its jobs, the
// results a resumed run already holds, and its output directory, whose
// working directory holds the run until it ends.
type runPlan struct {
	cfg   *runConfig
	jobs  []runner.Job
	prior []results.Result
	dir   *outdir.Dir
	work  string
	// needs are the candidates judged on -need (applyNeeds), and studies
	// the files of the studies it ran, published with the run's outputs.
	needs   *results.Needs
	studies []string
}

// plan returns the run's plan. It claims the output directory and creates
// its working directory (unless the run resumes one) before any time is
// spent measuring.
func (c *runConfig) plan(prior []results.Result) (*runPlan, error) {
	jobs, err := c.jobs()
	if err != nil {
		return nil, &UsageError{Msg: err.Error()}
	}
	jobs = runner.OnProcs(jobs, c.cpus)
	d, err := openOut(c.out)
	if err != nil {
		return nil, err
	}
	p := &runPlan{cfg: c, jobs: jobs, prior: prior, dir: d, work: d.Work()}
	if c.resume == "" {
		if err := prepareWorkDir(d); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// execute measures the plan's jobs, appending each result to the
// journal and reporting progress on stderr. It returns the run; runErr,
// the reason it ended early (the run then holds what it measured); or
// err, a *RunError when the journal could not be written.
func (p *runPlan) execute(ctx context.Context, stderr io.Writer) (run *results.Run, runErr, err error) {
	mc := p.cfg.measure(stderr)
	run = measure.NewRun(mc, p.jobs)
	start := time.Now()
	share := countShare(p.cfg.mode, p.cfg.quiet)
	cleanup, build := fixSeeds(ctx, p.cfg.vg, p.cfg.mode, run, p.cfg.quiet, share, stderr)
	defer cleanup()
	run.Document = p.cfg.sample.record()
	run.Needs = p.needs
	run.Results = p.prior
	jw, jerr := &journalHook{}, error(nil)
	mc.Started = func(run *results.Run) error {
		jw.w, jerr = openJournal(p.work, p.cfg.args, run, p.jobs, p.cfg.resume != "")
		return jerr
	}
	mc.Finished = jw.add
	var prog *progress.Reporter // nil with -q: no progress
	var est time.Duration
	if !p.cfg.quiet {
		todo := measure.Remaining(p.jobs, p.prior)
		costs := calibrate(todo, stderr)
		f := forecast(todo, p.cfg.opts, costs)
		if est = f.Total; est >= time.Minute && p.cfg.mode != results.MeasureInstructions {
			fmt.Fprintf(stderr, "serbench: %d benchmarks; about %v (%s)\n", countBenchmarks(todo), est.Round(time.Second), forecastText(f))
			if why := f.Why(); why != "" && !f.Capped {
				fmt.Fprintln(stderr, "serbench: "+why)
			}
		}
		var count time.Duration
		plan := countPlan(p.cfg.mode, todo, costs, share)
		est, count = withCounts(stderr, p.cfg.mode, plan, share, est)
		prog = progress.New(stderr, len(todo))
		prog.Weigh(todo, f.Jobs, est, f.Capped)
		prog.SetCountEstimate(count, len(todo))
		prog.Keepalive(time.Now())
		mc.Progress = recounting(prog, p.cfg.mode, run, plan)
		est += build
		if mc.Fresh != nil {
			mc.Fresh = freshTo(prog)
		}
	}
	runErr = measure.Run(ctx, run, p.jobs, mc)
	prog.Finish()
	if est >= time.Minute {
		fmt.Fprintf(stderr, "serbench: estimated %v; took %v (%s)\n", est.Round(time.Second), time.Since(start).Round(time.Second), progress.Off(est, time.Since(start)))
	}
	jw.close()
	if err := cmp.Or(jerr, jw.err); err != nil {
		return nil, nil, &RunError{Msg: fmt.Sprintf("the journal in %s could not be written: %v", p.work, err)}
	}
	return run, runErr, nil
}

// withCounts returns the estimate of a command that measures as mode
// says, given est, its timed passes' estimate, and plan, its count
// pass's: the count pass's estimate (said on stderr) added for both, in
// its place for instructions; and the count pass's estimate when it
// follows timing (both), else 0. share is the share of a CPU each of the
// count's processes gets, measured as the command started (countShare),
// which stretches the count's CPU time (measure.CountEstimate).
func withCounts(stderr io.Writer, mode string, plan measure.CountPlan, share float64, est time.Duration) (total, after time.Duration) {
	if mode != results.MeasureInstructions && mode != results.MeasureBoth {
		return est, 0
	}
	idle, c := measure.CountEstimate(plan, 0), measure.CountEstimate(plan, share)
	on := "on an idle machine; a busy one stretches it, the counts stay"
	if c != idle {
		on = fmt.Sprintf("%v on an idle machine: each of its %d processes at once gets %s here, measured as it started; the counts stay",
			idle.Round(time.Second), measure.CountProcs, machine.ShareText(share))
	}
	how := "each job's preparation, warm-up and counted windows at Valgrind's paces, from the calls on its value timed as the command started"
	if mode == results.MeasureBoth {
		how += ", made again from the timed pass's times as counting begins"
	}
	fmt.Fprintf(stderr, "serbench: counting under Valgrind, each benchmark in %d processes: about %v (%s; %s)\n", measure.CountProcs, c.Round(time.Second), how, on)
	if mode == results.MeasureInstructions {
		return c, 0
	}
	return est + c, c
}

// countPlan returns what the estimate of the count pass of a command
// that measures jobs as mode says is made of (measure.CountPlan): with
// both, the timed pass makes the checks after timing; costs were timed
// as each of a count's processes got share of a CPU (countShare), one
// thread getting what machine.ShareAt says.
func countPlan(mode string, jobs []runner.Job, costs measure.Costs, share float64) measure.CountPlan {
	cpus := runtime.NumCPU()
	return measure.CountPlan{Jobs: jobs, Costs: costs, Verified: mode == results.MeasureBoth, CPUs: cpus,
		PassShare: machine.ShareAt(1, measure.CountProcs, cpus, share)}
}

// countShare measures the share of a CPU each of a count pass's
// processes gets now (measure.CountProcs busy threads), for the
// estimates of a command that counts and says them; 0 otherwise.
func countShare(mode string, quiet bool) float64 {
	if quiet || (mode != results.MeasureInstructions && mode != results.MeasureBoth) {
		return 0
	}
	return measureShare(measure.CountProcs)
}

// recounting returns prog's Event, which, when mode times then counts,
// makes the count pass's estimate again as that pass begins: from the
// timed pass's results in run (which benchmarks it counts, each op's
// CPU time) and the share of a CPU measured then, and tells prog.
func recounting(prog *progress.Reporter, mode string, run *results.Run, plan measure.CountPlan) func(runner.Event) {
	if mode != results.MeasureBoth {
		return prog.Event
	}
	return func(e runner.Event) {
		if e.Counting && e.Job == nil {
			plan.Timed = run.Results
			share := measureShare(measure.CountProcs)
			prog.CorrectCountEstimate(measure.CountEstimate(plan, share), e.Total,
				fmt.Sprintf("from the timed pass's time per op, each process getting %s now", machine.ShareText(share)))
		}
		prog.Event(e)
	}
}

// measureShare measures the share of a CPU each of threads busy threads
// gets on this machine now (machine.MeasureShare over machine.ShareProbe),
// for an estimate; a test replaces it with a reading of its own.
var measureShare = func(threads int) float64 { return machine.MeasureShare(threads, machine.ShareProbe) }

// shareFloor is the shortest idle forecast whose setup the share is
// measured for: below it, a short command spends no probe on an
// estimate it does not say (estimates under a minute go unsaid).
const shareFloor = 20 * time.Second

// forecast predicts measuring jobs with opts and costs (measure.Predict)
// at the codecs' own speeds (probeSpeeds) and the share of a CPU one
// worker gets, measured now, which stretches the setup and -time's tail
// (machine.Stretch); a forecast too short to be said is an idle
// machine's at json's speed.
func forecast(jobs []runner.Job, opts runner.Options, costs measure.Costs) measure.Forecast {
	f := measure.Predict(jobs, opts, costs, nil, 0)
	if f.Total < shareFloor {
		return f
	}
	return measure.Predict(jobs, opts, costs, probeSpeeds(jobs, costs), measureShare(1))
}

// calibrate times the preparation of jobs' values for the estimate
// (measure.Calibrate), saying what it times when it has been silent for
// progress.Quiet: a huge value takes seconds to build on a loaded machine.
func calibrate(jobs []runner.Job, stderr io.Writer) measure.Costs {
	start, said := time.Now(), time.Now()
	return measure.CalibrateSaying(jobs, time.Now, func(shape string) {
		if time.Since(said) >= progress.Quiet {
			fmt.Fprintf(stderr, "serbench: timing one build of each dataset shape for the estimate (%v so far): %s\n", time.Since(start).Round(time.Second), shape)
			said = time.Now()
		}
	})
}

// forecastText says what a run's estimate is made of: the budgets, the
// preparation and checks timed on this machine as the run started, and
// -time's bound.
func forecastText(f measure.Forecast) string {
	if f.Capped {
		s := fmt.Sprintf("-time, and %v after it for the fresh process's decodes and the files", f.Tail.Round(time.Second))
		if f.Share > 0 && f.Share < 1 {
			s += fmt.Sprintf(", stretched for the %s a worker got as the run started", machine.ShareText(f.Share))
		}
		return s + "; what -time does not reach is cut short, marked so"
	}
	s := fmt.Sprintf("%v of sampling budgets and setup", f.Sampling.Round(time.Second))
	if f.Checks > 0 {
		s += fmt.Sprintf(", %v preparing and checking the values, their calls timed on this machine as the run started", f.Checks.Round(time.Second))
	}
	if f.Tail > 0 {
		s += fmt.Sprintf(", %v after them for the fresh process's decodes and the files", f.Tail.Round(time.Second))
	}
	if f.Share > 0 && f.Share < 1 {
		s += fmt.Sprintf(" (the setup and the calls stretched for the %s a worker got as the run started)", machine.ShareText(f.Share))
	}
	return s + "; -time D bounds it, cutting short what it does not reach"
}

// finish writes a measured run's files and says how it ended: published
// into the output directory when it completed, left in its working
// directory when not.
func finish(run *results.Run, runErr error, d *outdir.Dir, stderr io.Writer, studies ...string) error {
	work, out := d.Work(), d.Path()
	warning, err := carryMatrices(out, work)
	if warning != "" {
		run.Warnings = append(run.Warnings, warning)
	}
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("%v; the journal of every result is kept in %s", err, work)}
	}
	if err := writeOutputs(work, run); err != nil {
		return &RunError{Msg: fmt.Sprintf("%v; the journal of every result is kept in %s", err, work)}
	}
	dir := work
	if runErr == nil {
		if err := d.Publish(append(runFiles(), studies...)); err != nil {
			return &RunError{Msg: fmt.Sprintf("%v; every output is in %s", err, work)}
		}
		dir = out
	}
	fmt.Fprintf(stderr, "serbench: %s; took %v; wrote %s\n", tally(run), time.Duration(run.Elapsed).Round(time.Millisecond), outputList(dir))
	for _, w := range run.Warnings {
		fmt.Fprintln(stderr, "serbench: "+w)
	}
	if runErr != nil {
		return &RunError{Msg: fmt.Sprintf("%v: the %d benchmarks measured are kept in %s; continue with: %s run -resume %s", runErr, len(run.Results), work, Self, out)}
	}
	if c := results.Count(run.Results); c.Failed > 0 {
		return &FailedError{Msg: fmt.Sprintf("%d benchmarks failed verification or errored; their reasons are in %s", c.Failed, filepath.Join(out, "results.csv"))}
	}
	return nil
}

// tally summarizes a run's statuses and how many measured results reached
// the interval target.
func tally(run *results.Run) string {
	c := results.Count(run.Results)
	if !run.Options.Timed() {
		return fmt.Sprintf("%d counted under Valgrind (%s), %d failed or errored, %d skipped", c.OK, results.UnitInstructions, c.Failed, c.Skipped)
	}
	var cis []float64
	for i := range run.Results {
		if r := &run.Results[i]; r.Status == results.OK {
			cis = append(cis, r.NsPerOp.RelCI())
		}
	}
	precision := ""
	if len(cis) > 0 {
		slices.Sort(cis)
		ci := func(f float64) string {
			if math.IsInf(f, 1) {
				return "∞"
			}
			return "±" + percent(f) + "%"
		}
		precision = fmt.Sprintf(", intervals %s in the middle and %s at the 90th percentile", ci(cis[len(cis)/2]), ci(cis[len(cis)*9/10]))
	}
	refined := ""
	if run.Refined > 0 {
		refined = fmt.Sprintf(" (%d sampled again, their order against a rival unsettled)", run.Refined)
	}
	return fmt.Sprintf("%d measured%s (%d within ±%s%%)%s, %d failed or errored, %d skipped; loop overhead %.2fns/op, included in every figure",
		c.OK, refined, c.Met, percent(run.Options.Target), precision, c.Failed, c.Skipped, run.Env.Overhead)
}

// percent formats a fraction as a percentage to a tenth: 0.03 as "3".
func percent(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/10, 'f', -1, 64)
}

// countBenchmarks counts the benchmarks of jobs that are not skipped.
func countBenchmarks(jobs []runner.Job) int {
	n := 0
	for _, j := range jobs {
		if j.Skip == "" {
			n += len(j.Ops)
		}
	}
	return n
}

// opNames joins ops for a flag's help.
func opNames(ops []results.Op) string {
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = string(op)
	}
	return strings.Join(names, ", ")
}
