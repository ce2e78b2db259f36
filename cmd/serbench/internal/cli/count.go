package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// counter finds the Valgrind a run that counts instructions needs: a run
// that counts without one is a mistake of the command line (exit 2), told
// how to install it; so is one that counts in this process, which runs
// on the CPU itself.
func (c *runConfig) counter() error {
	if c.mode == results.MeasureTime || c.mode == "" {
		return nil
	}
	if c.inproc {
		return usagef("-measure %s counts in worker processes under Valgrind, and -in-process runs without any: give one of them", c.mode)
	}
	if c.sample != nil {
		return usagef("-measure %s counts the datasets in worker processes; a -file document is measured in this process: give one of them", c.mode)
	}
	vg, err := worker.FindValgrind()
	if err != nil {
		return usagef("-measure %s: %v", c.mode, err)
	}
	c.vg = vg
	return nil
}

// counters returns workers whose pools, given options that count
// (runner.Options.Count), start their children under vg, with the hang
// timeout stretched for Valgrind (worker.Stretch).
func counters(workers func(runner.Options, func(*runner.Job, results.Result), func(runner.Event)) measure.Measurer, vg *worker.Valgrind) func(runner.Options, func(*runner.Job, results.Result), func(runner.Event)) measure.Measurer {
	return func(opts runner.Options, finished func(*runner.Job, results.Result), progress func(runner.Event)) measure.Measurer {
		m := workers(opts, finished, progress)
		if p, ok := m.(*worker.Pool); ok && opts.Count && vg != nil {
			p.Wrap = vg
			p.Timeout = cmp.Or(p.Timeout, worker.DefaultTimeout) * worker.Stretch
		}
		return m
	}
}

// fixSeeds makes vg count with a build of serbench whose runtime seeds from
// a constant (worker.Valgrind.FixSeeds), when mode counts, and records
// what seeded the counts in run (Options.CountSeed, and a warning where
// the seeds stay random). The build lives in a temporary directory the
// returned cleanup removes.
func fixSeeds(ctx context.Context, vg *worker.Valgrind, mode string, run *results.Run, quiet bool, stderr io.Writer) (cleanup func()) {
	if vg == nil || (mode != results.MeasureInstructions && mode != results.MeasureBoth) {
		return func() {}
	}
	work, err := os.MkdirTemp("", "serbench-count-")
	if err != nil {
		run.Options.CountSeed = "random per process: " + err.Error()
		return func() {}
	}
	if !quiet {
		fmt.Fprintln(stderr, "serbench: building the counting worker: serbench with its runtime seeded from a constant, so that counts repeat between processes (the first build recompiles serbench, about a minute; later ones come from Go's build cache)")
	}
	run.Options.CountSeed = vg.FixSeeds(ctx, work)
	if rest, ok := strings.CutPrefix(run.Options.CountSeed, "random per process"); ok {
		w := "counted with each process's random seeds" + rest
		run.Warnings = append(run.Warnings, w)
		if !quiet {
			fmt.Fprintln(stderr, "serbench: "+w)
		}
	}
	return func() { os.RemoveAll(work) }
}
