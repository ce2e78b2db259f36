package compare_test

import (
	"math"
	"testing"

	"golang.org/x/perf/benchmath"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/results"
)

// count builds a row of instructions per op: one exact value per run, as
// a results.bench of a counted run holds.
func count(name string, old, new float64) compare.Row {
	one := func(c float64) benchmath.Summary {
		return benchmath.Summary{Lo: math.Inf(-1), Center: c, Hi: math.Inf(1)}
	}
	return compare.Row{Name: name, Unit: results.UnitInstructions, Old: one(old), New: one(new),
		Cmp: benchmath.Comparison{P: 1, Alpha: 0.05, N1: 1, N2: 1}}
}

// counts builds a row of instructions per op counted by several processes
// on each side: the median between the smallest and largest count, as
// compare reads a results.bench of a counted run.
func counts(name string, old, new []float64) compare.Row {
	spread := func(xs []float64) benchmath.Summary {
		v := results.Spread(xs)
		return benchmath.Summary{Lo: v.Lo, Center: v.Mid, Hi: v.Hi}
	}
	return compare.Row{Name: name, Unit: results.UnitInstructions, Old: spread(old), New: spread(new),
		Cmp: benchmath.Comparison{P: 1, Alpha: 0.05, N1: len(old), N2: len(new)}}
}

