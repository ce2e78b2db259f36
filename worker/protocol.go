// Package worker runs benchmarks in child processes, so that a codec that
// crashes the Go runtime (a stack overflow, running out of memory,
// concurrent map writes), is killed by the kernel or hangs costs the
// benchmark in progress and nothing else.
//
// The Pool is serbench's one supervisor of child processes. Every child
// is the serbench binary re-executed with the hidden command CommandName;
// it reads one request on its stdin, sets the caps of the request on
// itself (an address-space cap and a goroutine stack cap, Limits), dies
// with its parent (the kernel's parent-death signal on Linux, a watch of
// its parent elsewhere), and writes events on a pipe of its own. How a
// child died is read in one place (Exit).
//
// A benchmark worker measures jobs of one codec only (see runner.Groups):
// the Pool sends them as Specs and reads a beat before every step that
// runs codec code and each benchmark's result the moment it is final. It
// believes a result only for the job the worker last said it was in, once,
// and only while the samples of the worker's results fit in its wall time;
// anything else is a protocol violation. When a worker dies or stops
// beating for Timeout, the Pool runs the benchmark it was in again alone
// in a fresh worker, records it as crashed (with the kind of death and
// the end of its stderr) only when it fails there too, and starts a new
// worker for the remaining jobs.
//
// A Pool also runs generic Tasks (RunTasks), each in a child of its own
// that runs the Handler the task names and announces each step; the
// parent kills it when a step outlasts TaskTimeout and records how it
// died (Exit), its last step and its peak resident set size. Packages
// hostile and fidelity run their cells so.
//
// Nothing crosses the process boundary inside a sample: events are
// written between samples, on a pipe of their own (the worker's file
// descriptor 3), so that a codec printing to stdout cannot corrupt them.
package worker

import (
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// A Spec names a job that a worker can rebuild: a registered codec on a
// dataset shape.
type Spec struct {
	Codec     string       `json:"codec"`
	Dataset   string       `json:"dataset"`
	Shape     string       `json:"shape"`
	Ops       []results.Op `json:"ops"`
	Procs     int          `json:"procs,omitempty"`
	Skip      string       `json:"skip,omitempty"`
	MinMemory uint64       `json:"min_memory,omitempty"`
}

// SpecOf returns the Spec of job.
func SpecOf(job *runner.Job) Spec {
	return Spec{Codec: job.Codec.Name, Dataset: job.Dataset, Shape: job.Shape, Ops: job.Ops, Procs: job.Procs, Skip: job.Skip, MinMemory: job.MinMemory}
}

// A Resolver rebuilds the job a Spec names (its codec, values and item
// count); Serve sets its Ops, Procs, Skip and MinMemory from the Spec.
type Resolver func(Spec) (runner.Job, error)

// request is what the parent sends a worker on its stdin.
type request struct {
	Options runner.Options `json:"options"`
	Jobs    []Spec         `json:"jobs"`
	// Task, when set, makes the worker run one generic task instead of
	// benchmark jobs.
	Task *Task `json:"task,omitempty"`
	// Limits are the caps the child sets on itself before it runs any of
	// its work.
	Limits Limits `json:"limits"`
}

// event is one line a worker writes on its events pipe.
type event struct {
	Beat   *beat    `json:"beat,omitempty"`
	Result *result  `json:"result,omitempty"`
	End    *end     `json:"end,omitempty"`
	Task   *taskEnd `json:"task,omitempty"`
}

// beat says which step of which job the worker is about to run.
type beat struct {
	Job  int        `json:"job"`
	Op   results.Op `json:"op,omitempty"`
	Step string     `json:"step"`
}

// result is one benchmark's final result.
type result struct {
	Job    int            `json:"job"`
	Result results.Result `json:"result"`
}

// end closes a worker's events: what it saw of the machine and its memory.
type end struct {
	Probes []float64      `json:"probes,omitempty"`
	Peak   results.Memory `json:"peak"`
	Error  string         `json:"error,omitempty"`
}
