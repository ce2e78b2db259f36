package measure

import (
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/results"
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
