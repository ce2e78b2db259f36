package harnessbench

import (
	"fmt"
	"testing"

	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

func BenchmarkEncode(b *testing.B) { benchOp(b, results.Encode) }
func BenchmarkDecode(b *testing.B) { benchOp(b, results.Decode) }

func benchOp(b *testing.B, op results.Op) {
	p, err := preset.Lookup("harness")
	if err != nil {
		b.Fatal(err)
	}
	jobs, err := p.Jobs()
	if err != nil {
		b.Fatal(err)
	}
	for i := range jobs {
		job := &jobs[i]
		c, data, err := runner.Prepare(job)
		if err != nil {
			continue // a codec that cannot hold the dataset: serbench skips it too
		}
		b.Run(fmt.Sprintf("codec=%s/dataset=%s/shape=%s", job.Codec.Name, job.Dataset, job.Shape), func(b *testing.B) {
			b.ReportAllocs()
			switch op {
			case results.Encode:
				for b.Loop() {
					if _, err := c.Encode(); err != nil {
						b.Fatal(err)
					}
				}
			case results.Decode:
				for b.Loop() {
					if err := c.Decode(data); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(data)), "B/msg")
		})
	}
}
