package harnessbench

import (
	"fmt"
	"testing"

	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/runner/tbloop"
)

// A Case is one job of the harness preset, prepared and verified as the
// runner prepares it, with its testing.B name.
type Case struct {
	Job  runner.Job
	Name string           // codec=json/dataset=tiny/shape=single
	Prep *runner.Prepared // the case and the two messages the runner times
}

// Cases prepares every job of the harness preset that its codec can hold;
// the others are left out, as serbench skips them.
func Cases() ([]Case, error) {
	p, err := preset.Lookup("harness")
	if err != nil {
		return nil, err
	}
	jobs, err := p.Jobs()
	if err != nil {
		return nil, err
	}
	var cs []Case
	for _, job := range jobs {
		p, err := runner.Prepare(&job)
		if err != nil {
			continue // a codec that cannot hold the dataset: serbench skips it too
		}
		name := fmt.Sprintf("codec=%s/dataset=%s/shape=%s", job.Codec.Name, job.Dataset, job.Shape)
		cs = append(cs, Case{Job: job, Name: name, Prep: p})
	}
	return cs, nil
}

// Bench returns the testing.B benchmark of op on c: the calls the runner
// times, in its loop shape (tbloop.Op).
func Bench(c Case, op results.Op) func(*testing.B) {
	return func(b *testing.B) { tbloop.Op(b, c.Prep, op) }
}
