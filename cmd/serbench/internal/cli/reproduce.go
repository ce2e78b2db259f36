package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/serbench/serbench/claims"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/progress"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/report/reproduction"
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
		list            = fs.String("claims", "", "comma-separated claim IDs (default: all; see 'serbench list claims')")
		inproc          = fs.Bool("in-process", false, "measure in this process, not in worker processes (-timeout does not apply)")
	)
	b.out(&out, "REPRODUCTION.md")
	b.budget(&budget, 2*time.Second, "")
	b.runTime(&total, 15*time.Minute, "; a claim whose cases were cut short cannot be tested here")
	b.timeout(&timeout, worker.DefaultTimeout, "preparing, verifying or one sample of a benchmark")
	b.quiet(&quiet)
	if err := b.parse(args); err != nil {
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
	mc := measure.Config{Options: runner.Options{Budget: budget, Total: total}, Preset: "reproduce", LossProbes: fidelity.Shown}
	if !*inproc {
		mc.Workers, mc.Fresh = workers(timeout, nil), freshDecoder
	}
	run := measure.NewRun(mc, jobs)
	var prog *progress.Reporter
	if !quiet && len(jobs) > 0 {
		prog = progress.New(stderr, len(jobs))
		mc.Progress = prog.Event
	}
	if len(jobs) > 0 {
		err = measure.Run(ctx, run, jobs, mc)
	}
	prog.Finish()
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
	for _, c := range cs {
		count[claims.Check(c, run.Results).Verdict]++
	}
	_, err = fmt.Fprintf(stdout, "%d claims: %d hold, %d hold with a caveat, %d do not hold, %d undecided within noise, %d cannot be tested here; wrote %s\n",
		len(cs), count[claims.Holds], count[claims.Caveat], count[claims.NotHold], count[claims.Undecided], count[claims.Untestable], path)
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
