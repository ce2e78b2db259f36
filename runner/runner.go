package runner

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
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
	peakHeap atomic.Uint64
	gauge    *gauge    // nil without Gate
	meter    *meter    // the machine's speed over the run
	warmed   sync.Once // the gauge learns the machine's speed before the first sample
	// now is the clock that times batches, samples and budgets: time.Now,
	// or a test's, so that what the test asserts of them does not depend
	// on the machine's speed.
	now func() time.Time
}

// Peak returns the highest heap in use seen between samples, and the
// process's peak resident set size where the OS reports it.
func (r *Runner) Peak() results.Memory {
	return results.Memory{HeapBytes: r.peakHeap.Load(), RSSBytes: peakRSS()}
}

// Machine describes how steadily the machine ran during the runner's
// sampling so far: a probe timed about every 10ms between samples.
func (r *Runner) Machine() results.Machine { return r.meter.summary() }

// New returns a Runner with the given options.
func New(opts Options) (*Runner, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	r := &Runner{opts: opts.withDefaults(), meter: newMeter(), now: time.Now}
	if r.opts.Gate {
		r.gauge = newGauge(r.opts.GateTolerance)
	}
	return r, nil
}

// Options returns the runner's options with defaults filled in.
func (r *Runner) Options() Options { return r.opts }

