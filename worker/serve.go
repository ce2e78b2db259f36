package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// Serve is a worker's main: it reads one request from in, measures its jobs
// (or runs its task with the handler of that name) and writes events to
// the events pipe (EventsFD). It returns when the jobs are done or ctx is
// cancelled.
func Serve(ctx context.Context, in io.Reader, resolve Resolver, handlers ...Handler) error {
	serving.Store(true)
	f := os.NewFile(EventsFD, "events")
	if f == nil {
		return fmt.Errorf("worker: no events pipe on file descriptor %d: a child is started by serbench itself (run, fidelity, hostile), not by hand", EventsFD)
	}
	defer f.Close()
	// A process the codec starts must not hold the pipe open after this
	// one ends: the parent reads the events to their end.
	closeOnExec(EventsFD)
	return serve(ctx, in, f, resolve, handlers)
}

func serve(ctx context.Context, in io.Reader, out io.Writer, resolve Resolver, handlers []Handler) error {
	var req request
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		return fmt.Errorf("worker: reading the request: %w", err)
	}
	w := &writer{w: bufio.NewWriter(out), in: in}
	watchParent()
	req.Limits.apply()
	if req.Task != nil {
		return serveTask(ctx, req.Task, w, handlers)
	}
	jobs := make([]runner.Job, len(req.Jobs))
	index := map[*runner.Job]int{}
	for i, s := range req.Jobs {
		job, err := resolve(s)
		if err != nil {
			w.end(event{End: &end{Error: err.Error()}})
			return err
		}
		job.Ops, job.Procs, job.Skip, job.MinMemory = s.Ops, s.Procs, s.Skip, s.MinMemory
		jobs[i] = job
	}
	for i := range jobs {
		index[&jobs[i]] = i
	}
	// The parent watches for hangs and kills the process: the runner's own
	// watchdog, which can only abandon a goroutine, stays out of the way.
	opts := req.Options
	opts.Timeout = 24 * time.Hour
	r, err := runner.New(opts)
	if err != nil {
		w.end(event{End: &end{Error: err.Error()}})
		return err
	}
	last := beat{Job: -1} // no beat yet
	var lastAt time.Time
	r.Beat = func(job *runner.Job, op results.Op, step string) {
		b := beat{Job: index[job], Op: op, Step: step}
		// A beat repeats only after beatEvery: the parent needs to know
		// where the worker is and that it moves, not every sample.
		if b == last && time.Since(lastAt) < beatEvery {
			return
		}
		last, lastAt = b, time.Now()
		w.write(event{Beat: &b})
	}
	r.Finished = func(job *runner.Job, res results.Result) {
		// The parent believes a result only for the job the last beat
		// named: a result the runner gives without a step of its own (a
		// failed pin ends every bench at once) is announced first.
		if last.Job != index[job] {
			r.Beat(job, res.Op, "check")
		}
		w.write(event{Result: &result{Job: index[job], Result: res}})
	}
	_, runErr := r.Run(ctx, jobs)
	e := &end{Probes: r.Probes(), Peak: r.Peak()}
	if runErr != nil {
		e.Error = runErr.Error()
	}
	w.end(event{End: e})
	return nil
}

// serving says this process is a child that Serve runs.
var serving atomic.Bool

// Serving reports whether this process is a child of a Pool, in Serve:
// the planted faults that attack the supervisor act only there.
func Serving() bool { return serving.Load() }

// beatEvery is how often a worker repeats a beat for the same step.
const beatEvery = 500 * time.Millisecond

// A writer writes events one line at a time, flushed at once; the runner
// calls it from its sampling goroutine and its preparing one.
type writer struct {
	mu sync.Mutex
	w  *bufio.Writer
	in io.Reader // the request's pipe, which the parent closes to acknowledge the end
}

// end writes the worker's last event and waits for the parent to close
// the request's pipe, which it does once it has read that event: the
// worker exits only then, so that nothing between it and the parent (a
// relay a codec put on the events pipe, a buffer) is cut off by its exit.
// A parent that dies closes the pipe too.
func (w *writer) end(e event) {
	w.write(e)
	io.Copy(io.Discard, w.in)
}

func (w *writer) write(e event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b, err := json.Marshal(e)
	if err == nil {
		b = append(b, '\n')
		_, err = w.w.Write(b)
	}
	if err == nil {
		err = w.w.Flush()
	}
	if err != nil {
		// The parent is gone: nobody reads what this worker measures.
		fmt.Fprintf(os.Stderr, "serbench worker: %v; exiting\n", err)
		os.Exit(3)
	}
}
