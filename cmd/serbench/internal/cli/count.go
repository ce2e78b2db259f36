package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/serbench/serbench/machine"
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
// the seeds stay random). Unless quiet, it first says how long the build
// is expected to take (buildEstimate: what go list says it would
// compile, share being the share of a CPU each of a count's processes
// got as the command started, countShare) and returns that estimate.
// The build lives in a temporary directory the returned cleanup removes.
func fixSeeds(ctx context.Context, vg *worker.Valgrind, mode string, run *results.Run, quiet bool, share float64, stderr io.Writer) (cleanup func(), est time.Duration) {
	if vg == nil || (mode != results.MeasureInstructions && mode != results.MeasureBoth) {
		return func() {}, 0
	}
	work, err := os.MkdirTemp("", "serbench-count-")
	if err != nil {
		run.Options.CountSeed = "random per process: " + err.Error()
		return func() {}, 0
	}
	if !quiet {
		what := ""
		if plan, err := vg.StaleSeeds(ctx, work); err == nil {
			est = buildEstimate(plan, runtime.NumCPU(), share)
			what = fmt.Sprintf(": about %v (%s)", est.Round(time.Second), buildText(plan))
		}
		fmt.Fprintf(stderr, "serbench: building the counting worker, serbench with its runtime seeded from a constant so that counts repeat between processes%s\n", what)
	}
	run.Options.CountSeed = vg.FixSeeds(ctx, work)
	if rest, ok := strings.CutPrefix(run.Options.CountSeed, "random per process"); ok {
		w := "counted with each process's random seeds" + rest
		run.Warnings = append(run.Warnings, w)
		if !quiet {
			fmt.Fprintln(stderr, "serbench: "+w)
		}
	}
	return func() { os.RemoveAll(work) }, est
}

// The CPU time of the counting worker's build, fitted from builds of
// serbench on this machine (notes/noise-log.md, count43): buildBase,
// what go build does even when Go's build cache holds every package
// (hashing their sources, linking the program), on one thread; and
// compileByte, the compiler's time per byte of a package's source that
// the cache does not hold, on as many threads at once as there are
// CPUs (go build -p).
const (
	buildBase   = 3 * time.Second
	compileByte = 2.0 // ns
)

// buildEstimate returns about how long the build plan p says takes on
// cpus CPUs, each of measure.CountProcs busy threads having got share of
// a CPU (0: an idle machine): the compiler's threads and the link get
// their own shares of what the machine's other work leaves
// (machine.ShareAt).
func buildEstimate(p worker.BuildPlan, cpus int, share float64) time.Duration {
	cpus = max(cpus, 1)
	compile := time.Duration(float64(p.Bytes) * compileByte / float64(cpus))
	return machine.Stretch(buildBase, machine.ShareAt(1, measure.CountProcs, cpus, share)) +
		machine.Stretch(compile, machine.ShareAt(cpus, measure.CountProcs, cpus, share))
}

// buildText says what a build compiles, for the estimate's line.
func buildText(p worker.BuildPlan) string {
	if p.Packages == 0 {
		return "Go's build cache holds every package: it links only"
	}
	size := fmt.Sprintf("%.0f MB", float64(p.Bytes)/1e6)
	if p.Bytes < 1e6 {
		size = fmt.Sprintf("%.0f kB", float64(p.Bytes)/1e3)
	}
	return fmt.Sprintf("%d packages, %s of source, are not in Go's build cache and compile; a later build takes them from it", p.Packages, size)
}
