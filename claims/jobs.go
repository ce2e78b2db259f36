package claims

import (
	"slices"

	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// Jobs returns the runner jobs the claims' experiments need, each codec
// on each dataset shape once, with the union of the ops its claims need,
// in the order the claims first need them. Extra-large cases come back
// skipped, with the reason (preset.Selection.Jobs).
func Jobs(cs []Claim) ([]runner.Job, error) {
	var jobs []runner.Job
	at := map[string]int{}
	for _, c := range cs {
		if c.Rule == None {
			continue
		}
		sel := preset.Selection{Codecs: c.Test.Codecs, Datasets: c.Test.Datasets, Shapes: c.Test.Shapes, Ops: c.Ops()}
		js, err := sel.Jobs()
		if err != nil {
			return nil, err
		}
		for _, j := range js {
			k := j.Codec.Name + "/" + j.Dataset + "/" + j.Shape
			i, ok := at[k]
			if !ok {
				at[k] = len(jobs)
				jobs = append(jobs, j)
				continue
			}
			for _, op := range j.Ops {
				if !slices.Contains(jobs[i].Ops, op) {
					jobs[i].Ops = append(jobs[i].Ops, op)
				}
			}
			slices.SortFunc(jobs[i].Ops, func(a, b results.Op) int {
				return slices.Index(results.Ops, a) - slices.Index(results.Ops, b)
			})
		}
	}
	return jobs, nil
}
