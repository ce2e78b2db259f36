package runner

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/serbench/serbench/internal/valgrind"
)

// countWindow is the fewest instructions the shorter of a count's two
// windows runs. It is long enough that the scheduler's own work on the
// counting thread, and the allocator's state as a window starts (how
// many free slots the live heap leaves in partly used spans, which
// differs between processes), are a small fraction of it.
const countWindow = 10_000_000

// countWarm is the fewest instructions the uncounted loop before the
// windows runs, in whole passes over the pool. The runtime fills the
// cache of a type assertion's or a type switch's call site at random,
// about once in 1,024 calls that miss it (runtime.typeAssert), each
// process at its own time: a loop that has not run each site some ten
// thousand times counts its misses (getitab and the itab table's lookup,
// about 130 instructions each) in one process and not in the next. Run
// with instrumentation off, this loop costs a fraction of a second.
const countWarm = 100_000_000

// countPairs is how many times the count runs its pair of windows. Work
// that is not the loop's (a page the heap maps, the scheduler's turn) can
// only add to a window's count, so the least of each window's counts is
// the loop's own.
const countPairs = 2

// CountSalt draws the pool of messages of every count (in place of
// Options.Salt, which a run draws afresh): the pool's builds decide how
// many digits its numbers have and how long its strings are, so two runs
// count the same code over the same messages only with the same salt.
// The run's own salt still keeps the timed pass's messages and the
// builds its checks show the codec unknown before the run.
const CountSalt = 0x5e7b_e4c4_c0_0a7

// count counts bench b's instructions per op (Options.Count), then makes
// the checks after timing unless another pass made them (Options.Verified),
// and ends the bench. A count that fails fails
// the bench as a timed iteration's would.
func (r *Runner) count(job *Job, b *bench) {
	r.beat(job, b.res.Op, "count")
	if job.Procs > 1 {
		b.res.CountSkipped = fmt.Sprintf("counted on one goroutine only, not at GOMAXPROCS %d", job.Procs)
	} else if n, err := r.countBench(b); err != nil {
		b.fail(err)
		return
	} else {
		b.res.InstrPerOp = n
	}
	if !r.opts.Verified {
		r.checkBench(b)
	}
	b.done = true
}

// countBench returns the instructions per op of b's timed loop: the
// difference of the counts of two windows of the loop, n and 2n
// iterations, over n (each window run countPairs times, its least count
// kept), so that what a window costs besides its iterations
// (arming the control, the count's own requests, the loop's entry) cancels
// by design. n is a whole number of passes over the pool of messages, so
// that every message counts alike whatever the order; the loop first runs
// at least 2n iterations and countWarm instructions uncounted, so that the
// heap both windows allocate from has its working size and the runtime's
// caches of type assertions are filled. The collector is off during the windows, and a
// collection runs before each, so that no window pays for another's
// garbage: instructions per op are the op's own, allocation included and
// collection not (see docs/harness.md); the free pages go back to the
// system before each window too. The goroutine stays on its
// thread, the only one counted; the loop's random iterations are
// verified as when timed, with the count paused.
func (r *Runner) countBench(b *bench) (float64, error) {
	c, err := valgrind.Open()
	if err != nil {
		return 0, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ctl.uncounted = func(f func() error) error {
		c.Pause()
		defer c.Resume()
		return f()
	}
	defer func() { b.ctl.uncounted = nil }()
	defer c.Off() // the checks after the count run uninstrumented
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	window := func(n int) (uint64, error) {
		// A collection, and the free pages given back to the system:
		// whether a window's spans come zeroed or must be cleared
		// then follows from the loop, not from when the background
		// scavenger last ran.
		debug.FreeOSMemory()
		b.ctl.arm(n)
		c.Start()
		err := b.loop(n)
		got, cerr := c.Stop()
		r.alive()
		if err == nil {
			err = b.ctl.settle()
		}
		if err != nil {
			return 0, err
		}
		return got, cerr
	}
	pool := max(len(b.ctl.order), 1)
	first, err := window(pool)
	if err != nil {
		return 0, err
	}
	n, warm := countLengths(pool, first)
	c.Off()
	runtime.GC()
	b.ctl.arm(warm)
	if err := b.loop(warm); err != nil {
		return 0, err
	}
	if err := b.ctl.settle(); err != nil {
		return 0, err
	}
	r.alive()
	var ones, twos []uint64
	for range countPairs {
		one, err := window(n)
		if err != nil {
			return 0, err
		}
		two, err := window(2 * n)
		if err != nil {
			return 0, err
		}
		ones, twos = append(ones, one), append(twos, two)
	}
	return perOp(ones, twos, n)
}

// perOp returns the instructions per op of windows of n (ones) and 2n
// (twos) iterations: the least count of each, whose difference over n
// is the loop's own. Work that is not the loop's can only add to a
// window, so a window that met some counts more, never less.
func perOp(ones, twos []uint64, n int) (float64, error) {
	one, two := slices.Min(ones), slices.Min(twos)
	if two <= one {
		return 0, fmt.Errorf("counting: %d iterations ran %d instructions and %d ran %d: a count that does not grow with the loop is not the loop's", 2*n, two, n, one)
	}
	return float64(two-one) / float64(n), nil
}

// CountWork returns what countBench runs for an op of perOp instructions
// whose pool holds pool messages (Job.PoolFor): counted, the
// instructions of its windows (the first, of one pass over the pool, and
// countPairs pairs of n and 2n iterations), which Valgrind runs
// instrumented; plain, those of the loop before the pairs, which it runs
// with instrumentation off; and windows, how many windows (each a
// collection and a dump). An estimate of a count's time weighs them by
// the two paces.
func CountWork(perOp float64, pool int) (counted, plain float64, windows int) {
	pool = max(pool, 1)
	n, warm := countLengths(pool, uint64(float64(pool)*perOp))
	counted = float64(pool)*perOp + float64(countPairs*3*n)*perOp
	return counted, float64(warm) * perOp, 1 + 2*countPairs
}

// countLengths returns the iterations of a count's shorter window, n, a
// whole number of passes over a pool of pool messages that runs at least
// countWindow instructions, and of the uncounted loop before the windows,
// warm: at least 2n iterations and countWarm instructions; first is the
// instructions of one pass over the pool.
func countLengths(pool int, first uint64) (n, warm int) {
	first = max(first, 1)
	n = pool * max(1, int((countWindow+first-1)/first))
	warm = max(2*n, pool*int(min((countWarm+first-1)/first, 1<<20)))
	return n, warm
}
