package runner

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// A Job is one codec on one value: it yields a Result per op.
type Job struct {
	Codec   codec.Info
	Dataset string // name for reports; any label for a user's own type
	Shape   string
	Items   int // dataset elements in the value, for per-item figures
	Ops     []results.Op
	// Value builds a fresh pointer to the value. It is called twice: once
	// for the codec and once for the reference that verification compares
	// against, so a codec that mutates its input is caught.
	Value func() (any, error)
	// Skip, if set, records the job as skipped with this reason.
	Skip string
	// MinMemory, if set, is the memory (bytes) the OS must report available
	// before the job starts; with less the job is skipped, not run into an
	// out-of-memory kill.
	MinMemory uint64
}

// An Event reports progress: Done of Total jobs finished, the last with
// these Results.
type Event struct {
	Done, Total int
	Job         *Job
	Results     []results.Result
	Elapsed     time.Duration
}

// A Runner measures jobs.
type Runner struct {
	opts Options
	// Progress, if set, is called after each job.
	Progress func(Event)
	peakHeap uint64
}

// Peak returns the highest heap in use seen between samples, and the
// process's peak resident set size where the OS reports it.
func (r *Runner) Peak() results.Memory {
	return results.Memory{HeapBytes: r.peakHeap, RSSBytes: peakRSS()}
}

// New returns a Runner with the given options.
func New(opts Options) (*Runner, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Runner{opts: opts.withDefaults()}, nil
}

// Options returns the runner's options with defaults filled in.
func (r *Runner) Options() Options { return r.opts }

// Run runs the jobs in order. When ctx is cancelled it stops and returns
// the results measured so far together with ctx's error; jobs not run are
// absent from the results.
func (r *Runner) Run(ctx context.Context, jobs []Job) ([]results.Result, error) {
	var out []results.Result
	start := time.Now()
	for i := range jobs {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		res := r.RunJob(ctx, &jobs[i])
		if err := ctx.Err(); err != nil {
			return out, err // the interrupted job's results are partial
		}
		out = append(out, res...)
		if r.Progress != nil {
			r.Progress(Event{Done: i + 1, Total: len(jobs), Job: &jobs[i], Results: res, Elapsed: time.Since(start)})
		}
	}
	return out, nil
}

// RunJob verifies and measures one job, with a watchdog: a job that
// outlives Options.Timeout is recorded as hung and abandoned.
func (r *Runner) RunJob(ctx context.Context, job *Job) []results.Result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan []results.Result, 1)
	go func() {
		if r.opts.PinCPU > 0 {
			if err := pin(r.opts.PinCPU - 1); err != nil {
				done <- job.all(results.Error, err.Error())
				return
			}
		}
		done <- r.runJob(ctx, job)
	}()
	timer := time.NewTimer(r.opts.Timeout)
	defer timer.Stop()
	select {
	case res := <-done:
		return res
	case <-timer.C:
		return job.all(results.Error, fmt.Sprintf("timed out after %v: the codec hung or is far too slow for the budget; its goroutine was abandoned", r.opts.Timeout))
	case <-ctx.Done():
		return job.all(results.Error, "interrupted")
	}
}

// all returns one result per op with the same status and reason.
func (job *Job) all(st results.Status, reason string) []results.Result {
	out := make([]results.Result, 0, len(job.Ops))
	for _, op := range job.Ops {
		out = append(out, job.result(op, st, reason))
	}
	return out
}

func (job *Job) result(op results.Op, st results.Status, reason string) results.Result {
	return results.Result{Op: op, Codec: job.Codec.Name, Dataset: job.Dataset, Shape: job.Shape, Items: job.Items, Status: st, Reason: reason}
}

// runJob does the work of RunJob, turning a panic into an error result.
func (r *Runner) runJob(ctx context.Context, job *Job) (out []results.Result) {
	defer func() {
		if p := recover(); p != nil {
			out = job.all(results.Error, fmt.Sprintf("panic: %v\n%s", p, firstFrames(debug.Stack())))
		}
	}()
	if job.Skip != "" {
		return job.all(results.Skipped, job.Skip)
	}
	if avail, ok := memAvailable(); ok && job.MinMemory > 0 && avail < job.MinMemory {
		return job.all(results.Skipped, fmt.Sprintf("needs %d MiB of available memory, the OS reports %d MiB; skipped rather than risk running out", job.MinMemory>>20, avail>>20))
	}
	c, data, st, reason := prepareVerified(job)
	if st != results.OK {
		return job.all(st, reason)
	}
	return r.measureOps(ctx, job, c, data)
}

