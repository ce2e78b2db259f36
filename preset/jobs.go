package preset

import (
	"errors"
	"fmt"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/internal/suggest"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/runner/jobs"
)

// Validate checks every name in the selection against the registries,
// reporting all the unknown names at once, one line per kind.
func (s Selection) Validate() error {
	return errors.Join(registry.Check(s.Codecs), dataset.Check(s.Datasets), dataset.CheckShapes(s.Shapes), checkOps(s.Ops))
}

// checkOps returns an error naming every one of ops that is not an op.
func checkOps(ops []results.Op) error {
	var names, known []string
	for _, op := range ops {
		names = append(names, string(op))
	}
	for _, op := range results.AllOps() {
		known = append(known, string(op))
	}
	return suggest.Check("op", names, known, nil, "")
}

// xlMemory is the available memory an extra-large job asks for.
const xlMemory = 12 << 30

// Jobs returns the runner jobs of the selection, dataset by dataset, in
// registry order. Extra-large cases not asked for are returned as skipped
// jobs, so that reports say why they are missing; the runner skips codecs
// that cannot represent a dataset's type the same way.
func (s Selection) Jobs() ([]runner.Job, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	ops := s.Ops
	if len(ops) == 0 {
		ops = results.Ops
	}
	var jobs []runner.Job
	for _, d := range dataset.All {
		if !has(s.Datasets, d.Name) {
			continue
		}
		for _, sh := range d.Shapes() {
			if !has(s.Shapes, sh) {
				continue
			}
			for _, c := range registry.Codecs {
				if !has(s.Codecs, c.Name) {
					continue
				}
				j := job(c, d, sh, ops)
				if len(j.Ops) == 0 {
					continue // an in-place reader, and no op it takes part in
				}
				if d.IsXL(sh) {
					j.MinMemory = xlMemory
					if !s.XL {
						j.Skip = fmt.Sprintf("extra-large case (%d values of %s, hundreds of MB encoded): run with -xl to include it", d.SliceLen, d.Type())
					}
				}
				jobs = append(jobs, j)
			}
		}
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("the selection matches no benchmark: check -codecs, -datasets and -shapes")
	}
	return jobs, nil
}

// job returns the job of codec c on dataset d in shape sh (jobs.Of).
func job(c codec.Info, d *dataset.Dataset, sh dataset.Shape, ops []results.Op) runner.Job {
	return jobs.Of(c, d, sh, ops)
}

// Job returns the job of one registered codec on one dataset shape, for
// the given ops: what a worker process rebuilds from a job's names.
func Job(codecName, datasetName, shape string, ops []results.Op) (runner.Job, error) {
	c, err := registry.Lookup(codecName)
	if err != nil {
		return runner.Job{}, err
	}
	return jobs.Named(c, datasetName, shape, ops)
}
