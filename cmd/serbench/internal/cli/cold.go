package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// coldTask names the worker task that makes an op's first calls on a
// value's type in a process that has made none (measure.ColdCalls).
const coldTask = "cold-call"

// coldHandler is the worker's side of coldTask: the job is rebuilt from
// its names, as the benchmark jobs are.
var coldHandler = worker.Handler{Name: coldTask, Run: func(ctx context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
	return measure.ColdCalls(input, func(c, d, s string) (runner.Job, error) { return preset.Job(c, d, s, nil) }, step)
}}

// coldCaller is run -cold's measure.Config.Cold: one child per job, one at
// a time, so that no first call shares the machine with another. A child
// that dies or fails gives its job a reason, not a figure.
func coldCaller(ctx context.Context, jobs []measure.ColdJob) ([]measure.ColdFigure, error) {
	tasks := make([]worker.Task, len(jobs))
	for i, j := range jobs {
		in, err := json.Marshal(j)
		if err != nil {
			return nil, err
		}
		tasks[i] = worker.Task{Name: coldTask, Input: in}
	}
	trs, err := (&worker.Pool{Parallel: 1}).RunTasks(ctx, tasks)
	if err != nil {
		return nil, err
	}
	out := make([]measure.ColdFigure, len(jobs))
	for i, tr := range trs {
		switch {
		case tr.Exit != nil:
			out[i].Reason = fmt.Sprintf("its first calls killed the process (%s: %s)", tr.Exit.Kind, tr.Exit.Detail)
		case tr.Err != "":
			out[i].Reason = tr.Err
		default:
			if err := json.Unmarshal(tr.Output, &out[i]); err != nil {
				return nil, fmt.Errorf("%s: %v", coldTask, err)
			}
		}
	}
	return out, nil
}
