package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/serbench/serbench/claims"
	"github.com/serbench/serbench/cmd/serbench/internal/progress"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/report/reproduction"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// reproduceCmd runs the experiments of the selected claims of the seed
// articles and writes REPRODUCTION.md with a verdict for each.
func reproduceCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	b := newFlags("reproduce", "serbench reproduce [-claims LIST] [-o DIR] [-budget D]",
		"Runs the experiments the seed articles' claims need, verified as in a run, and writes\n"+
			"DIR/REPRODUCTION.md: each claim, the article's figure, serbench's, and a verdict.", stderr)
	fs := b.fs
	var (
		out             string
		budget, timeout time.Duration
		total           time.Duration
		quiet           bool
		mode            measureMode
		list            = fs.String("claims", "", "comma-separated claim IDs (default: all; see 'serbench list claims')")
		inproc          bool
	)
	b.inProcess(&inproc)
	b.out(&out, "REPRODUCTION.md")
	b.budget(&budget, 2*time.Second, "")
	b.runTime(&total, 15*time.Minute, "; a claim whose cases were cut short is marked not measured")
	b.timeout(&timeout, worker.DefaultTimeout, "preparing, verifying or one sample of a benchmark")
	b.quiet(&quiet)
	b.measure(&mode)
	if err := b.parse(args); err != nil {
		return err
	}
	rc := runConfig{mode: string(mode), inproc: inproc}
	if err := rc.counter(); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("reproduce takes no arguments, got %q; name claims with -claims", fs.Args())
	}
	cs := claims.All
	if *list != "" {
		var err error
		if cs, err = claims.Lookup(splitList(*list)); err != nil {
			return &UsageError{Msg: err.Error()}
		}
	}
	d, err := openOut(out)
	if err != nil {
		return err
	}
	defer d.Close()
	jobs, err := claims.Jobs(cs)
	if err != nil {
		return err
	}
	opts := runner.Options{Budget: budget, Total: total, Count: rc.mode == results.MeasureInstructions}
	mc := measure.Config{Options: opts, Preset: "reproduce", LossProbes: fidelity.Shown, Excess: fidelity.Excess, AlsoCount: rc.mode == results.MeasureBoth}
	if !inproc {
		mc.Workers, mc.Fresh = counters(workers(timeout, nil), rc.vg), freshDecoder
	}
	run := measure.NewRun(mc, jobs)
	start, est, build, share := time.Now(), time.Duration(0), time.Duration(0), 0.0
	if len(jobs) > 0 {
		share = countShare(rc.mode, quiet)
		var cleanup func()
		cleanup, build = fixSeeds(ctx, rc.vg, rc.mode, run, quiet, share, stderr)
		defer cleanup()
	}
	var prog *progress.Reporter
	if !quiet && len(jobs) > 0 {
		costs := calibrate(jobs, stderr)
		f := forecast(jobs, mc.Options, costs)
		est = f.Total
		how := forecastText(f)
		if f.Capped {
			how = fmt.Sprintf("-time, and %v after it for the fresh process's decodes and the files; a claim whose cases it does not reach is marked not measured", f.Tail.Round(time.Second))
		}
		fmt.Fprintf(stderr, "serbench: %d jobs; about %v (%s)\n", len(jobs), est.Round(time.Second), how)
		var count time.Duration
		plan := countPlan(rc.mode, jobs, costs, share)
		est, count = withCounts(stderr, rc.mode, plan, share, est)
		prog = progress.New(stderr, len(jobs))
		prog.Weigh(jobs, f.Jobs, est, f.Capped)
		prog.SetCountEstimate(count, len(jobs))
		prog.Keepalive(time.Now())
		mc.Progress = recounting(prog, rc.mode, run, plan)
		est += build
	}
	if len(jobs) > 0 {
		err = measure.Run(ctx, run, jobs, mc)
	}
	prog.Finish()
	if !quiet && len(jobs) > 0 {
		fmt.Fprintf(stderr, "serbench: estimated %v; took %v (%s)\n", est.Round(time.Second), time.Since(start).Round(time.Second), progress.Off(est, time.Since(start)))
	}
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("reproduce: %v", err)}
	}
	var buf bytes.Buffer
	if err := reproduction.Write(&buf, run, cs); err != nil {
		return err
	}
	path := d.Join("REPRODUCTION.md")
	if err := d.WriteFile("REPRODUCTION.md", func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return &RunError{Msg: err.Error()}
	}
	count := map[claims.Verdict]int{}
	byCounts := 0
	for _, c := range cs {
		o := claims.Check(c, run.Results)
		count[o.Verdict]++
		if o.ByCounts {
			byCounts++
		}
	}
	decided := ""
	if run.Options.Counted() {
		decided = fmt.Sprintf(" (%d decided by instruction counts where time left them undecided)", byCounts)
	}
	_, err = fmt.Fprintf(stdout, "%d claims: %d hold, %d hold with a caveat, %d do not hold, %d undecided within noise, %d not measured (time ran out), %d cannot be tested here%s; wrote %s\n",
		len(cs), count[claims.Holds], count[claims.Caveat], count[claims.NotHold], count[claims.Undecided], count[claims.NotMeasured], count[claims.Untestable], decided, path)
	return err
}

// claimTable lists the claims for 'serbench list claims'.
func claimTable() listing {
	t := listing{header: []string{"CLAIM", "SEED", "QUOTE"}}
	for _, c := range claims.All {
		t.rows = append(t.rows, row{cells: []string{c.ID, c.Seed, c.Quote}})
	}
	return t
}
