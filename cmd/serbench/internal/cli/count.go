package cli

import (
	"cmp"

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
