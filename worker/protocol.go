// Package worker runs benchmarks in child processes, so that a codec that
// crashes the Go runtime (a stack overflow, running out of memory,
// concurrent map writes), is killed by the kernel or hangs costs the
// benchmark in progress and nothing else.
//
// A Pool, in the parent, starts a worker process per group of jobs (the
// serbench binary re-executed with the hidden command "worker"), sends it
// the jobs as Specs and reads its events: a beat before every step that
// runs codec code, and each benchmark's result the moment it is final.
// When the worker dies or stops beating for Timeout, the Pool kills it,
// records the benchmark it was in with the crash kind and the end of its
// stderr, and starts a new worker for the group's remaining jobs.
//
// Serve is the worker's side: it rebuilds the jobs from their Specs and
// measures them with a runner.Runner.
//
// A Pool also runs generic Tasks (RunTasks), each in a child of its own:
// the child sets a memory cap and a stack cap on itself, runs the Handler
// the task names, and announces each step; the parent kills it when a
// step outlasts TaskTimeout and records how it died (Exit), its last step
// and its peak resident set size. Package hostile runs its cells so.
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
	Skip      string       `json:"skip,omitempty"`
	MinMemory uint64       `json:"min_memory,omitempty"`
}

// SpecOf returns the Spec of job.
func SpecOf(job *runner.Job) Spec {
	return Spec{Codec: job.Codec.Name, Dataset: job.Dataset, Shape: job.Shape, Ops: job.Ops, Skip: job.Skip, MinMemory: job.MinMemory}
}

// A Resolver rebuilds the job a Spec names (its codec, values and item
// count); Serve sets its Ops, Skip and MinMemory from the Spec.
type Resolver func(Spec) (runner.Job, error)

// request is what the parent sends a worker on its stdin.
type request struct {
	Options runner.Options `json:"options"`
	Jobs    []Spec         `json:"jobs"`
	// Task, when set, makes the worker run one generic task instead of
	// benchmark jobs.
	Task *Task `json:"task,omitempty"`
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
