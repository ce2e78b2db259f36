package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/cmd/serbench/internal/progress"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// TestForecastText checks what a run's first line says its estimate is
// made of: -time's bound alone when capped, else the budgets and the
// preparation and checks timed as the run started.
func TestForecastText(t *testing.T) {
	for _, tt := range []struct {
		f    measure.Forecast
		want []string
	}{
		{measure.Forecast{Total: time.Minute, Capped: true, Tail: 5 * time.Second}, []string{"-time, and 5s after it", "cut short"}},
		{measure.Forecast{Total: time.Minute, Capped: true, Tail: 10 * time.Second, Share: 0.5}, []string{"-time, and 10s after it", "stretched for the 50% of a CPU"}},
		{measure.Forecast{Total: 70 * time.Second, Sampling: 65 * time.Second}, []string{"1m5s of sampling budgets", "-time D bounds it"}},
		{measure.Forecast{Total: 10 * time.Minute, Sampling: 65 * time.Second, Checks: 535 * time.Second},
			[]string{"1m5s of sampling budgets", "8m55s preparing and checking the values, their calls timed on this machine as the run started"}},
		{measure.Forecast{Total: 2 * time.Minute, Sampling: 2 * time.Minute, Share: 0.25},
			[]string{"2m0s of sampling budgets and setup (the setup and the calls stretched for the 25% of a CPU a worker got as the run started)"}},
		{measure.Forecast{Total: 2 * time.Minute, Sampling: 110 * time.Second, Tail: 10 * time.Second}, []string{"10s after them for the fresh process's decodes and the files"}},
	} {
		got := forecastText(tt.f)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("forecastText(%+v) = %q, want %q in it", tt.f, got, w)
			}
		}
	}
}

// TestRunEstimate checks an interleaved run's estimate: its -time and
// tail when -time squeezes it, its own time when not, nothing for flags
// that do not parse or a document (-file, read by the runs alone).
func TestRunEstimate(t *testing.T) {
	var probes []int
	withShare(t, 1, &probes)
	if got := runEstimate([]string{"-codecs", "json,cbor,gob", "-datasets", "tiny,medium", "-time", "30s"}); got <= 30*time.Second || got > 40*time.Second {
		t.Errorf("-time 30s: %v, want -time and its tail", got)
	}
	short := []string{"-codecs", "json", "-datasets", "tiny", "-shapes", "single"}
	if got := runEstimate(append(short, "-time", "30s")); got <= 0 || got >= 15*time.Second {
		t.Errorf("-time 30s: %v, want the run's own time, under 65%% of it", got)
	}
	for _, args := range [][]string{{"-codecs", "nope"}, {"-file", "x.json"}, {"--file=x.json"}} {
		if got := runEstimate(args); got != 0 {
			t.Errorf("%q: %v, want 0", args, got)
		}
	}
}

// withShare makes the share of a CPU that estimates measure share for
// the test's length, counting the probes in *probes.
func withShare(t *testing.T, share float64, probes *[]int) {
	old, oldSpeeds := measureShare, probeSpeeds
	measureShare = func(threads int) float64 { *probes = append(*probes, threads); return share }
	probeSpeeds = func([]runner.Job, measure.Costs) measure.Speeds { return nil }
	t.Cleanup(func() { measureShare, probeSpeeds = old, oldSpeeds })
}

