package harnessbench

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// A Case is one job of the harness preset, prepared and verified as the
// runner prepares it, with its testing.B name.
type Case struct {
	Job  runner.Job
	Name string // codec=json/dataset=tiny/shape=single
	Case codec.Case
	Msgs [2][]byte // the encodings the decode benchmark alternates, as the runner's
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
		cs = append(cs, Case{Job: job, Name: name, Case: p.Case, Msgs: p.Msgs})
	}
	return cs, nil
}

// Bench returns the testing.B benchmark of op on c: the same calls the
// runner times, in the runner's loop shape (a plain `for range b.N`, the
// last encoding kept alive with runtime.KeepAlive so the compiler cannot
// drop the work). b.Loop would add its own bookkeeping to every call, about
// 1.4ns here, which the check would then count as the harnesses'
// difference on nanosecond-scale operations.
func Bench(c Case, op results.Op) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		switch op {
		case results.Encode:
			var last []byte
			for range b.N {
				enc, err := c.Case.Encode()
				if err != nil {
					b.Fatal(err)
				}
				last = enc
			}
			runtime.KeepAlive(last)
		case results.Decode:
			for i := range b.N {
				if err := c.Case.Decode(c.Msgs[i&1]); err != nil {
					b.Fatal(err)
				}
			}
		default:
			b.Fatalf("unknown op %q", op)
		}
		b.ReportMetric(float64(len(c.Msgs[0])), "B/msg")
	}
}
