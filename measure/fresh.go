package measure

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// A FreshJob is one job's verified encodings (results.Result.Verified),
// to be decoded in a process that never saw the job's value.
type FreshJob struct {
	Codec    string            `json:"codec"`
	Dataset  string            `json:"dataset"`
	Shape    string            `json:"shape"`
	Messages []results.Message `json:"messages"`
}

// Cell names the job: "json tiny/single".
func (j FreshJob) Cell() string { return fmt.Sprintf("%s %s/%s", j.Codec, j.Dataset, j.Shape) }

// A FreshVerdict is how one job's encodings fared in a fresh process:
// empty Status when every one decoded to its value.
type FreshVerdict struct {
	Status results.Status `json:"status,omitempty"`
	Reason string         `json:"reason,omitempty"`
}

// A FreshDecoder decodes each job's encodings in a process of its own
// that never saw the job's value (a worker task whose handler is
// DecodeFresh), and returns a verdict per job, by Cell.
type FreshDecoder func(ctx context.Context, jobs []FreshJob) (map[string]FreshVerdict, error)

// DecodeFresh is the body of the fresh process's task: it reads a list of
// FreshJobs, rebuilds each job with resolve, decodes its encodings with
// runner.FreshDecode, calling step before each job, and returns the
// verdicts, one per job, as JSON.
func DecodeFresh(input json.RawMessage, resolve func(codec, dataset, shape string) (runner.Job, error), step func(string)) (json.RawMessage, error) {
	var jobs []FreshJob
	if err := json.Unmarshal(input, &jobs); err != nil {
		return nil, fmt.Errorf("decoding in a fresh process: reading the input: %w", err)
	}
	out := make([]FreshVerdict, len(jobs))
	for i, j := range jobs {
		step(j.Cell())
		job, err := resolve(j.Codec, j.Dataset, j.Shape)
		if err == nil {
			err = runner.FreshDecode(&job, j.Messages)
		}
		if err != nil {
			out[i] = FreshVerdict{Status: results.Error, Reason: err.Error()}
			if ce, ok := err.(*runner.CheckError); ok {
				out[i] = FreshVerdict{Status: ce.Status, Reason: ce.Reason}
			}
		}
	}
	return json.Marshal(out)
}

// checkFresh decodes the encodings that run's measured results carry
// (Result.Verified) with cfg.Fresh, and fails every result of a job whose
// encodings do not decode there to their values: such an encoding points
// at a value kept in the encoding process, it does not carry it. The
// encodings are dropped from every result. Without cfg.Fresh (a run in
// this process, whose values may be the program's own types) nothing is
// decoded.
func checkFresh(ctx context.Context, run *results.Run, cfg Config) error {
	defer dropVerified(run)
	if cfg.Fresh == nil {
		return nil
	}
	jobs, where := freshJobs(run.Results)
	if len(jobs) == 0 {
		return nil
	}
	verdicts, err := cfg.Fresh(ctx, jobs)
	if err != nil {
		return fmt.Errorf("decoding verified encodings in fresh processes: %w", err)
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
// FreshJob per codec and dataset shape in the order of the results, and
// where each job's results are, by Cell.
func freshJobs(rs []results.Result) ([]FreshJob, map[string][]int) {
	var jobs []FreshJob
	index := map[string]int{}
	where := map[string][]int{}
	for i := range rs {
		r := &rs[i]
		if r.Status != results.OK {
			continue
		}
		j := FreshJob{Codec: r.Codec, Dataset: r.Dataset, Shape: r.Shape}
		cell := j.Cell()
		where[cell] = append(where[cell], i)
		if len(r.Verified) == 0 {
			continue
		}
		k, ok := index[cell]
		if !ok {
			k = len(jobs)
			index[cell] = k
			jobs = append(jobs, j)
		}
		for _, m := range r.Verified {
			if !slices.ContainsFunc(jobs[k].Messages, func(h results.Message) bool { return h.Build == m.Build }) {
				jobs[k].Messages = append(jobs[k].Messages, m)
			}
		}
	}
	return jobs, where
}
