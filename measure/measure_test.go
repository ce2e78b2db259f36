package measure

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

func TestRunWarnings(t *testing.T) {
	ok := func(met bool) results.Result { return results.Result{Status: results.OK, TargetMet: met} }
	capped := ok(false)
	capped.Samples = make([]results.Sample, 3)
	split := ok(false)
	split.Samples = []results.Sample{{Probe: 100}, {Probe: 160}, {Probe: 100}, {Probe: 170}}
	var tenMet []results.Result
	for range 10 {
		tenMet = append(tenMet, ok(true))
	}
	tests := []struct {
		name           string
		run            results.Run
		twoSpeeds      string // a phrase the warning must hold, or "" for none
		impreciseWants string
	}{
		{"a quiet run has no warnings",
			results.Run{Machine: &results.Machine{Probes: 1000, Busy: 0.004, Slowdown: 1.3}, Results: tenMet}, "", ""},
		{"a run recorded before the machine was probed",
			results.Run{Results: tenMet}, "", ""},
		{"a machine busy for a third of the run",
			results.Run{Machine: &results.Machine{Probes: 1000, Busy: 0.34, Slowdown: 1.71}, Results: tenMet},
			"ran 1.7× slower than its fast speed for 34% of the run (1000 probes)", ""},
		{"two of ten benchmarks short of the target",
			results.Run{Results: append(tenMet[:8:8], ok(false), ok(false)), Options: results.Options{Budget: results.Duration(2 * time.Second), Target: 0.03}},
			"", "2 of 10 benchmarks spent their 2s budget before"},
		{"two of ten short of the target, one at the cap on samples",
			results.Run{Results: append(tenMet[:8:8], ok(false), capped), Options: results.Options{Budget: results.Duration(2 * time.Second), Target: 0.03, MaxSamples: 3}},
			"", "2 of 10 benchmarks spent their 2s budget (1 of them took their cap of 3 samples first) before"},
		{"two short of the target, one with samples split between the speeds",
			results.Run{Results: append(tenMet[:8:8], ok(false), split), Machine: &results.Machine{Probes: 1000, Busy: 0.02, Slowdown: 1.6, FastNs: 100},
				Options: results.Options{Budget: results.Duration(2 * time.Second), Target: 0.03}},
			"", "2 of 10 benchmarks spent their 2s budget before the interval of their median reached ±3%: a noisy machine or a short budget. 1 of them started 30 to 70% of their samples while the machine was busy"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				name, got, want string
			}{{"twoSpeeds", twoSpeeds(&tc.run), tc.twoSpeeds}, {"imprecise", imprecise(&tc.run), tc.impreciseWants}} {
				if c.want == "" && c.got != "" || !strings.Contains(c.got, c.want) {
					t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
				}
			}
		})
	}
}

