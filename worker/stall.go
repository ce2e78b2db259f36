package worker

import (
	"fmt"
	"time"
)

// A usage is what the kernel shows of a child at one moment: the CPU time
// its threads have run, the time they have waited for a CPU while
// runnable, and its resident set size. ok is false where it cannot be
// read (then a quiet child is judged by the wall clock alone).
type usage struct {
	at   time.Time
	cpu  time.Duration
	wait time.Duration
	rss  uint64
	// held says a thread is in uninterruptible sleep (state D): the
	// kernel holds it, reclaiming memory or waiting on a disk.
	held bool
	ok   bool
}

// A stall is the judgement of a child that has announced no step for a
// while: go on watching it, or kill it with an Exit that says why.
type stall struct {
	kill *Exit
	// next is when to judge again, when kill is nil.
	next time.Duration
}

// growthStep is the growth of the resident set between two looks that
// counts as growing: a decoder allocating what a header declares.
const growthStep = 8 << 20

// hardWall bounds, in timeouts, how long a child may go without a step
// however it uses the machine: a busy machine slows a child, it does not
// stop it for ever.
const hardWall = 30

// judgeStall judges a child whose last step began at step and that the
// parent last looked at in last, now: the one rule of a hang. A child is
// hung when it spent the timeout's worth of CPU time without a step while
// its memory did not grow, or when it neither ran nor waited for a CPU
// for most of the timeout (blocked, its threads asleep); a child that
// waited for a CPU is slow on a busy machine, not hung, and one whose
// resident set grows, or that the kernel holds (reclaiming memory for
// it), is left to meet its memory cap (the runtime then says "out of
// memory").
// Past hardWall timeouts it is killed whatever it does: as hung, or for
// its memory's growth when it was still growing.
func judgeStall(step, last, now usage, timeout time.Duration) stall {
	wall := now.at.Sub(step.at)
	look := max(timeout/4, 10*time.Millisecond)
	if !now.ok || !step.ok {
		if wall >= timeout {
			return stall{kill: &Exit{Kind: ExitTimeout, Detail: fmt.Sprintf("no step for %v; killed (the child's CPU time is not readable here: judged by the wall clock)", timeout)}}
		}
		return stall{next: timeout - wall}
	}
	cpu := max(now.cpu-step.cpu, 0)
	waited := max(now.wait-step.wait, 0)
	growing := last.ok && now.rss > last.rss+growthStep
	said := fmt.Sprintf("%v of CPU time and %v waiting for a CPU in %v without a step, resident set %d MiB",
		cpu.Round(10*time.Millisecond), waited.Round(10*time.Millisecond), wall.Round(10*time.Millisecond), now.rss>>20)
	switch {
	case wall >= hardWall*timeout && growing:
		return stall{kill: &Exit{Kind: ExitGrowth, Detail: fmt.Sprintf("%s and still growing (from %d MiB at the look before); killed after %d timeouts", said, last.rss>>20, hardWall)}}
	case wall >= hardWall*timeout && cpu < timeout:
		return stall{kill: &Exit{Kind: ExitStarved, Detail: fmt.Sprintf("%s: under the timeout's CPU time after %d timeouts, on a machine too busy to judge it; killed", said, hardWall)}}
	case wall >= hardWall*timeout:
		return stall{kill: &Exit{Kind: ExitTimeout, Detail: fmt.Sprintf("%s; killed after %d timeouts", said, hardWall)}}
	case growing, now.held, now.rss == 0:
		// Growing toward its cap, held by the kernel, or exiting (its
		// memory already released): its end will say what it was.
		return stall{next: look}
	case cpu >= timeout:
		return stall{kill: &Exit{Kind: ExitTimeout, Detail: said + ", not growing; killed"}}
	case wall >= timeout && cpu+waited < wall/4:
		return stall{kill: &Exit{Kind: ExitTimeout, Detail: "blocked: " + said + "; killed"}}
	}
	return stall{next: look}
}
