package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/serbench/serbench/cmd/serbench/internal/progress"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// freshTask names the worker task that decodes verified encodings in a
// process that never saw their values (measure.DecodeFresh).
const freshTask = "fresh-decode"

// freshHandler is the worker's side of freshTask: jobs are rebuilt from
// their names, as the benchmark jobs are.
var freshHandler = worker.Handler{Name: freshTask, Run: func(ctx context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
	return measure.DecodeFresh(input, func(c, d, s string) (runner.Job, error) { return preset.Job(c, d, s, nil) }, step)
}}

// freshDecoder is the run's measure.Config.Fresh without progress.
func freshDecoder(ctx context.Context, jobs []measure.FreshJob) (map[string]measure.FreshVerdict, error) {
	return freshTo(nil)(ctx, jobs)
}

// freshTo returns the run's measure.Config.Fresh, reporting to prog (nil:
// none): one worker task per codec, two at a time. A child that dies is
// blamed on the job it was decoding (its last step), and the codec's
// other jobs are decoded again, a process each.
func freshTo(prog *progress.Reporter) measure.FreshDecoder {
	return func(ctx context.Context, jobs []measure.FreshJob) (map[string]measure.FreshVerdict, error) {
		return decodeFresh(ctx, jobs, prog)
	}
}

// decodeFresh is freshTo's decoder.
func decodeFresh(ctx context.Context, jobs []measure.FreshJob, prog *progress.Reporter) (map[string]measure.FreshVerdict, error) {
	prog.BeginFresh(len(jobs))
	start := time.Now()
	var byCodec [][]measure.FreshJob
	for _, j := range jobs {
		if n := len(byCodec); n > 0 && byCodec[n-1][0].Codec == j.Codec {
			byCodec[n-1] = append(byCodec[n-1], j)
		} else {
			byCodec = append(byCodec, []measure.FreshJob{j})
		}
	}
	pool := &worker.Pool{Parallel: 2, Isolated: true}
	verdicts := map[string]measure.FreshVerdict{}
	for len(byCodec) > 0 {
		tasks := make([]worker.Task, len(byCodec))
		for i, js := range byCodec {
			in, err := json.Marshal(js)
			if err != nil {
				return nil, err
			}
			tasks[i] = worker.Task{Name: freshTask, Input: in}
		}
		done := len(verdicts) // the jobs of the rounds before
		trs, err := pool.RunTasksEach(ctx, tasks, func(i int, _ worker.TaskResult) {
			done += len(byCodec[i])
			prog.FreshDone(done, byCodec[i][0].Codec, time.Since(start))
		})
		if err != nil {
			return nil, err
		}
		var again [][]measure.FreshJob
		for i, tr := range trs {
			js := byCodec[i]
			switch {
			case tr.Exit != nil:
				blamed := max(slices.IndexFunc(js, func(j measure.FreshJob) bool { return j.Cell() == tr.Step }), 0)
				verdicts[js[blamed].Cell()] = measure.FreshVerdict{Status: results.Error,
					Reason: fmt.Sprintf("decoding its verified encodings killed the process (%s: %s)", tr.Exit.Kind, tr.Exit.Detail)}
				for k, j := range js {
					if k != blamed {
						again = append(again, []measure.FreshJob{j})
					}
				}
			case tr.Err != "":
				for _, j := range js {
					verdicts[j.Cell()] = measure.FreshVerdict{Status: results.Error, Reason: tr.Err}
				}
			default:
				var out []measure.FreshVerdict
				if err := json.Unmarshal(tr.Output, &out); err != nil || len(out) != len(js) {
					return nil, fmt.Errorf("%s: %d verdicts for %d jobs (%v)", freshTask, len(out), len(js), err)
				}
				for k, j := range js {
					verdicts[j.Cell()] = out[k]
				}
			}
		}
		byCodec = again
	}
	return verdicts, nil
}
