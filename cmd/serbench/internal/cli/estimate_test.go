package cli

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// TestForecastText checks what a run's first line says its estimate is
// made of: -time's bound alone when capped, else the budgets and the
// preparation and checks timed as the run started.
func TestForecastText(t *testing.T) {
	for _, tt := range []struct {
		f    measure.Forecast
		want []string
	}{
		{measure.Forecast{Total: time.Minute, Capped: true}, []string{"at most: -time"}},
		{measure.Forecast{Total: 70 * time.Second, Sampling: 65 * time.Second}, []string{"1m5s of sampling budgets", "-time D bounds it"}},
		{measure.Forecast{Total: 10 * time.Minute, Sampling: 65 * time.Second, Checks: 535 * time.Second},
			[]string{"1m5s of sampling budgets", "8m55s preparing and checking the values, timed on this machine as the run started"}},
		{measure.Forecast{Total: 2 * time.Minute, Sampling: 2 * time.Minute, Share: 0.25},
			[]string{"2m0s of sampling budgets and setup (the setup stretched for the 25% of a CPU a worker got as the run started)"}},
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
// overrun when capped, nothing for flags that do not parse or a document
// (-file, read by the runs alone).
func TestRunEstimate(t *testing.T) {
	if got := runEstimate([]string{"-codecs", "json", "-datasets", "tiny", "-time", "30s"}); got != 40*time.Second {
		t.Errorf("-time 30s: %v, want 40s (-time and its overrun)", got)
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
	old := measureShare
	measureShare = func(threads int) float64 { *probes = append(*probes, threads); return share }
	t.Cleanup(func() { measureShare = old })
}

// TestWithCounts checks the estimate of a command that counts: unchanged
// when it only times, the count pass's in its place when it only counts,
// added when it times then counts (and then told apart, for the count
// pass's progress); the count pass is said on stderr when there is one,
// stretched by the share of a CPU its processes get (a quarter here:
// four times an idle machine's), measured with as many threads.
func TestWithCounts(t *testing.T) {
	var probes []int
	withShare(t, 0.25, &probes)
	jobs := []runner.Job{{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single", Ops: []results.Op{results.Encode, results.Decode}}}
	idle := measure.CountEstimate(jobs, runtime.NumCPU(), 0)
	c := measure.CountEstimate(jobs, runtime.NumCPU(), 0.25)
	if idle <= 0 || c != 4*idle {
		t.Fatalf("CountEstimate = %v idle, %v at a quarter of a CPU: want a positive estimate, four times as long", idle, c)
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
		total, pass := withCounts(&buf, tt.mode, jobs, time.Minute)
		if total != tt.total || pass != tt.pass {
			t.Errorf("%s: withCounts = %v, %v; want %v, %v", tt.mode, total, pass, tt.total, tt.pass)
		}
		if said := strings.Contains(buf.String(), "counting under Valgrind, each benchmark in 3 processes"); said != tt.said {
			t.Errorf("%s: said %q", tt.mode, buf.String())
		}
		if tt.said && !strings.Contains(buf.String(), "25% of a CPU here, measured as it started") {
			t.Errorf("%s: said %q, want the share it measured", tt.mode, buf.String())
		}
	}
	if want := measure.CountThreads(runtime.NumCPU()); len(probes) != 2 || probes[0] != want {
		t.Errorf("probes with %v threads, want two (one per command that counts) with %d", probes, want)
	}
}

// TestForecastShare checks when a run's forecast measures the share of
// a CPU and what it stretches: one worker's share, for an uncapped
// forecast long enough to be said; none for -time's bound or a short run.
func TestForecastShare(t *testing.T) {
	var probes []int
	withShare(t, 0.5, &probes)
	var jobs []runner.Job
	for range 20 {
		jobs = append(jobs, runner.Job{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single", Ops: []results.Op{results.Encode, results.Decode}})
	}
	opts := runner.Options{Budget: time.Second}
	idle := measure.Predict(jobs, opts, nil, 0)
	f := forecast(jobs, opts, nil)
	if f.Share != 0.5 || f.Total <= idle.Total || len(probes) != 1 || probes[0] != 1 {
		t.Errorf("40 benchmarks of 1s: %+v after probes %v, want one worker's share (0.5) stretching %v", f, probes, idle.Total)
	}
	probes = nil
	opts.Total = time.Minute
	if f := forecast(jobs, opts, nil); f.Share != 0 || len(probes) != 0 {
		t.Errorf("-time 1m: %+v after probes %v, want no probe", f, probes)
	}
	opts.Total = 0
	if f := forecast(jobs[:1], opts, nil); f.Share != 0 || len(probes) != 0 {
		t.Errorf("2 benchmarks: %+v after probes %v, want no probe", f, probes)
	}
}