// TestRefine: the contested benchmarks of a run, and only they, are
// sampled again, their results merged with the first and reported final
// again; a run with nothing contested is left as it is.
func TestRefine(t *testing.T) {
	var jobs []runner.Job
	for _, c := range []string{"json", "gob"} {
		j, err := preset.Job(c, "tiny", "single", []results.Op{results.Encode, results.Decode})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	first := func(codec string, op results.Op, med, lo, hi float64) results.Result {
		return results.Result{Op: op, Codec: codec, Dataset: "tiny", Shape: "single", Status: results.OK,
			NsPerOp: results.Stat{Median: med, Lo: lo, Hi: hi}, Samples: []results.Sample{{Iters: 1, NsPerOp: med}}}
	}
	firstRun := func() *results.Run {
		return &results.Run{Results: []results.Result{
			first("json", results.Encode, 100, 50, 200), first("gob", results.Encode, 150, 120, 300), // contested
			first("json", results.Decode, 100, 99, 101), first("gob", results.Decode, 300, 299, 301), // settled
		}}
	}
	run := firstRun()
	var reported []string
	cfg := Config{Options: runner.Options{Budget: 10 * time.Millisecond, SampleTime: time.Millisecond},
		Finished: func(_ *runner.Job, r results.Result) { reported = append(reported, r.Key()) }}
	if _, err := refine(context.Background(), run, jobs, cfg, time.Now().Add(time.Minute), results.Machine{}); err != nil {
		t.Fatal(err)
	}
	if run.Refined != 2 || len(reported) != 2 {
		t.Fatalf("refined %d, reported %q; want the two encodes", run.Refined, reported)
	}
	for _, r := range run.Results {
		want := 1
		if r.Op == results.Encode {
			want = 2 // at least the first sample and one more
		}
		if r.Status != results.OK || len(r.Samples) < want || r.Op == results.Decode && len(r.Samples) != 1 {
			t.Errorf("%s: %s with %d samples; want ok and %d or more (the decodes untouched)", r.Key(), r.Status, len(r.Samples), want)
		}
	}

	// Too little time left: nothing is sampled again.
	run.Refined, reported = 0, nil
	busy := results.Machine{Probes: 100, Busy: 0.3, Slowdown: 4, FastNs: 1000}
	if _, err := refine(context.Background(), run, jobs, cfg, time.Now(), busy); err != nil || run.Refined != 0 || reported != nil {
		t.Errorf("refine with no time left: refined %d, %v", run.Refined, err)
	}

	// On a machine that ran 4 times slower while busy, the settled decodes
	// (3 times apart) could be turned by it: they get a second window too,
	// after the contested encodes. The run starts again from its first
	// figures, which the refining above replaced with measured ones.
	run, reported = firstRun(), nil
	if _, err := refine(context.Background(), run, jobs, cfg, time.Now().Add(time.Minute), busy); err != nil {
		t.Fatal(err)
	}
	if run.Refined != 4 || len(reported) != 4 {
		t.Fatalf("on a busy machine: refined %d, reported %q; want all four", run.Refined, reported)
	}
	for _, k := range reported[:2] {
		if !strings.HasPrefix(k, "Encode/") {
			t.Errorf("reported %q; want the contested encodes first", reported)
		}
	}
}

func TestSelect(t *testing.T) {
	j, err := preset.Job("json", "tiny", "single", []results.Op{results.Encode, results.Decode})
	if err != nil {
		t.Fatal(err)
	}
	dec := results.Result{Op: results.Decode, Codec: "json", Dataset: "tiny", Shape: "single"}
	got := Select([]runner.Job{j}, []string{dec.Key(), "nothing"})
	if len(got) != 1 || len(got[0].Ops) != 1 || got[0].Ops[0] != results.Decode {
		t.Errorf("Select = %v; want json's decode alone", got)
	}
	if got := Select([]runner.Job{j}, nil); len(got) != 0 {
		t.Errorf("Select of nothing = %v", got)
	}
}

// stuck measures its first job's benchmarks, then waits until its context
// ends, as a run whose time runs out in a long benchmark.
type stuck struct {
	finished func(*runner.Job, results.Result)
}

func (s *stuck) Run(ctx context.Context, jobs []runner.Job) ([]results.Result, error) {
	var rs []results.Result
	for _, op := range jobs[0].Ops {
		r := results.Result{Op: op, Codec: jobs[0].Codec.Name, Dataset: jobs[0].Dataset, Shape: jobs[0].Shape, Status: results.OK}
		rs = append(rs, r)
		s.finished(&jobs[0], r)
	}
	<-ctx.Done()
	return rs, ctx.Err()
}
func (s *stuck) Peak() results.Memory     { return results.Memory{} }
func (s *stuck) Machine() results.Machine { return results.Machine{} }

// TestCutShort: when a run's time ends, the benchmarks not measured are
// skipped as cut short, not journaled, and the run ends without an error;
// when the user interrupts it, it is interrupted.
func TestCutShort(t *testing.T) {
	defer func(f func(time.Duration) time.Duration) { overrun = f }(overrun)
	overrun = func(time.Duration) time.Duration { return 0 }
	var jobs []runner.Job
	for _, c := range []string{"json", "gob", "cbor"} {
		j, err := preset.Job(c, "tiny", "single", []results.Op{results.Encode, results.Decode})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	var journaled int
	cfg := Config{Options: runner.Options{Total: time.Second, Budget: 10 * time.Millisecond}}
	cfg.Workers = func(_ runner.Options, finished func(*runner.Job, results.Result), _ func(runner.Event)) Measurer {
		return &stuck{finished: finished}
	}
	cfg.Finished = func(*runner.Job, results.Result) { journaled++ }
	run := &results.Run{Env: results.Env{Overhead: 1}}
	if err := Run(context.Background(), run, jobs, cfg); err != nil {
		t.Fatalf("a run whose time ended: %v; want no error", err)
	}
	cut := 0
	for _, r := range run.Results {
		if r.CutShort {
			cut++
			if r.Status != results.Skipped || !strings.Contains(r.Reason, "cut short: the run's time (-time 1s) ended") {
				t.Errorf("%s: %s %q", r.Key(), r.Status, r.Reason)
			}
		}
	}
	if len(run.Results) != 6 || cut != 4 || journaled != 2 {
		t.Errorf("%d results, %d cut short, %d journaled; want 6, 4 and 2", len(run.Results), cut, journaled)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	cfg.Options.Total = time.Hour
	run = &results.Run{Env: results.Env{Overhead: 1}}
	if err := Run(ctx, run, jobs, cfg); err == nil {
		t.Error("an interrupted run ended without an error")
	}
	for _, r := range run.Results {
		if r.CutShort {
			t.Errorf("%s is cut short in an interrupted run", r.Key())
		}
	}
}

func TestSmallFirst(t *testing.T) {
	var jobs []runner.Job
	for _, c := range []struct{ codec, dataset, shape string }{
		{"json", "huge", "single"}, {"gob", "huge", "single"}, {"json", "tiny", "slice"},
		{"json", "big", "single"}, {"gob", "tiny", "slice"}, {"json", "tiny", "single"},
	} {
		j, err := preset.Job(c.codec, c.dataset, c.shape, []results.Op{results.Encode})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	var got []string
	for _, j := range smallFirst(jobs) {
		got = append(got, j.Codec.Name+" "+j.Dataset+"/"+j.Shape)
	}
	want := []string{"json tiny/single", "json tiny/slice", "gob tiny/slice", "json big/single", "json huge/single", "gob huge/single"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("smallFirst = %q\nwant %q", got, want)
	}
	tiny, _ := jobs[5].Value()
	if w := Weight(tiny); w != 2 {
		t.Errorf("Weight(Tiny) = %d, want 2 (an int64 and a string)", w)
	}
}