// TestWithCounts checks the estimate of a command that counts: unchanged
// when it only times, the count pass's in its place when it only counts,
// added when it times then counts (and then told apart, for the count
// pass's progress); the count pass is said on stderr when there is one,
// stretched by the share of a CPU its processes get (a tenth here), as
// measured by countShare, with a thread per process, and only for a
// command that counts and says its estimates.
func TestWithCounts(t *testing.T) {
	var probes []int
	withShare(t, 0.1, &probes)
	jobs := []runner.Job{{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single", Ops: []results.Op{results.Encode, results.Decode}}}
	plan := countPlan(results.MeasureBoth, jobs, measure.Costs{"tiny/single": {Bytes: 60, Pass: time.Microsecond}}, 0.1)
	if !plan.Verified || countPlan(results.MeasureInstructions, jobs, nil, 0).Verified {
		t.Errorf("countPlan: the checks after timing made by the timed pass with both, by the count with instructions")
	}
	idle, c := measure.CountEstimate(plan, 0), measure.CountEstimate(plan, 0.1)
	if idle <= 0 || c <= idle {
		t.Fatalf("CountEstimate = %v idle, %v at a tenth of a CPU: want a positive estimate, longer when busy", idle, c)
	}
	for _, tt := range []struct {
		mode        string
		total, pass time.Duration
		said        bool
	}{
		{results.MeasureTime, time.Minute, 0, false},
		{results.MeasureInstructions, c, 0, true},
		{results.MeasureBoth, time.Minute + c, c, true},
	} {
		var buf strings.Builder
		share := countShare(tt.mode, false)
		total, pass := withCounts(&buf, tt.mode, plan, share, time.Minute)
		if total != tt.total || pass != tt.pass {
			t.Errorf("%s: withCounts = %v, %v; want %v, %v", tt.mode, total, pass, tt.total, tt.pass)
		}
		if said := strings.Contains(buf.String(), "counting under Valgrind, each benchmark in 3 processes"); said != tt.said {
			t.Errorf("%s: said %q", tt.mode, buf.String())
		}
		if tt.said && !strings.Contains(buf.String(), "10% of a CPU here, measured as it started") {
			t.Errorf("%s: said %q, want the share it measured", tt.mode, buf.String())
		}
	}
	if countShare(results.MeasureBoth, true) != 0 {
		t.Errorf("countShare with -q: want no probe, 0")
	}
	if len(probes) != 2 || probes[0] != measure.CountProcs {
		t.Errorf("probes with %v threads, want two (one per command that counts) with %d", probes, measure.CountProcs)
	}
}

// TestRecounting checks that a run that times then counts makes its
// count pass's estimate again as that pass begins, from the timed
// pass's results and a share measured then, and says it in the pass's
// first line; a run that only counts keeps the estimate it said.
func TestRecounting(t *testing.T) {
	var probes []int
	withShare(t, 0.5, &probes)
	j := runner.Job{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single", Ops: []results.Op{results.Encode, results.Decode}}
	plan := countPlan(results.MeasureBoth, []runner.Job{j}, measure.Costs{"tiny/single": {Bytes: 60, Pass: time.Microsecond}}, 0.5)
	run := &results.Run{}
	for _, op := range j.Ops {
		r := results.Result{Op: op, Codec: "json", Dataset: "tiny", Shape: "single", Status: results.OK, CPUNsPerOp: 1e6}
		run.Results = append(run.Results, r)
	}
	for _, tt := range []struct {
		mode string
		want time.Duration
	}{
		{results.MeasureBoth, measure.CountEstimate(measure.CountPlan{Jobs: plan.Jobs, Costs: plan.Costs, Verified: true, CPUs: plan.CPUs, PassShare: plan.PassShare, Timed: run.Results}, 0.5)},
		{results.MeasureInstructions, time.Hour},
	} {
		probes = nil
		var buf bytes.Buffer
		prog := progress.New(&buf, 1)
		prog.SetCountEstimate(time.Hour, 1)
		recounting(prog, tt.mode, run, plan)(runner.Event{Counting: true, Total: 1})
		prog.Finish()
		if want := fmt.Sprintf("about %v by the estimate", tt.want.Round(time.Second)); !strings.Contains(buf.String(), want) {
			t.Errorf("%s: said %q, want %q", tt.mode, buf.String(), want)
		}
		if again := strings.Contains(buf.String(), "made again from the timed pass's time per op, each process getting 50% of a CPU now (first 1h0m0s)"); again != (tt.mode == results.MeasureBoth) || len(probes) != map[bool]int{true: 1}[again] {
			t.Errorf("%s: said %q after %d probes", tt.mode, buf.String(), len(probes))
		}
	}
}

// TestBuildEstimate checks the counting worker's build estimate: go
// build's own work when Go's build cache holds every package, the
// compilation of what it does not on every CPU, both stretched by the
// share each gets of what the machine's other work leaves
// (machine.ShareAt).
func TestBuildEstimate(t *testing.T) {
	cached := worker.BuildPlan{}
	cold := worker.BuildPlan{Packages: 600, Bytes: 50e6}
	compile := time.Duration(50e6 * compileByte / 2)
	for _, tt := range []struct {
		name  string
		plan  worker.BuildPlan
		share float64
		want  time.Duration
	}{
		{"cached, idle", cached, 0, buildBase},
		{"cold, idle 2 CPUs", cold, 0, buildBase + compile},
		// Each of 3 threads got a fifth of a CPU: the rest of the two
		// CPUs went to 7 threads of other work, with which the link
		// gets a quarter of a CPU (2 of 8 threads' worth), and each of
		// the compiler's two threads two ninths.
		{"cold, busy", cold, 0.2, 4*buildBase + compile*9/2},
	} {
		got := buildEstimate(tt.plan, 2, tt.share)
		if d := got - tt.want; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	few := worker.BuildPlan{Packages: 3, Bytes: 242_000}
	if !strings.Contains(buildText(cold), "600 packages, 50 MB of source") || !strings.Contains(buildText(few), "3 packages, 242 kB of source") || !strings.Contains(buildText(cached), "links only") {
		t.Errorf("buildText: %q, %q, %q", buildText(cold), buildText(few), buildText(cached))
	}
}

// TestForecastShare checks when a run's forecast measures the share of
// a CPU and what it stretches: one worker's share, for a forecast long
// enough to be said, the setup, or the tail after -time's bound; none
// for a short run.
func TestForecastShare(t *testing.T) {
	var probes []int
	withShare(t, 0.5, &probes)
	var jobs []runner.Job
	for range 20 {
		jobs = append(jobs, runner.Job{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single", Ops: []results.Op{results.Encode, results.Decode}})
	}
	opts := runner.Options{Budget: time.Second}
	idle := measure.Predict(jobs, opts, nil, nil, 0)
	f := forecast(jobs, opts, nil)
	if f.Share != 0.5 || f.Total <= idle.Total || len(probes) != 1 || probes[0] != 1 {
		t.Errorf("40 benchmarks of 1s: %+v after probes %v, want one worker's share (0.5) stretching %v", f, probes, idle.Total)
	}
	probes = nil
	opts.Total = 30 * time.Second
	capped := measure.Predict(jobs, opts, nil, nil, 0)
	if f := forecast(jobs, opts, nil); f.Share != 0.5 || !f.Capped || f.Tail != 2*capped.Tail || len(probes) != 1 {
		t.Errorf("-time 30s: %+v after probes %v, want one probe, its share stretching the tail after -time, %v", f, probes, capped.Tail)
	}
	probes = nil
	opts.Total = 0
	if f := forecast(jobs[:1], opts, nil); f.Share != 0 || len(probes) != 0 {
		t.Errorf("2 benchmarks: %+v after probes %v, want no probe", f, probes)
	}
}
