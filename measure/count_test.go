package measure

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// counter is a Measurer that counts each benchmark as one process would:
// pass i counts base+i instructions per op for every benchmark, except
// the ones fail names, which it fails.
type counter struct {
	opts runner.Options
	base float64
	fail map[string]bool
}

func (c *counter) Run(_ context.Context, jobs []runner.Job) ([]results.Result, error) {
	var rs []results.Result
	for _, j := range jobs {
		for _, op := range j.Ops {
			r := results.Result{Op: op, Codec: j.Codec.Name, Dataset: j.Dataset, Shape: j.Shape, Status: results.OK, InstrPerOp: c.base}
			if c.fail[r.Key()] {
				r.Status, r.Reason, r.InstrPerOp = results.Skipped, "tried under Valgrind and failed: crashed", 0
				r.CountSkipped = r.Reason
			}
			rs = append(rs, r)
		}
	}
	return rs, nil
}
func (c *counter) Peak() results.Memory     { return results.Memory{} }
func (c *counter) Machine() results.Machine { return results.Machine{} }

// TestCountPasses: a run that counts counts every benchmark in
// CountProcs processes, the first making the checks after the count and
// the others not (Options.Verified); each result holds every process's
// count and their median, and is journaled once; a benchmark one process
// could not count takes that process's reason, checked by measuring it
// again without Valgrind.
func TestCountPasses(t *testing.T) {
	var jobs []runner.Job
	for _, c := range []string{"json", "gob"} {
		j, err := preset.Job(c, "tiny", "single", []results.Op{results.Encode, results.Decode})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	var mu sync.Mutex
	var verified []bool
	natives, nativeFails := 0, map[string]bool{}
	bases := []float64{1000, 1010, 990}
	cfg := Config{Options: runner.Options{Count: true}}
	cfg.Workers = func(o runner.Options, _ func(*runner.Job, results.Result), _ func(runner.Event)) Measurer {
		mu.Lock()
		defer mu.Unlock()
		if !o.Count {
			natives++
			return &counter{opts: o, fail: nativeFails}
		}
		i := len(verified)
		verified = append(verified, o.Verified)
		c := &counter{opts: o, base: bases[i%len(bases)]}
		if i == 2 {
			c.fail = map[string]bool{"Decode/codec=gob/dataset=tiny/shape=single": true}
		}
		return c
	}
	journaled := map[string]int{}
	cfg.Finished = func(_ *runner.Job, r results.Result) { journaled[r.Key()]++ }
	run := &results.Run{Env: results.Env{Overhead: 1}}
	if err := Run(context.Background(), run, jobs, cfg); err != nil {
		t.Fatal(err)
	}
	if len(verified) != CountProcs || verified[0] || !verified[1] || !verified[2] {
		t.Errorf("passes verified = %v; want %d passes, only the first making the checks", verified, CountProcs)
	}
	if len(run.Results) != 4 {
		t.Fatalf("%d results; want 4", len(run.Results))
	}
	skipped := 0
	for _, r := range run.Results {
		if journaled[r.Key()] != 1 {
			t.Errorf("%s journaled %d times; want once", r.Key(), journaled[r.Key()])
		}
		if r.Key() == "Decode/codec=gob/dataset=tiny/shape=single" {
			if r.Status != results.Skipped || !strings.Contains(r.CountSkipped, "crashed; it runs without Valgrind") {
				t.Errorf("%s: %s %q; want skipped with the failing process's reason", r.Key(), r.Status, r.CountSkipped)
			}
			skipped++
			continue
		}
		if r.Status != results.OK || r.InstrPerOp != 1000 || len(r.InstrCounts) != CountProcs {
			t.Errorf("%s: %s, %g instructions/op of %v; want the median 1000 of %d counts", r.Key(), r.Status, r.InstrPerOp, r.InstrCounts, CountProcs)
		}
		if v := r.InstrInterval(); v.Lo != 990 || v.Hi != 1010 {
			t.Errorf("%s: interval %+v; want 990 to 1010", r.Key(), v)
		}
	}
	if skipped != 1 || natives != 1 {
		t.Errorf("%d benchmarks skipped, %d measured again without Valgrind; want gob's decode, once", skipped, natives)
	}
}
