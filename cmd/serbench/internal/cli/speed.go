package cli

import (
	"context"
	"encoding/json"
	"time"

	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// speedTask names the worker task that times each codec's calls against
// encoding/json's for a run's estimate (measure.ProbeSpeeds).
const speedTask = "estimate-speeds"

// speedTimeout bounds one step of the probe (one codec's calls): a codec
// that takes longer is left at json's speed, and the probe of the codecs
// after it is lost.
const speedTimeout = 20 * time.Second

// speedHandler is the worker's side of speedTask: jobs are rebuilt from
// their names, as the benchmark jobs are.
var speedHandler = worker.Handler{Name: speedTask, Run: func(_ context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
	return measure.ProbeSpeeds(input, func(c, d, s string) (runner.Job, error) { return preset.Job(c, d, s, nil) }, time.Now, step)
}}

// probeSpeeds times, in one child process, each codec of jobs against
// encoding/json on one value of moderate size (measure.SpeedJobs): what
// scales costs, json's, to the codecs' own calls. A child that fails
// leaves every codec at json's speed: the estimate is less close, the
// run unchanged. A test replaces it.
var probeSpeeds = func(jobs []runner.Job, costs measure.Costs) measure.Speeds {
	sjs := measure.SpeedJobs(jobs, costs)
	if len(sjs) == 0 {
		return nil
	}
	in, err := json.Marshal(sjs)
	if err != nil {
		return nil
	}
	trs, err := (&worker.Pool{Parallel: 1, Isolated: true}).RunTasks(context.Background(), []worker.Task{{Name: speedTask, Input: in, Timeout: speedTimeout}})
	if err != nil || len(trs) != 1 || trs[0].Exit != nil || trs[0].Err != "" {
		return nil
	}
	var out []measure.Speed
	if err := json.Unmarshal(trs[0].Output, &out); err != nil || len(out) != len(sjs) {
		return nil
	}
	speeds := measure.Speeds{}
	for i, sj := range sjs {
		speeds[sj.Codec] = out[i]
	}
	return speeds
}
