package html

import (
	"testing"

	"github.com/serbench/serbench/results"
)

// TestGarbage checks the memory table's figures: one not measured is
// "–", never 0; an op that allocates nothing costs 0 cycles.
func TestGarbage(t *testing.T) {
	for _, tc := range []struct {
		name               string
		r                  *results.Result
		alloc, cycles, cpu string
	}{
		{"no result", nil, "–", "–", "–"},
		{"skipped", &results.Result{Status: results.Skipped}, "–", "–", "–"},
		{"allocates, no cycle seen", &results.Result{Status: results.OK, BPerOp: 320}, "320", "–", "–"},
		{"allocates nothing", &results.Result{Status: results.OK}, "0", "0", results.FormatNs(0)},
		{"measured", &results.Result{Status: results.OK, BPerOp: 320, GCCyclesPerKop: 0.25, GCCPUNsPerKop: 750}, "320", "0.25", results.FormatNs(750)},
	} {
		alloc, cycles, cpu := garbage(tc.r)
		if alloc != tc.alloc || cycles != tc.cycles || cpu != tc.cpu {
			t.Errorf("%s: %q %q %q, want %q %q %q", tc.name, alloc, cycles, cpu, tc.alloc, tc.cycles, tc.cpu)
		}
	}
}
