package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	fs := flag.NewFlagSet("serbench reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		list    = fs.String("claims", "", "comma-separated claim IDs (default: all; see 'serbench list claims')")
		out     = fs.String("o", ".", "directory to write REPRODUCTION.md in")
		budget  = fs.Duration("budget", 2*time.Second, "sampling time per benchmark, in [10ms, 10m]")
		timeout = fs.Duration("timeout", worker.DefaultTimeout, "kill a worker whose codec makes no progress for this long, at least 1s")
		inproc  = fs.Bool("in-process", false, "measure in this process, not in worker processes")
		quiet   = fs.Bool("q", false, "no progress on stderr")
	)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: serbench reproduce [-claims LIST] [-o DIR] [-budget D]\n\n"+
			"Runs the experiments the seed articles' claims need, verified as in a run, and writes\n"+
			"DIR/REPRODUCTION.md: each claim, the article's figure, serbench's, and a verdict.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
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
	if *budget < 10*time.Millisecond || *budget > 10*time.Minute {
		return usagef("-budget %v is out of range [10ms, 10m]", *budget)
	}
	if *timeout < time.Second {
		return usagef("-timeout %v is below 1s", *timeout)
	}
	jobs, err := claims.Jobs(cs)
	if err != nil {
		return err
	}
	mc := measure.Config{Options: runner.Options{Budget: *budget}, Preset: "reproduce", LossProbes: fidelity.Shown}
	if !*inproc {
		mc.Workers = workers(*timeout, nil)
	}
	run := measure.NewRun(mc, jobs)
	var prog *progress.Reporter
	if !*quiet && len(jobs) > 0 {
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
	path := filepath.Join(*out, "REPRODUCTION.md")
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return &RunError{Msg: err.Error()}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return &RunError{Msg: err.Error()}
	}
	count := map[claims.Verdict]int{}
	for _, c := range cs {
		count[claims.Check(c, run.Results).Verdict]++
	}
	_, err = fmt.Fprintf(stdout, "%d claims: %d hold, %d hold with a caveat, %d do not hold, %d cannot be tested here; wrote %s\n",
		len(cs), count[claims.Holds], count[claims.Caveat], count[claims.NotHold], count[claims.Untestable], path)
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
