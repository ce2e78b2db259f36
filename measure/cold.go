package measure

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// A ColdJob is one op's first calls on a job's value, to make in a
// process of its own that has made none before (runner.ColdCall): the
// decode's gets the encoding its codec's cold encode made.
type ColdJob struct {
	Codec   string     `json:"codec"`
	Dataset string     `json:"dataset"`
	Shape   string     `json:"shape"`
	Op      results.Op `json:"op"`
	Msg     []byte     `json:"msg,omitempty"`
}

// Cell names the job: "json tiny/single encode".
func (j ColdJob) Cell() string { return fmt.Sprintf("%s %s/%s %s", j.Codec, j.Dataset, j.Shape, j.Op) }

// A ColdFigure is what one ColdJob measured, in ns, or why it has no
// figure (Reason).
type ColdFigure struct {
	FirstNs float64 `json:"first_ns,omitempty"`
	NextNs  float64 `json:"next_ns,omitempty"`
	Msg     []byte  `json:"msg,omitempty"`
	Reason  string  `json:"reason,omitempty"`
}

// A ColdCaller runs each ColdJob in a process of its own (a worker task
// whose handler is ColdCalls) and returns the figures in job order.
type ColdCaller func(ctx context.Context, jobs []ColdJob) ([]ColdFigure, error)

// ColdCalls is the body of a cold process's task: it reads one ColdJob,
// rebuilds its job with resolve and makes its first calls
// (runner.ColdCall), and returns its ColdFigure as JSON.
func ColdCalls(input json.RawMessage, resolve func(codec, dataset, shape string) (runner.Job, error), step func(string)) (json.RawMessage, error) {
	var j ColdJob
	if err := json.Unmarshal(input, &j); err != nil {
		return nil, fmt.Errorf("first calls in a fresh process: reading the input: %w", err)
	}
	step(j.Cell())
	job, err := resolve(j.Codec, j.Dataset, j.Shape)
	if err != nil {
		return nil, err
	}
	c, err := runner.ColdCall(&job, j.Op, j.Msg)
	if err != nil {
		var ce *runner.CheckError
		if errors.As(err, &ce) {
			return json.Marshal(ColdFigure{Reason: fmt.Sprintf("%s: %s", ce.Status, ce.Reason)})
		}
		return nil, err
	}
	return json.Marshal(ColdFigure{FirstNs: float64(c.First.Nanoseconds()), NextNs: float64(c.Next.Nanoseconds()), Msg: c.Msg})
}

// checkCold measures the first calls (cfg.Cold) of every codec on every
// dataset shape the run measured: its first encode in a process of its
// own, then its first decode of that encoding in another, and sets them
// on the results of that codec, dataset shape and op (Result.ColdNs),
// at every GOMAXPROCS. A first call that fails is a warning of the run:
// the warm figures stand.
func checkCold(ctx context.Context, run *results.Run, cfg Config) error {
	if cfg.Cold == nil {
		return nil
	}
	var enc []ColdJob
	seen := map[string]bool{}
	for _, r := range run.Results {
		if r.Status != results.OK {
			continue
		}
		j := ColdJob{Codec: r.Codec, Dataset: r.Dataset, Shape: r.Shape, Op: results.Encode}
		if !seen[j.Cell()] {
			seen[j.Cell()] = true
			enc = append(enc, j)
		}
	}
	if len(enc) == 0 {
		return nil
	}
	encs, err := cfg.Cold(ctx, enc)
	if err != nil {
		return fmt.Errorf("first calls in fresh processes: %w", err)
	}
	var dec []ColdJob
	var failed []string
	for i, f := range encs {
		if f.Reason != "" {
			failed = append(failed, enc[i].Cell()+": "+f.Reason)
			continue
		}
		d := enc[i]
		d.Op, d.Msg = results.Decode, f.Msg
		dec = append(dec, d)
	}
	decs, err := cfg.Cold(ctx, dec)
	if err != nil {
		return fmt.Errorf("first calls in fresh processes: %w", err)
	}
	figures := map[string]ColdFigure{}
	for i, f := range encs {
		figures[enc[i].Cell()] = f
	}
	for i, f := range decs {
		if f.Reason != "" {
			failed = append(failed, dec[i].Cell()+": "+f.Reason)
			continue
		}
		figures[dec[i].Cell()] = f
	}
	for i := range run.Results {
		r := &run.Results[i]
		if f, ok := figures[ColdJob{Codec: r.Codec, Dataset: r.Dataset, Shape: r.Shape, Op: r.Op}.Cell()]; ok && f.Reason == "" {
			r.ColdNs, r.ColdNextNs = f.FirstNs, f.NextNs
		}
	}
	if len(failed) > 0 {
		run.Warnings = append(run.Warnings, fmt.Sprintf("%d first calls in a fresh process have no figure: %s", len(failed), strings.Join(failed, "; ")))
	}
	return nil
}
