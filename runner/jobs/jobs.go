// Package jobs builds the runner job of one codec on one dataset shape:
// package preset's jobs, and those of tests that run codecs without
// linking the registry (the race detector's builds of worker's tests stay
// small).
package jobs

import (
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// Of returns the job of codec c on dataset d in shape sh; an in-place
// reader (codec.Info.ReadsOnly) keeps only the ops it takes part in
// (runner.OpsOf).
func Of(c codec.Info, d *dataset.Dataset, sh dataset.Shape, ops []results.Op) runner.Job {
	ops = runner.OpsOf(c, ops)
	return runner.Job{
		Codec: c, Dataset: d.Name, Shape: string(sh), Items: d.Count(sh), Ops: ops, Reads: d.Reads(),
		Value:   func() (any, error) { return d.Value(sh) },
		Alt:     func() (any, error) { return d.ValueAt(sh, 1) },
		ValueAt: func(k int) (any, error) { return d.ValueAt(sh, k) },
	}
}

// Named returns the job of codec c on the dataset and shape named, for
// the given ops: what a worker process rebuilds from a job's names.
func Named(c codec.Info, datasetName, shape string, ops []results.Op) (runner.Job, error) {
	d, err := dataset.Lookup(datasetName)
	if err != nil {
		return runner.Job{}, err
	}
	sh, err := dataset.ParseShape(shape)
	if err != nil {
		return runner.Job{}, err
	}
	if !d.Has(sh) {
		return runner.Job{}, fmt.Errorf("dataset %s has no shape %s", d.Name, sh)
	}
	return Of(c, d, sh, ops), nil
}
