package results

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Hostile is the result of a hostile-input run (serbench hostile, package
// hostile), saved as hostile.json beside a run's other outputs: one
// HostileCell per codec and input class.
type Hostile struct {
	Go       string         `json:"go"`
	Serbench string         `json:"serbench"`
	Quick    bool           `json:"quick,omitempty"`
	Timeout  string         `json:"timeout"`
	Elapsed  string         `json:"elapsed,omitempty"`
	Codecs   []HostileCodec `json:"codecs"`
	Classes  []HostileClass `json:"classes"`
	Cells    []HostileCell  `json:"cells"`
}

// A HostileCodec names a codec of the matrix and the library version tried.
type HostileCodec struct {
	Name    string `json:"name"`
	Label   string `json:"label"`
	Module  string `json:"module"`
	Version string `json:"version"`
}

// A HostileClass names an input class of the matrix.
type HostileClass struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// A HostileCell is what one codec's decoder did with one class's inputs.
type HostileCell struct {
	Codec   string  `json:"codec"`
	Class   string  `json:"class"`
	Outcome Outcome `json:"outcome"`
	// Seed is the dataset shape the inputs start from.
	Seed string `json:"seed,omitempty"`
	// Inputs is how many inputs the class generated; Counts how many
	// ended in each outcome (those after a crash or a hang are not run).
	Inputs int             `json:"inputs"`
	Counts map[Outcome]int `json:"counts,omitempty"`
	// Crash is the kind of a crash or hang: "stack overflow", "out of
	// memory", "timeout", ...
	Crash string `json:"crash,omitempty"`
	// Detail is the decoder's error, panic or fatal error for the
	// reproducer.
	Detail string `json:"detail,omitempty"`
	// Size is the reproducer's size in bytes, Hex the hex dump of its
	// start; File is where it was saved, relative to the output directory.
	Size int    `json:"size,omitempty"`
	Hex  string `json:"hex,omitempty"`
	File string `json:"file,omitempty"`
	// Alloc is the most bytes one input made the decoder allocate or
	// grow the resident set by; PeakRSS the child process's peak resident
	// set size.
	Alloc   uint64 `json:"alloc,omitempty"`
	PeakRSS uint64 `json:"peak_rss,omitempty"`
	// Repro is the reproducer: the smallest input with the outcome.
	Repro []byte `json:"-"`
}

// An Outcome is what a decoder did with one hostile input, or the worst
// of what it did with a cell's inputs.
type Outcome string

// The outcomes, from the best to the worst; Severity orders them.
const (
	OutcomeNA       Outcome = "n/a"          // the class does not apply to the codec's format
	OutcomeOK       Outcome = "ok"           // a valid input decoded to its value
	OutcomeClean    Outcome = "clean"        // the decoder returned an error
	OutcomeCheck    Outcome = "check-failed" // the decoder returned; serbench's own check of the value crashed or hung (not the codec's fault)
	OutcomeChanged  Outcome = "changed"      // no error, a value other than the one the input came from
	OutcomeAccepted Outcome = "accepted"     // no error on bytes that are not an encoding of the value, and the value came back: garbage silently accepted
	OutcomePanic    Outcome = "panic"        // the decoder panicked; recover caught it
	OutcomeMemory   Outcome = "memory"       // the decoder allocated over 1,000 times the input's size (and over 64 MiB)
	OutcomeHang     Outcome = "hang"         // no answer within the timeout; the child was killed
	OutcomeCrash    Outcome = "crash"        // a fatal error recover cannot catch killed the child (see HostileCell.Crash)
)

// Outcomes lists every outcome from the best to the worst.
var Outcomes = []Outcome{OutcomeNA, OutcomeOK, OutcomeClean, OutcomeCheck, OutcomeChanged, OutcomeAccepted, OutcomePanic, OutcomeMemory, OutcomeHang, OutcomeCrash}

// Severity orders outcomes: a higher severity is worse.
func (o Outcome) Severity() int { return slices.Index(Outcomes, o) }

// Unsafe reports whether the outcome lets a bad input take down or stall
// a process that decodes it: a crash, a hang or a memory blow-up.
func (o Outcome) Unsafe() bool {
	return o == OutcomeCrash || o == OutcomeHang || o == OutcomeMemory
}

// Clean reports whether the outcome needs no reproducer: the decoder
// refused the input, decoded a valid one, or the class did not apply.
func (o Outcome) Clean() bool { return o == OutcomeNA || o == OutcomeOK || o == OutcomeClean }

// Cell returns the cell of codec and class, or nil.
func (h *Hostile) Cell(codec, class string) *HostileCell {
	for i := range h.Cells {
		if h.Cells[i].Codec == codec && h.Cells[i].Class == class {
			return &h.Cells[i]
		}
	}
	return nil
}

// Verdict answers "safe to decode untrusted input?" for codec from its
// cells: "no" when an input crashed the process, hung it or blew up its
// memory (each named with its class), "with care" when it panicked
// (recover catches that) or accepted garbage silently, "yes" otherwise.
// It returns the word and a sentence that says why.
func (h *Hostile) Verdict(codec string) (string, string) {
	var fatal, panics, accepted []string
	tried := 0
	for _, c := range h.Cells {
		if c.Codec != codec || c.Outcome == OutcomeNA {
			continue
		}
		tried++
		switch {
		case c.Outcome.Unsafe():
			what := c.Crash
			if c.Outcome == OutcomeMemory {
				what = "memory blow-up"
			} else if c.Outcome == OutcomeHang {
				what = "hang"
			}
			fatal = append(fatal, fmt.Sprintf("%s (%s, %d-byte input)", c.Class, what, c.Size))
		case c.Outcome == OutcomePanic:
			panics = append(panics, c.Class)
		case c.Outcome == OutcomeAccepted:
			accepted = append(accepted, c.Class)
		}
	}
	switch {
	case tried == 0:
		return "untested", "No class applied."
	case len(fatal) > 0:
		return "no", fmt.Sprintf("A hostile input takes the process down or stalls it: %s. Decode untrusted bytes in a separate process, or with limits in front of it.", strings.Join(fatal, "; "))
	case len(panics) > 0:
		return "with care", fmt.Sprintf("It panics on %s; recover catches it. Recover around every decode of untrusted bytes.", strings.Join(panics, ", "))
	case len(accepted) > 0:
		return "with care", fmt.Sprintf("It survives every class tried (%d), but accepts garbage without an error (%s): validate what it returns.", tried, strings.Join(accepted, ", "))
	}
	return "yes", fmt.Sprintf("Every class tried (%d) ends in an error or a decoded value, never a crash, a hang or a memory blow-up.", tried)
}

// ReadHostile reads a hostile matrix saved as JSON (hostile.json); name
// names the input in errors.
func ReadHostile(r io.Reader, name string) (*Hostile, error) {
	var h Hostile
	if err := json.NewDecoder(r).Decode(&h); err != nil {
		return nil, fmt.Errorf("%s: not a hostile matrix (hostile.json): %w", name, err)
	}
	return &h, nil
}

// Code returns the cell's short code in a matrix: "." for a clean error,
// "ok", "chg", "acc", "PANIC", "MEM", "HANG", and for a crash its kind:
// "STACK", "OOM" or "FATAL"; "-" when the class does not apply.
func (c *HostileCell) Code() string {
	switch c.Outcome {
	case OutcomeNA, "":
		return "-"
	case OutcomeOK:
		return "ok"
	case OutcomeClean:
		return "."
	case OutcomeCheck:
		return "CHK"
	case OutcomeChanged:
		return "chg"
	case OutcomeAccepted:
		return "acc"
	case OutcomePanic:
		return "PANIC"
	case OutcomeMemory:
		return "MEM"
	case OutcomeHang:
		return "HANG"
	}
	switch c.Crash {
	case "stack overflow":
		return "STACK"
	case "out of memory":
		return "OOM"
	}
	return "FATAL"
}
