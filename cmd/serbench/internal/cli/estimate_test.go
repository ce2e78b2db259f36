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

// TestWithCounts checks the estimate of a command that counts: unchanged
// when it only times, the count pass's in its place when it only counts,
// added when it times then counts (and then told apart, for the count
// pass's progress); the count pass is said on stderr when there is one.
func TestWithCounts(t *testing.T) {
	jobs := []runner.Job{{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single", Ops: []results.Op{results.Encode, results.Decode}}}
	c := measure.CountEstimate(jobs, runtime.NumCPU())
	if c <= 0 {
		t.Fatalf("CountEstimate = %v, want a positive estimate", c)
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
	}
}
