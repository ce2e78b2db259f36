package machine

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

// A command's estimate holds only if it knows how much of a CPU the
// command will get. On a shared machine (a CI runner, a laptop with a
// build in the background, a VM of several engineers) other work takes
// most of the CPUs, and CPU work that takes a minute on an idle machine
// takes four there. The load average does not say how much: the kernel's
// scheduler shares CPUs among groups of processes, not only among the
// runnable threads it counts. So a command measures its share as it
// starts: it spins as many threads as it will keep busy for ShareProbe and
// divides the CPU time they got by the wall time they spun (MeasureShare).
//
// The rule (Stretch): CPU work whose cost was set on an idle machine (a
// count under Valgrind, a worker's start and setup, the least of a few
// calls a run times as it starts) lasts its idle time divided by the
// share. A study's first cells, timed as they run, ran at the share and
// are not stretched again, and a sampling budget is wall time. A load
// that rises during the command is not in any estimate.

// ShareProbe is how long MeasureShare spins: long enough to span the
// phases of a shared machine's other work, short beside the minutes of a
// command that says an estimate.
const ShareProbe = 2 * time.Second

// minShare is the smallest share Stretch divides by: a probe that got
// almost nothing (a machine stopped for a moment) stretches work a
// hundredfold at most.
const minShare = 0.01

// ShareOf returns the share of a CPU each of threads busy threads got,
// given cpu, the CPU time they used together, over wall: cpu over threads
// times wall, at most 1; 0 (unknown) when a reading is missing.
func ShareOf(cpu, wall time.Duration, threads int) float64 {
	if cpu <= 0 || wall <= 0 || threads <= 0 {
		return 0
	}
	return min(float64(cpu)/(float64(threads)*float64(wall)), 1)
}

// MeasureShare spins threads goroutines, each on an OS thread of its own,
// for d and returns the share of a CPU each got (ShareOf the process's CPU
// time over them), or 0 where the OS does not report CPU time. The
// process should be otherwise idle while it measures.
func MeasureShare(threads int, d time.Duration) float64 {
	threads = max(threads, 1)
	cpu0, ok := CPUTime()
	if !ok {
		return 0
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			n := uint64(0)
			for time.Since(start) < d {
				n++
			}
			gaugeSink.Add(n)
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	cpu1, _ := CPUTime()
	return ShareOf(cpu1-cpu0, wall, threads)
}

// ShareAt returns the share of a CPU each of k busy threads gets on cpus
// CPUs where each of m busy threads got share (MeasureShare with m
// threads; 0: unknown, and 0 is returned): the machine's other work is
// taken as cpus/share - m busy threads (the CPUs the m did not get),
// which share the CPUs with the k alike; a whole share, none.
func ShareAt(k, m, cpus int, share float64) float64 {
	if share <= 0 {
		return 0
	}
	others := 0.0
	if share < 1 {
		others = max(0, float64(cpus)/share-float64(m))
	}
	return min(1, float64(cpus)/(others+float64(max(k, 1))))
}

// Stretch returns d, CPU work as it takes on an idle machine, as it lasts
// at share: d divided by share; d itself when the share is unknown (0) or
// whole.
func Stretch(d time.Duration, share float64) time.Duration {
	if share <= 0 || share >= 1 {
		return d
	}
	return time.Duration(float64(d) / max(share, minShare))
}

// ShareText says a share for an estimate's line: "38% of a CPU", or ""
// when it is unknown.
func ShareText(share float64) string {
	if share <= 0 {
		return ""
	}
	return fmt.Sprintf("%.0f%% of a CPU", 100*share)
}
