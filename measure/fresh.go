package measure

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// FreshTask names the worker task that decodes verified encodings in a
// process that never saw their values (FreshHandler).
const FreshTask = "fresh-decode"

// freshJob is one job's encodings to decode in a fresh process.
type freshJob struct {
	Spec     worker.Spec       `json:"spec"`
	Messages []results.Message `json:"messages"`
}

// A freshVerdict is how one job's encodings fared: empty Status when
// every one decoded to its value.
type freshVerdict struct {
	Status results.Status `json:"status,omitempty"`
	Reason string         `json:"reason,omitempty"`
}

// FreshHandler returns the worker handler of FreshTask: it rebuilds each
// job with resolve and decodes its encodings with runner.FreshDecode. A
// worker process serves it beside the benchmark jobs (worker.Serve).
func FreshHandler(resolve worker.Resolver) worker.Handler {
	return worker.Handler{Name: FreshTask, Run: func(ctx context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
		var jobs []freshJob
		if err := json.Unmarshal(input, &jobs); err != nil {
			return nil, fmt.Errorf("%s: reading the input: %w", FreshTask, err)
		}
		out := make([]freshVerdict, len(jobs))
		for i, j := range jobs {
			step(cellName(j.Spec))
			job, err := resolve(j.Spec)
			if err == nil {
				err = runner.FreshDecode(&job, j.Messages)
			}
			if err != nil {
				out[i] = freshVerdict{Status: results.Error, Reason: err.Error()}
				if ce, ok := err.(*runner.CheckError); ok {
					out[i] = freshVerdict{Status: ce.Status, Reason: ce.Reason}
				}
			}
		}
		return json.Marshal(out)
	}}
}

func cellName(s worker.Spec) string { return fmt.Sprintf("%s %s/%s", s.Codec, s.Dataset, s.Shape) }

// checkFresh decodes the encodings that run's measured results carry
// (Result.Verified) in fresh processes, one per codec, each preparing its
// case on another build of the value and never encoding, and fails every
// result of a job whose encodings do not decode there to their values:
// such an encoding points at a value kept in the encoding process, it
// does not carry it. A process that dies is blamed on the job it was
// decoding, and the others of its codec are decoded again, one process
// each. The encodings are dropped from every result.
func checkFresh(ctx context.Context, run *results.Run, cfg Config) error {
	defer dropVerified(run)
	if cfg.InProcess || cfg.fake != nil {
		return nil // no worker to start: the library's own types cannot be rebuilt elsewhere
	}
	jobs, where := freshJobs(run.Results)
	if len(jobs) == 0 {
		return nil
	}
	var byCodec [][]freshJob
	for _, j := range jobs {
		if n := len(byCodec); n > 0 && byCodec[n-1][0].Spec.Codec == j.Spec.Codec {
			byCodec[n-1] = append(byCodec[n-1], j)
		} else {
			byCodec = append(byCodec, []freshJob{j})
		}
	}
	pool := &worker.Pool{Command: cfg.Command, Parallel: 2}
	verdicts := map[string]freshVerdict{}
	for len(byCodec) > 0 {
		tasks := make([]worker.Task, len(byCodec))
		for i, js := range byCodec {
			in, err := json.Marshal(js)
			if err != nil {
				return err
			}
			tasks[i] = worker.Task{Name: FreshTask, Input: in}
		}
		trs, err := pool.RunTasks(ctx, tasks)
		if err != nil {
			return fmt.Errorf("decoding verified encodings in fresh processes: %w", err)
		}
		var again [][]freshJob
		for i, tr := range trs {
			js := byCodec[i]
			switch {
			case tr.Exit != nil:
				blamed := slices.IndexFunc(js, func(j freshJob) bool { return cellName(j.Spec) == tr.Step })
				if blamed < 0 || len(js) == 1 {
					blamed = 0
				}
				verdicts[cellName(js[blamed].Spec)] = freshVerdict{Status: results.Error,
					Reason: fmt.Sprintf("decoding its verified encodings in a fresh process killed the process (%s: %s)", tr.Exit.Kind, tr.Exit.Detail)}
				for k, j := range js {
					if k != blamed {
						again = append(again, []freshJob{j})
					}
				}
			case tr.Err != "":
				for _, j := range js {
					verdicts[cellName(j.Spec)] = freshVerdict{Status: results.Error, Reason: tr.Err}
				}
			default:
				var out []freshVerdict
				if err := json.Unmarshal(tr.Output, &out); err != nil || len(out) != len(js) {
					return fmt.Errorf("%s: %d verdicts for %d jobs (%v)", FreshTask, len(out), len(js), err)
				}
				for k, j := range js {
					verdicts[cellName(j.Spec)] = out[k]
				}
			}
		}
		byCodec = again
	}
	for cell, v := range verdicts {
		if v.Status == "" {
			continue
		}
		for _, i := range where[cell] {
			r := &run.Results[i]
			r.Status = v.Status
			r.Reason = "after timing: in a fresh process that never saw the value: " + v.Reason
		}
	}
	return nil
}

// dropVerified drops the encodings the results carried for checkFresh:
// they are not part of the record.
func dropVerified(run *results.Run) {
	for i := range run.Results {
		run.Results[i].Verified = nil
	}
}

// freshJobs gathers the verified encodings of the measured results, one
// freshJob per codec and dataset shape in the order of the results, and
// where each job's results are.
func freshJobs(rs []results.Result) ([]freshJob, map[string][]int) {
	var jobs []freshJob
	index := map[string]int{}
	where := map[string][]int{}
	for i := range rs {
		r := &rs[i]
		if r.Status != results.OK {
			continue
		}
		spec := worker.Spec{Codec: r.Codec, Dataset: r.Dataset, Shape: r.Shape}
		cell := cellName(spec)
		where[cell] = append(where[cell], i)
		if len(r.Verified) == 0 {
			continue
		}
		k, ok := index[cell]
		if !ok {
			k = len(jobs)
			index[cell] = k
			jobs = append(jobs, freshJob{Spec: spec})
		}
		for _, m := range r.Verified {
			if !slices.ContainsFunc(jobs[k].Messages, func(h results.Message) bool { return h.Build == m.Build }) {
				jobs[k].Messages = append(jobs[k].Messages, m)
			}
		}
	}
	return jobs, where
}
