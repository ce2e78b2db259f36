package results_test

import (
	"testing"

	"github.com/serbench/serbench/results"
)

func TestCompare(t *testing.T) {
	var (
		fast    = results.Interval{Mid: 10, Lo: 9, Hi: 11}
		slow    = results.Interval{Mid: 20, Lo: 18, Hi: 22}
		near    = results.Interval{Mid: 11.5, Lo: 10.5, Hi: 12}
		touch   = results.Interval{Mid: 12, Lo: 11, Hi: 13} // Lo equals fast's Hi: overlapping
		unknown = results.Interval{Mid: 1}                  // a median without an interval
		size    = results.Exact(100)
		bigger  = results.Exact(101)
	)
	tests := []struct {
		name       string
		a, b       results.Interval
		c          int
		known      bool
		apart, tie bool
	}{
		{"faster, apart", fast, slow, -1, true, true, false},
		{"slower, apart", slow, fast, 1, true, true, false},
		{"overlap", fast, near, 0, true, false, true},
		{"bounds touch", fast, touch, 0, true, false, true},
		{"same", fast, fast, 0, true, false, true},
		{"unknown against known: never apart, never tied", unknown, slow, 0, false, false, false},
		{"known against unknown", slow, unknown, 0, false, false, false},
		{"both unknown", unknown, unknown, 0, false, false, false},
		{"exact figures that differ are apart", size, bigger, -1, true, true, false},
		{"equal exact figures are tied", size, size, 0, true, false, true},
		{"an exact zero is known", results.Exact(0), size, -1, true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, known := results.Compare(tt.a, tt.b)
			if c != tt.c || known != tt.known {
				t.Errorf("Compare = %d, %v; want %d, %v", c, known, tt.c, tt.known)
			}
			if got := results.Apart(tt.a, tt.b); got != tt.apart {
				t.Errorf("Apart = %v, want %v", got, tt.apart)
			}
			if got := results.Tied(tt.a, tt.b); got != tt.tie {
				t.Errorf("Tied = %v, want %v", got, tt.tie)
			}
		})
	}
}

func TestIntervalArithmetic(t *testing.T) {
	a := results.Interval{Mid: 10, Lo: 8, Hi: 12}
	b := results.Interval{Mid: 20, Lo: 16, Hi: 25}
	unknown := results.Interval{Mid: 5}
	tests := []struct {
		name string
		got  results.Interval
		want results.Interval
	}{
		{"sum, bound to bound", a.Plus(b), results.Interval{Mid: 30, Lo: 24, Hi: 37}},
		{"sum with an unknown part is unknown", a.Plus(unknown), results.Interval{Mid: 15}},
		{"ratio, widest bounds", b.Over(a), results.Interval{Mid: 2, Lo: 16.0 / 12, Hi: 25.0 / 8}},
		{"ratio of an unknown is unknown", unknown.Over(a), results.Interval{Mid: 0.5}},
		{"ratio over an unknown is unknown", a.Over(unknown), results.Interval{Mid: 2}},
		{"ratio over zero is nothing", a.Over(results.Interval{}), results.Interval{}},
		{"exact ratio", results.Exact(30).Over(results.Exact(10)), results.Exact(3)},
		{"scaled", a.Times(2), results.Interval{Mid: 20, Lo: 16, Hi: 24}},
		{"scaled unknown stays unknown", unknown.Times(2), results.Interval{Mid: 10}},
		{"exact sum", results.Exact(0).Plus(results.Exact(2)), results.Exact(2)},
		{"a Stat's interval", results.Stat{Median: 3, Lo: 2, Hi: 4}.Interval(), results.Interval{Mid: 3, Lo: 2, Hi: 4}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, tt.got, tt.want)
		}
		if tt.got.Known() != tt.want.Known() {
			t.Errorf("%s: Known = %v", tt.name, tt.got.Known())
		}
	}
}

// TestSpread holds the interval of a figure counted once per process: the
// median between the smallest and largest, unknown for one process, and
// apart from another only where the two spreads do not overlap.
func TestSpread(t *testing.T) {
	for _, tt := range []struct {
		xs          []float64
		mid, lo, hi float64
		known       bool
	}{
		{nil, 0, 0, 0, false},
		{[]float64{99}, 99, 0, 0, false},
		{[]float64{75, 99}, 87, 75, 99, true},
		{[]float64{99, 75, 76}, 76, 75, 99, true},
		{[]float64{100, 100, 100}, 100, 100, 100, true},
	} {
		v := results.Spread(tt.xs)
		if v.Mid != tt.mid || v.Lo != tt.lo || v.Hi != tt.hi || v.Known() != tt.known {
			t.Errorf("Spread(%v) = %+v (known %v); want %g in [%g, %g] (known %v)", tt.xs, v, v.Known(), tt.mid, tt.lo, tt.hi, tt.known)
		}
	}
	a, b, c := results.Spread([]float64{100, 101, 102}), results.Spread([]float64{101.5, 103, 104}), results.Spread([]float64{103, 104, 105})
	if results.Apart(a, b) || !results.Apart(a, c) || results.Apart(a, results.Spread([]float64{200})) {
		t.Errorf("Apart: overlapping spreads apart, or disjoint ones not, or a single count apart")
	}
}
