package claims_test

import (
	"testing"

	"github.com/serbench/serbench/claims"
)

func TestJobs(t *testing.T) {
	jobs, err := claims.Jobs(claims.All)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	ops := 0
	for _, j := range jobs {
		k := j.Codec.Name + "/" + j.Dataset + "/" + j.Shape
		if seen[k] {
			t.Errorf("job %s twice", k)
		}
		seen[k] = true
		if len(j.Ops) == 0 || len(j.Ops) > 2 {
			t.Errorf("job %s has ops %v", k, j.Ops)
		}
		ops += len(j.Ops)
	}
	// Every testable claim's codecs, datasets and shapes have a job.
	for _, c := range claims.All {
		if c.Rule == claims.None {
			continue
		}
		for _, k := range c.Cases() {
			for _, codec := range c.Test.Codecs {
				if !seen[codec+"/"+k.Dataset+"/"+k.Shape] {
					t.Errorf("%s: no job for %s on %s", c.ID, codec, k)
				}
			}
		}
	}
	t.Logf("%d jobs, %d benchmarks", len(jobs), ops)
}