// Prepare prepares the job's codec case and verifies one round trip, as
// the runner does before timing. It returns the case and the encoding to
// decode, or an error saying why the job cannot be measured. It lets other
// harnesses (testing.B) time exactly what the runner times.
func Prepare(job *Job) (codec.Case, []byte, error) {
	c, data, st, reason := prepareVerified(job)
	if st != results.OK {
		return nil, nil, fmt.Errorf("%s: %s", st, reason)
	}
	return c, data, nil
}

// measureOps times each op of a prepared, verified case.
func (r *Runner) measureOps(ctx context.Context, job *Job, c codec.Case, data []byte) (out []results.Result) {
	for _, op := range job.Ops {
		res := job.result(op, results.OK, "")
		res.Bytes = len(data)
		var err error
		switch op {
		case results.Encode:
			err = r.measure(ctx, encodeLoop(c), &res)
		case results.Decode:
			err = r.measure(ctx, decodeLoop(c, data), &res)
		default:
			err = fmt.Errorf("unknown op %q", op)
		}
		if err != nil {
			res = job.result(op, results.Error, fmt.Sprintf("%s: %v", op, err))
		}
		out = append(out, res)
	}
	return out
}

// sink keeps the last encoding alive so the compiler cannot drop the work.
var sink []byte

type encoder interface{ Encode() ([]byte, error) }

// encodeLoop is the timed encode loop: n calls, the last result kept.
func encodeLoop(c encoder) loop {
	return func(n int) error {
		var last []byte
		for range n {
			b, err := c.Encode()
			if err != nil {
				return err
			}
			last = b
		}
		sink = last
		return nil
	}
}

// decodeLoop is the timed decode loop: n decodes of the same data.
func decodeLoop(c codec.Case, data []byte) loop {
	return func(n int) error {
		for range n {
			if err := c.Decode(data); err != nil {
				return err
			}
		}
		return nil
	}
}

// prepareVerified prepares the codec's case and checks one full round
// trip against a separately built reference value. It returns the case
// and a private copy of the encoding for the decode benchmark.
func prepareVerified(job *Job) (codec.Case, []byte, results.Status, string) {
	v, err := job.Value()
	if err != nil {
		return nil, nil, results.Error, "building the value: " + err.Error()
	}
	ref, err := job.Value()
	if err != nil {
		return nil, nil, results.Error, "building the value: " + err.Error()
	}
	typ := reflect.TypeOf(v)
	if err := job.Codec.Supports(typ.String(), codec.FeaturesOf(typ)); err != nil {
		return nil, nil, results.Skipped, err.Error()
	}
	c, err := job.Codec.New().Prepare(v)
	if err != nil {
		if codec.IsUnsupported(err) {
			return nil, nil, results.Skipped, err.Error()
		}
		return nil, nil, results.Error, "prepare: " + err.Error()
	}
	enc, err := c.Encode()
	if err != nil {
		return nil, nil, results.Error, "encode: " + err.Error()
	}
	data := append([]byte(nil), enc...)
	if err := c.Decode(data); err != nil {
		return nil, nil, results.Failed, "decode of its own encoding: " + err.Error()
	}
	got, err := c.Value()
	if err != nil {
		return nil, nil, results.Error, "converting the decoded value: " + err.Error()
	}
	if err := verify.Equal(ref, got, job.Codec.Losses); err != nil {
		var mm *verify.MismatchError
		if errors.As(err, &mm) {
			return nil, nil, results.Failed, err.Error()
		}
		return nil, nil, results.Error, err.Error()
	}
	return c, data, results.OK, ""
}

// firstFrames trims a stack trace to its first lines.
func firstFrames(stack []byte) string {
	const max = 1200
	if len(stack) > max {
		return string(stack[:max]) + "..."
	}
	return string(stack)
}