// TestGateHold holds the gate's rules for a busy machine and for counts:
// an A/A pair of counted runs flags nothing at 1% however far their times
// moved; on time alone, a change within a busy run's two speeds passes as
// undecided and one beyond them fails; allocs/op and cpu-sec/op are judged
// only where their runs agree with themselves; counts of several processes
// are flagged only beyond their spreads; a time change where a side
// waited for the CPU passes undecided; B/op of an amortized allocation is
// not judged.
func TestGateHold(t *testing.T) {
	quiet := &results.Machine{Probes: 1000, Busy: 0.01, Slowdown: 1.3}
	busy := &results.Machine{Probes: 1000, Busy: 0.62, Slowdown: 1.8}
	const enc = "Encode/codec=json/dataset=tiny/shape=single"
	tests := []struct {
		name      string
		threshold float64
		machines  [2]*results.Machine
		rows      []compare.Row
		// want: regressions, improvements, undecided, unstable, left to counts
		reg, imp, undecided, unstable, counted int
		waited                                 int
	}{
		{"A/A counted at 1%, time moved 40% on a busy machine", 0.01, [2]*results.Machine{busy, busy},
			[]compare.Row{count(enc, 2068, 2071), row(enc, "sec/op", 100e-9, 140e-9, 0.001), row(enc, "cpu-sec/op", 100e-9, 140e-9, 0.001)},
			0, 0, 0, 0, 2, 0},
		{"A/A counted at 1%, counts 1.9% apart (hash seeds)", 0.01, [2]*results.Machine{busy, busy},
			[]compare.Row{count(enc, 11318, 11103), row(enc, "sec/op", 100e-9, 100e-9, 1)},
			0, 0, 0, 0, 1, 0},
		{"counts that grew 5% at 1%", 0.01, [2]*results.Machine{quiet, quiet},
			[]compare.Row{count(enc, 2000, 2100), row(enc, "sec/op", 100e-9, 100.5e-9, 0.5)},
			1, 0, 0, 0, 1, 0},
		{"counts that fell 5% at 1%", 0.01, [2]*results.Machine{quiet, quiet},
			[]compare.Row{count(enc, 2000, 1900)},
			0, 1, 0, 0, 0, 0},
		{"time alone, +50% within a busy run's 1.8x", 0.25, [2]*results.Machine{quiet, busy},
			[]compare.Row{row(enc, "sec/op", 100e-9, 150e-9, 0.001)},
			0, 0, 1, 0, 0, 0},
		{"time alone, -40% within a busy run's 1.8x", 0.25, [2]*results.Machine{busy, quiet},
			[]compare.Row{row(enc, "sec/op", 100e-9, 60e-9, 0.001)},
			0, 0, 1, 0, 0, 0},
		{"time alone, +100% beyond a busy run's 1.8x", 0.25, [2]*results.Machine{busy, busy},
			[]compare.Row{row(enc, "sec/op", 100e-9, 200e-9, 0.001)},
			1, 0, 0, 0, 0, 0},
		{"time alone, +50% on quiet machines", 0.25, [2]*results.Machine{quiet, quiet},
			[]compare.Row{row(enc, "sec/op", 100e-9, 150e-9, 0.001)},
			1, 0, 0, 0, 0, 0},
		{"time alone, +50% with no meter (go test output)", 0.25, [2]*results.Machine{nil, nil},
			[]compare.Row{row(enc, "sec/op", 100e-9, 150e-9, 0.001)},
			1, 0, 0, 0, 0, 0},
		{"allocs/op doubled where its runs spread ±30%", 0.25, [2]*results.Machine{quiet, quiet},
			[]compare.Row{wide(enc, "allocs/op", 7, 14, 0.001)},
			0, 0, 0, 1, 0, 0},
		{"allocs/op +57% where its runs agree", 0.25, [2]*results.Machine{quiet, quiet},
			[]compare.Row{row(enc, "allocs/op", 7, 11, 0.001)},
			1, 0, 0, 0, 0, 0},
		{"B/msg is no time: a busy machine does not hold it", 0.25, [2]*results.Machine{busy, busy},
			[]compare.Row{row(enc, "B/msg", 100, 150, 0.001)},
			1, 0, 0, 0, 0, 0},
		{"A/A counted by three processes at 1%: 1.5% apart within their spreads", 0.01, [2]*results.Machine{quiet, quiet},
			[]compare.Row{counts(enc, []float64{11103, 11318, 11290}, []float64{11120, 11300, 11260})},
			0, 0, 0, 0, 0, 0},
		{"counts 1.5% apart beyond their spreads at 1% (under the 2% a single count needs)", 0.01, [2]*results.Machine{quiet, quiet},
			[]compare.Row{counts(enc, []float64{2000, 2001, 2002}, []float64{2030, 2031, 2032})},
			1, 0, 0, 0, 0, 0},
		{"counts 5% apart beyond their spreads, below a 10% threshold", 0.10, [2]*results.Machine{quiet, quiet},
			[]compare.Row{counts(enc, []float64{2000, 2001, 2002}, []float64{2100, 2101, 2102})},
			0, 0, 0, 0, 0, 0},
		{"time alone, +100% where the new side waited for the CPU (wall 1.5x its CPU time)", 0.25, [2]*results.Machine{quiet, quiet},
			[]compare.Row{row(enc, "sec/op", 100e-9, 200e-9, 0.001), row(enc, "cpu-sec/op", 98e-9, 133e-9, 0.001)},
			0, 0, 0, 0, 0, 2},
		{"time alone, +100% where neither side waited: the code", 0.25, [2]*results.Machine{quiet, quiet},
			[]compare.Row{row(enc, "sec/op", 100e-9, 200e-9, 0.001), row(enc, "cpu-sec/op", 98e-9, 195e-9, 0.001)},
			2, 0, 0, 0, 0, 0},
		{"B/op +21% of an op that allocates a fraction per op (amortized)", 0.01, [2]*results.Machine{quiet, quiet},
			[]compare.Row{row(enc, "B/op", 112, 136, 0.001), row(enc, "allocs/op", 2.007, 2.374, 0.001)},
			0, 0, 0, 1, 0, 0},
		{"B/op +21% of an op of whole allocations", 0.01, [2]*results.Machine{quiet, quiet},
			[]compare.Row{row(enc, "B/op", 112, 136, 0.001), row(enc, "allocs/op", 2, 2, 1)},
			1, 0, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := compare.Gate{Threshold: tt.threshold, Machines: tt.machines}.Judge(tt.rows)
			got := [6]int{len(v.Regressions), len(v.Improvements), len(v.Undecided), len(v.Unstable), v.Counted, len(v.Waited)}
			want := [6]int{tt.reg, tt.imp, tt.undecided, tt.unstable, tt.counted, tt.waited}
			if got != want {
				t.Errorf("regressions, improvements, undecided, unstable, counted, waited = %v; want %v", got, want)
			}
		})
	}
}