// Run runs the jobs. Consecutive jobs on the same dataset and shape form
// a group whose benchmarks are sampled interleaved: one sample of each in
// a shuffled order, round after round, so that a slow phase of a noisy
// machine falls on every codec of the group alike instead of on whichever
// ran then (Google Benchmark's random interleaving). Jobs that need
// memory set aside (MinMemory) run alone, and a job whose encoding is
// LargeBytes or more is sampled on its own as soon as it is prepared.
//
// When ctx is cancelled Run stops and returns the results of the jobs
// finished so far with ctx's error.
func (r *Runner) Run(ctx context.Context, jobs []Job) ([]results.Result, error) {
	var out []results.Result
	start := time.Now()
	done := 0
	for _, g := range groups(jobs, r.opts.NoInterleave) {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		res, err := r.runGroup(ctx, g, func(job *Job, res []results.Result) {
			done++
			if r.Progress != nil {
				r.Progress(Event{Done: done, Total: len(jobs), Job: job, Results: res, Elapsed: time.Since(start)})
			}
		})
		for _, rs := range res {
			out = append(out, rs...) // an interrupted group's finished jobs
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// groups splits jobs into runs of consecutive jobs on the same dataset and
// shape; a job with MinMemory, or every job when interleaving is off, is a
// group of its own.
func groups(jobs []Job, alone bool) [][]*Job {
	var gs [][]*Job
	for i := range jobs {
		j := &jobs[i]
		if n := len(gs); n > 0 && !alone && j.MinMemory == 0 {
			last := gs[n-1][len(gs[n-1])-1]
			if last.MinMemory == 0 && last.Dataset == j.Dataset && last.Shape == j.Shape {
				gs[n-1] = append(gs[n-1], j)
				continue
			}
		}
		gs = append(gs, []*Job{j})
	}
	return gs
}

// LargeBytes is the encoded size from which a job is sampled on its own
// rather than interleaved with the rest of its group.
const LargeBytes = 4 << 20

// RunJob verifies and measures one job on its own. If ctx is cancelled
// first, the results say "interrupted".
func (r *Runner) RunJob(ctx context.Context, job *Job) []results.Result {
	res, err := r.runGroup(ctx, []*Job{job}, nil)
	if err != nil || res[0] == nil {
		return job.all(results.Error, fmt.Sprintf("interrupted: %v", err))
	}
	return res[0]
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

// runGroup prepares, verifies and calibrates every job of the group, then
// samples all their benchmarks interleaved. finished, if set, is called
// with each job's results as soon as they are complete. It returns the
// results in job order; if ctx was cancelled, only those of the jobs that
// finished, the others nil, with ctx's error.
func (r *Runner) runGroup(ctx context.Context, group []*Job, finished func(*Job, []results.Result)) ([][]results.Result, error) {
	out := make([][]results.Result, len(group))
	pending := make([]int, len(group)) // benches still sampling, per job
	var benches []*bench               // to sample interleaved
	var all []*bench
	done := func(b *bench) {
		out[b.job][b.slot] = b.res
		b.loop, b.busy = nil, nil // let the case and its values go
		if pending[b.job]--; pending[b.job] == 0 && finished != nil {
			finished(group[b.job], out[b.job])
		}
	}
	for k, job := range group {
		bs, final := r.prepareJob(ctx, job)
		if err := ctx.Err(); err != nil {
			for k2 := range out[:k+1] {
				if k2 == k || pending[k2] > 0 {
					out[k2] = nil // not finished
				}
			}
			return out, err
		}
		if final != nil {
			out[k] = final
			if finished != nil {
				finished(job, final)
			}
			continue
		}
		out[k] = make([]results.Result, len(bs))
		var mine []*bench
		for i, b := range bs {
			b.job, b.slot = k, i
			if b.done {
				out[k][i] = b.res
			} else {
				pending[k]++
				mine = append(mine, b)
			}
		}
		if pending[k] == 0 && finished != nil {
			finished(job, out[k])
		}
		all = append(all, mine...)
		// A large value is sampled at once, on its own: holding the
		// cases of a whole group of them alive would cost gigabytes and
		// make every garbage collection before a sample slow.
		if len(mine) > 0 && mine[0].res.Bytes >= LargeBytes {
			r.sample(ctx, mine, done)
		} else {
			benches = append(benches, mine...)
		}
	}
	r.sample(ctx, benches, done)
	var err error
	for _, b := range all {
		if !b.done {
			out[b.job], err = nil, ctx.Err()
		}
	}
	return out, err
}

// prepareJob checks, prepares, verifies and calibrates one job under the
// watchdog. It returns the job's benchmarks ready to sample, or its final
// results when it is skipped or failed.
func (r *Runner) prepareJob(ctx context.Context, job *Job) ([]*bench, []results.Result) {
	type outcome struct {
		benches []*bench
		final   []results.Result
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{final: job.all(results.Error, fmt.Sprintf("panic: %v\n%s", p, firstFrames(debug.Stack())))}
			}
		}()
		if r.opts.PinCPU > 0 {
			if err := pin(r.opts.PinCPU - 1); err != nil {
				done <- outcome{final: job.all(results.Error, err.Error())}
				return
			}
		}
		bs, final := r.prepare(ctx, job)
		done <- outcome{bs, final}
	}()
	timer := time.NewTimer(r.opts.Timeout)
	defer timer.Stop()
	select {
	case o := <-done:
		return o.benches, o.final
	case <-timer.C:
		return nil, job.all(results.Error, fmt.Sprintf("timed out after %v: the codec hung or is far too slow for the budget; its goroutine was abandoned", r.opts.Timeout))
	case <-ctx.Done():
		return nil, job.all(results.Error, "interrupted")
	}
}

// prepare does the work of prepareJob.
func (r *Runner) prepare(ctx context.Context, job *Job) ([]*bench, []results.Result) {
	if job.Skip != "" {
		return nil, job.all(results.Skipped, job.Skip)
	}
	if avail, ok := memAvailable(); ok && job.MinMemory > 0 && avail < job.MinMemory {
		return nil, job.all(results.Skipped, fmt.Sprintf("needs %d MiB of available memory, the OS reports %d MiB; skipped rather than risk running out", job.MinMemory>>20, avail>>20))
	}
	c, data, st, reason := prepareVerified(job)
	if st != results.OK {
		return nil, job.all(st, reason)
	}
	var bs []*bench
	for _, op := range job.Ops {
		b := &bench{res: job.result(op, results.OK, "")}
		b.res.Bytes = len(data)
		switch op {
		case results.Encode:
			b.loop = encodeLoop(c)
		case results.Decode:
			b.loop = decodeLoop(c, data)
		default:
			b.fail(fmt.Errorf("unknown op %q", op))
		}
		if !b.done {
			n, err := r.calibrate(ctx, b.loop)
			b.n = n
			if err == nil {
				b.gc, err = r.collects(b.loop, n)
			}
			if err != nil {
				b.fail(err)
			}
		}
		bs = append(bs, b)
	}
	return bs, nil
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
		// The last encoding is kept alive, so the compiler cannot drop
		// the work. Not in a package variable: the goroutine of a job or
		// sample that the watchdog abandoned as hung may wake up and run
		// its loop while another job's runs, and both would write it.
		runtime.KeepAlive(last)
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
