package machine

import (
	"fmt"
	"time"
)

// A Usage is what the kernel shows of a process at one moment: the CPU
// time its threads have run, the time they have waited for a CPU while
// runnable, and its resident set size. OK is false where it cannot be
// read (then a quiet process is judged by the wall clock alone).
type Usage struct {
	At   time.Time
	CPU  time.Duration
	Wait time.Duration
	RSS  uint64
	// Held says a thread is in uninterruptible sleep (state D): the
	// kernel holds it, reclaiming memory or waiting on a disk.
	Held bool
	OK   bool
}

// A StallKind is what JudgeStall decides of a quiet process.
type StallKind int

const (
	// Watch: go on watching it, and judge again after Stall.Next.
	Watch StallKind = iota
	// Hung: it spent the timeout's CPU time without a step, or sat
	// blocked; or it passed HardWall timeouts doing neither of the below.
	Hung
	// Growth: past HardWall timeouts, its resident set still grows.
	Growth
	// Starved: past HardWall timeouts with under the timeout's CPU time,
	// on a machine too busy to judge it.
	Starved
)

// A Stall is the judgement of a process that has announced no step for a
// while: watch on, or stop it for the reason Detail gives.
type Stall struct {
	Kind   StallKind
	Detail string
	// Next is when to judge again, when Kind is Watch.
	Next time.Duration
}

// growthStep is the growth of the resident set between two looks that
// counts as growing: a decoder allocating what a header declares.
const growthStep = 8 << 20

// HardWall bounds, in timeouts, how long a process may go without a step
// however it uses the machine: a busy machine slows it, it does not stop
// it for ever.
const HardWall = 30

// JudgeStall judges a process whose last step began at step and that its
// watcher last looked at in last, now: the one rule of a hang, for a
// child process and for the runner's own sampling goroutine alike. A
// process is hung when it spent the timeout's worth of CPU time without a
// step while its memory did not grow, or when it neither ran nor waited
// for a CPU for most of the timeout (blocked, its threads asleep); one
// that waited for a CPU is slow on a busy machine, not hung, and one whose
// resident set grows, or that the kernel holds (reclaiming memory for
// it), is left to meet its memory cap (the runtime then says "out of
// memory").
// Past HardWall timeouts it is stopped whatever it does: as hung, starved,
// or for its memory's growth when it was still growing.
func JudgeStall(step, last, now Usage, timeout time.Duration) Stall {
	wall := now.At.Sub(step.At)
	look := max(timeout/4, 10*time.Millisecond)
	if !now.OK || !step.OK {
		if wall >= timeout {
			return Stall{Kind: Hung, Detail: fmt.Sprintf("no step for %v (the CPU time is not readable here: judged by the wall clock)", timeout)}
		}
		return Stall{Next: timeout - wall}
	}
	cpu := max(now.CPU-step.CPU, 0)
	waited := max(now.Wait-step.Wait, 0)
	growing := last.OK && now.RSS > last.RSS+growthStep
	said := fmt.Sprintf("%v of CPU time and %v waiting for a CPU in %v without a step, resident set %d MiB",
		cpu.Round(10*time.Millisecond), waited.Round(10*time.Millisecond), wall.Round(10*time.Millisecond), now.RSS>>20)
	switch {
	case wall >= HardWall*timeout && growing:
		return Stall{Kind: Growth, Detail: fmt.Sprintf("%s and still growing (from %d MiB at the look before), after %d timeouts", said, last.RSS>>20, HardWall)}
	case wall >= HardWall*timeout && cpu < timeout:
		return Stall{Kind: Starved, Detail: fmt.Sprintf("%s: under the timeout's CPU time after %d timeouts, on a machine too busy to judge it", said, HardWall)}
	case wall >= HardWall*timeout:
		return Stall{Kind: Hung, Detail: fmt.Sprintf("%s, after %d timeouts", said, HardWall)}
	case growing, now.Held, now.RSS == 0:
		// Growing toward its cap, held by the kernel, or exiting (its
		// memory already released): its end will say what it was.
		return Stall{Next: look}
	case cpu >= timeout:
		return Stall{Kind: Hung, Detail: said + ", not growing"}
	case wall >= timeout && cpu+waited < wall/4:
		return Stall{Kind: Hung, Detail: "blocked: " + said}
	}
	return Stall{Next: look}
}
