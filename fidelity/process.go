package fidelity

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/worker"
)

// A Runner runs probes through codecs, each codec in child processes of a
// worker.Pool (the one supervisor: caps, die-with-parent, crash kinds), so
// that a codec that crashes its process (a stack overflow on a cycle) or
// hangs costs the cell it was in and nothing else: the Runner records the
// cell as Crashed and runs the codec's other probes in a new child.
type Runner struct {
	// Command returns the command that starts a child, which must serve
	// worker.CommandName with Handler. Default: worker.Pool's.
	Command func() *exec.Cmd
	// Timeout is how long one probe may take before its child is killed
	// as hung. Default DefaultTimeout.
	Timeout time.Duration
	// Parallel is how many children run at once. Default 1.
	Parallel int
	// Progress, if set, is called after each codec, from one goroutine
	// at a time.
	Progress func(codec string, done, total int)
}

// DefaultTimeout is the default time a probe may take: a megabyte through
// the slowest text codec on a loaded machine takes seconds, not tens.
const DefaultTimeout = 30 * time.Second

// TaskName names the worker task that runs probes through a codec.
const TaskName = "fidelity"

// probeTask is the input of the task: the probes to run through a codec.
type probeTask struct {
	Codec  string   `json:"codec"`
	Probes []string `json:"probes"`
}

// Run runs probes through codecs and returns the matrix. When ctx is
// cancelled it returns the cells so far with ctx's error.
func (r *Runner) Run(ctx context.Context, codecs []codec.Info, probes []Probe) (*Matrix, error) {
	pool := &worker.Pool{Command: r.Command, Parallel: r.Parallel, TaskTimeout: cmp.Or(r.Timeout, DefaultTimeout)}
	rows := make([][]Cell, len(codecs))
	left := make([][]string, len(codecs))
	for i := range codecs {
		left[i] = Names(probes)
	}
	done := 0
	// A round runs the probes left of every codec, one child each; a
	// child that dies costs the probe it was in, and the codec's other
	// probes go to the next round.
	err := pool.RunRounds(ctx, func() ([]worker.Task, func(int, worker.TaskResult)) {
		var tasks []worker.Task
		var of []int
		for i, ps := range left {
			if len(ps) > 0 {
				in, _ := json.Marshal(probeTask{Codec: codecs[i].Name, Probes: ps})
				tasks = append(tasks, worker.Task{Name: TaskName, Input: in})
				of = append(of, i)
			}
		}
		return tasks, func(t int, res worker.TaskResult) {
			i := of[t]
			cells, rest := r.cells(codecs[i].Name, left[i], res)
			rows[i], left[i] = append(rows[i], cells...), rest
			if len(rest) == 0 {
				done++
				if r.Progress != nil {
					r.Progress(codecs[i].Name, done, len(codecs))
				}
			}
		}
	})
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("fidelity: %w", err)
	}
	m := NewMatrix(codecs, probes)
	order := map[string]int{}
	for k, p := range probes {
		order[p.Name] = k
	}
	for _, row := range rows {
		slices.SortStableFunc(row, func(a, b Cell) int { return order[a.Case] - order[b.Case] })
		for _, c := range row {
			m.Add(c)
		}
	}
	return m, ctx.Err()
}

// cells reads the end of a child run on probes: the cells it settled and
// the probes left for a new child. A child that died in a probe costs
// that probe; the probes it finished before are run again, since a dead
// child's answer is lost with it.
func (r *Runner) cells(name string, probes []string, res worker.TaskResult) (cells []Cell, left []string) {
	crashed := func(p, why string) Cell { return Cell{Codec: name, Case: p, Outcome: Crashed, Detail: why} }
	switch {
	case res.Exit == nil && res.Err == "":
		if err := json.Unmarshal(res.Output, &cells); err != nil {
			for _, p := range probes {
				cells = append(cells, crashed(p, "unreadable output of the child: "+err.Error()))
			}
		}
		return cells, nil
	case res.Exit == nil:
		for _, p := range probes {
			cells = append(cells, crashed(p, res.Err))
		}
		return cells, nil
	}
	why := fmt.Sprintf("the child died (%s): %s", res.Exit.Kind, res.Exit.Detail)
	if res.Exit.Kind == worker.ExitTimeout {
		why = fmt.Sprintf("hung: no answer in %v; the child was killed", cmp.Or(r.Timeout, DefaultTimeout))
	}
	k := slices.Index(probes, res.Step)
	if k < 0 { // the child died before its first probe
		for _, p := range probes {
			cells = append(cells, crashed(p, why))
		}
		return cells, nil
	}
	return []Cell{crashed(probes[k], why)}, slices.Delete(slices.Clone(probes), k, k+1)
}

// PinZone sets the process's local zone to UTC. Codecs that decode times
// into time.Local then give the same cells on every machine, and a time
// read back in the local zone shows as the UTC normalisation whatever the
// machine's TZ. The Handler calls it; so must any other process that
// checks probes in itself (a generator, a test binary).
func PinZone() { time.Local = time.UTC }

// Handler returns the child's side of a Runner: the worker task that runs
// probes through the codec lookup finds by name, a step per probe, and
// returns their cells. The child's stack cap (worker.DefaultLimits) makes
// a codec recursing down a cycle fail in well under a second instead of
// growing a gigabyte.
func Handler(lookup func(name string) (codec.Info, error)) worker.Handler {
	return worker.Handler{Name: TaskName, Run: func(_ context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
		PinZone()
		var t probeTask
		if err := json.Unmarshal(input, &t); err != nil {
			return nil, fmt.Errorf("fidelity: reading the task: %w", err)
		}
		info, err := lookup(t.Codec)
		if err != nil {
			return nil, err
		}
		probes, err := Lookup(t.Probes)
		if err != nil {
			return nil, err
		}
		cells := make([]Cell, 0, len(probes))
		for _, p := range probes {
			step(p.Name)
			cells = append(cells, Check(info, p))
		}
		return json.Marshal(cells)
	}}
}
