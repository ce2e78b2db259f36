package worker

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
)

// An Exit says how a child process died: the one classification of every
// child serbench starts, benchmark workers and task children alike.
type Exit struct {
	// Kind is one of the Exit kinds.
	Kind string `json:"kind"`
	// Detail is what the runtime said ("fatal error: ..."), the signal,
	// or what the parent saw (the kernel's evidence, the broken protocol).
	Detail string `json:"detail,omitempty"`
	// Stderr is the start and the end of the child's stderr.
	Stderr string `json:"stderr,omitempty"`
	// PeakRSS is the child's peak resident set size, in bytes, where the
	// OS reports it.
	PeakRSS uint64 `json:"peak_rss,omitempty"`
}

// The Exit kinds.
const (
	ExitStackOverflow = "stack overflow"
	ExitOutOfMemory   = "out of memory"      // the runtime failed an allocation (under the memory cap)
	ExitOOMKilled     = "out-of-memory kill" // SIGKILL, and the kernel counted an out-of-memory kill meanwhile
	ExitKilled        = "killed, cause unknown"
	ExitRace          = "data race"          // reported by the race detector
	ExitFatal         = "fatal error"        // any other fatal runtime error
	ExitPanic         = "unrecovered panic"  // a panic on a goroutine nobody recovers
	ExitSignal        = "signal"             // a signal other than SIGKILL
	ExitTimeout       = "timeout"            // no step while it used the timeout's CPU time, or while blocked (judgeStall); killed
	ExitGrowth        = "memory growth"      // no step, its resident set still growing after machine.HardWall timeouts; killed
	ExitStarved       = "starved"            // no step after machine.HardWall timeouts, with under the timeout's CPU time: too busy a machine to judge; killed
	ExitGuard         = "memory guard"       // an uncapped child's resident set passed its Limits.Guard; killed
	ExitProtocol      = "protocol violation" // events the parent cannot believe; killed
	ExitOther         = "exit"               // a non-zero exit status, or an end without the child's answer
)

// String names the death in words: the kind, with the runtime's line or
// the evidence where they say more.
func (e *Exit) String() string {
	switch e.Kind {
	case ExitFatal, ExitSignal, ExitOther, ExitKilled, ExitOOMKilled, ExitProtocol, ExitGrowth, ExitGuard, ExitStarved:
		if e.Detail != "" && e.Detail != e.Kind {
			if e.Kind == ExitFatal || e.Kind == ExitSignal || e.Kind == ExitOther {
				return e.Detail
			}
			return e.Kind + ": " + e.Detail
		}
	case ExitRace:
		return "data race, reported by the race detector"
	}
	return e.Kind
}

// classify says how a child died from its wait error, its stderr and what
// the kernel shows of out-of-memory kills over its life (oom: a counter
// went up; known: some counter could be read). It is the only place that
// reads a child's death.
func classify(err error, stderr string, ev oomEvidence) *Exit {
	e := &Exit{Stderr: stderr}
	switch {
	case strings.Contains(stderr, "stack overflow") || strings.Contains(stderr, "stack exceeds"):
		e.Kind = ExitStackOverflow
	case strings.Contains(stderr, "out of memory"), strings.Contains(stderr, "cannot allocate memory"),
		// How the race detector's runtime fails an allocation it cannot map.
		strings.Contains(stderr, "too many address space collisions for -race mode"):
		e.Kind = ExitOutOfMemory
	case strings.Contains(stderr, "WARNING: DATA RACE"):
		e.Kind = ExitRace
	case hasLinePrefix(stderr, "fatal error: "):
		e.Kind = ExitFatal
	case hasLinePrefix(stderr, "panic: "):
		e.Kind = ExitPanic
	}
	if e.Kind != "" {
		e.Detail = firstLine(stderr, e.Kind)
		return e
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		ws, ok := ee.Sys().(syscall.WaitStatus)
		switch {
		case ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL && ev.oom:
			e.Kind, e.Detail = ExitOOMKilled, "SIGKILL while "+ev.source+" counted an out-of-memory kill"
		case ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL:
			e.Kind = ExitKilled
			if ev.source != "" {
				e.Detail = "SIGKILL with no out-of-memory kill counted by " + ev.source
			} else {
				e.Detail = "SIGKILL; no kernel out-of-memory counter is readable here"
			}
		case ok && ws.Signaled():
			e.Kind, e.Detail = ExitSignal, "killed by "+ws.Signal().String()
		default:
			e.Kind, e.Detail = ExitOther, ee.String()
		}
	case err != nil:
		e.Kind, e.Detail = ExitOther, err.Error()
	default:
		e.Kind, e.Detail = ExitOther, "ended without its results"
	}
	return e
}

// withPeak adds the child's peak resident set size to a kill's detail,
// against the memory cap: the reader's own evidence of how close to it
// the child was.
func (e *Exit) withPeak(peak, limit uint64) *Exit {
	e.PeakRSS = peak
	if (e.Kind == ExitKilled || e.Kind == ExitOOMKilled) && peak > 0 {
		e.Detail += fmt.Sprintf("; peak RSS %d MiB", peak>>20)
		if limit > 0 {
			e.Detail += fmt.Sprintf(" of a %d MiB cap", limit>>20)
		}
	}
	return e
}

func hasLinePrefix(s, prefix string) bool {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			return true
		}
	}
	return false
}

// firstLine returns the first line of stderr that says what killed the
// child ("fatal error: ...", "runtime: ...", "panic: ..."), or kind.
func firstLine(stderr, kind string) string {
	for _, p := range []string{"fatal error: ", "panic: ", "runtime: "} {
		for _, line := range strings.Split(stderr, "\n") {
			if strings.HasPrefix(line, p) {
				return line
			}
		}
	}
	return kind
}
