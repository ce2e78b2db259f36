package compare_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/internal/golden"
)

func TestParseThreshold(t *testing.T) {
	tests := []struct {
		in      string
		want    float64
		wantErr string
	}{
		{"5%", 0.05, ""},
		{"0.05", 0.05, ""},
		{" 25% ", 0.25, ""},
		{"0", 0, ""},
		{"1000%", 10, ""},
		{"1001%", 0, "out of range"},
		{"-1%", 0, "out of range"},
		{"five", 0, "not a relative change"},
		{"%", 0, "not a relative change"},
		{"NaN", 0, "not a relative change"},
	}
	for _, tt := range tests {
		got, err := compare.ParseThreshold(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseThreshold(%q) = %v, %v; want an error containing %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("ParseThreshold(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// row builds a row whose medians are old and new, with intervals of ±1%
// around each and the given p-value.
func row(name, unit string, old, new, p float64) compare.Row {
	sum := func(c float64) benchmath.Summary { return benchmath.Summary{Lo: 0.99 * c, Center: c, Hi: 1.01 * c} }
	return compare.Row{Name: name, Unit: unit, Old: sum(old), New: sum(new),
		Cmp: benchmath.Comparison{P: p, Alpha: 0.05, N1: 10, N2: 10}}
}

// wide is row with intervals of ±30% around each median.
func wide(name, unit string, old, new, p float64) compare.Row {
	r := row(name, unit, old, new, p)
	r.Old.Lo, r.Old.Hi = 0.7*old, 1.3*old
	r.New.Lo, r.New.Hi = 0.7*new, 1.3*new
	return r
}

// exact is row with intervals of no width, as a count's.
func exact(name, unit string, old, new, p float64) compare.Row {
	r := row(name, unit, old, new, p)
	r.Old.Lo, r.Old.Hi = old, old
	r.New.Lo, r.New.Hi = new, new
	return r
}

func TestGate(t *testing.T) {
	g := compare.Gate{Threshold: 0.10}
	tests := []struct {
		name                       string
		row                        compare.Row
		flagged, regression, blind bool
	}{
		{"slower, significant, beyond", row("A", "sec/op", 100, 120, 0.01), true, true, false},
		{"faster, significant, beyond", row("A", "sec/op", 100, 80, 0.01), true, false, false},
		{"slower beyond, not significant", row("A", "sec/op", 100, 150, 0.20), false, false, false},
		{"slower, significant, within", row("A", "sec/op", 100, 109, 0.001), false, false, false},
		{"exactly the threshold is within", row("A", "sec/op", 100, 110, 0.001), false, false, false},
		{"slower, significant, beyond, intervals overlapping", wide("A", "sec/op", 100, 140, 0.001), false, false, true},
		{"slower beyond both intervals", wide("A", "sec/op", 100, 200, 0.001), true, true, true},
		{"a rate that fell", row("A", "MB/s", 100, 80, 0.01), true, true, false},
		{"a rate that rose", row("A", "MB/s", 100, 120, 0.01), true, false, false},
		{"allocations from none", exact("A", "allocs/op", 0, 1, 0.001), true, true, false},
		{"none both sides", exact("A", "allocs/op", 0, 0, 1), false, false, false},
		{"a fraction of an allocation more", exact("A", "allocs/op", 0.0004, 0.0006, 0.001), false, false, false},
		{"a few bytes more per op", exact("A", "B/op", 0.02, 0.035, 0.001), false, false, false},
		{"a small allocation more per op", exact("A", "B/op", 48, 64, 0.001), true, true, false},
		{"the collector's pace is not judged", row("A", "gc-cpu-ns/kop", 100, 4000, 0.001), false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := g.Flagged(tt.row); got != tt.flagged {
				t.Errorf("Flagged = %v, want %v (change %+.3f)", got, tt.flagged, tt.row.Change())
			}
			if got := g.Regression(tt.row); got != tt.regression {
				t.Errorf("Regression = %v, want %v", got, tt.regression)
			}
			if got := g.Blind(tt.row); got != tt.blind {
				t.Errorf("Blind = %v, want %v", got, tt.blind)
			}
		})
	}
	v := g.Judge([]compare.Row{tests[0].row, tests[1].row, tests[2].row, tests[3].row})
	if v.Compared != 4 || v.Significant != 3 || len(v.Regressions) != 1 || len(v.Improvements) != 1 {
		t.Errorf("Judge = %d compared, %d significant, %d regressions, %d improvements; want 4, 3, 1, 1",
			v.Compared, v.Significant, len(v.Regressions), len(v.Improvements))
	}
	// Threshold 0: every significant change counts.
	if !(compare.Gate{}).Regression(tests[3].row) {
		t.Error("with threshold 0, a significant +9% is not a regression")
	}
}

func TestRanking(t *testing.T) {
	sum := func(lo, c, hi float64) benchmath.Summary { return benchmath.Summary{Lo: lo, Center: c, Hi: hi} }
	pair := func(a, b [2]benchmath.Summary) []compare.Row {
		return []compare.Row{
			{Name: "Encode/codec=a/dataset=x", Unit: "sec/op", Old: a[0], New: a[1]},
			{Name: "Encode/codec=b/dataset=x", Unit: "sec/op", Old: b[0], New: b[1]},
		}
	}
	inf := math.Inf(1)
	tests := []struct {
		name         string
		rows         []compare.Row
		pairs, flips int
	}{
		{"kept order", pair([2]benchmath.Summary{sum(9, 10, 11), sum(9, 10, 11)}, [2]benchmath.Summary{sum(19, 20, 21), sum(19, 20, 21)}), 1, 0},
		{"flipped, apart in both", pair([2]benchmath.Summary{sum(9, 10, 11), sum(29, 30, 31)}, [2]benchmath.Summary{sum(19, 20, 21), sum(19, 20, 21)}), 1, 1},
		{"flipped medians, overlapping in new", pair([2]benchmath.Summary{sum(9, 10, 11), sum(15, 22, 30)}, [2]benchmath.Summary{sum(19, 20, 21), sum(19, 20, 21)}), 0, 0},
		{"overlapping in old", pair([2]benchmath.Summary{sum(9, 10, 20), sum(29, 30, 31)}, [2]benchmath.Summary{sum(19, 20, 21), sum(19, 20, 21)}), 0, 0},
		{"unknown interval", pair([2]benchmath.Summary{sum(-inf, 10, inf), sum(29, 30, 31)}, [2]benchmath.Summary{sum(19, 20, 21), sum(19, 20, 21)}), 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pairs, inv := compare.Ranking(tt.rows, "sec/op")
			if pairs != tt.pairs || len(inv) != tt.flips {
				t.Errorf("Ranking = %d pairs, %d flips (%+v); want %d, %d", pairs, len(inv), inv, tt.pairs, tt.flips)
			}
		})
	}
}

func TestGeomeans(t *testing.T) {
	rows := []compare.Row{
		row("Encode/codec=a/dataset=x", "sec/op", 100, 200, 0.01),
		row("Decode/codec=a/dataset=x", "sec/op", 100, 50, 0.01),
		row("Encode/codec=b/dataset=x", "sec/op", 100, 110, 0.01),
		row("Encode/codec=b/dataset=y", "sec/op", 100, 110, 0.01),
		row("Encode/codec=c/dataset=x", "sec/op", 100, 400, 0.01),
		row("Encode/codec=c/dataset=y", "sec/op", 0, 5, 0.01), // left out: zero median
		row("Plain", "sec/op", 100, 100, 1),                   // no codec: overall only
		row("Encode/codec=a/dataset=x", "B/op", 100, 300, 0.01),
	}
	got := compare.Geomeans(rows, "sec/op")
	want := []compare.Geomean{
		{Codec: "a", Unit: "sec/op", N: 2, Ratio: 1},
		{Codec: "b", Unit: "sec/op", N: 2, Ratio: 1.1, Lo: 1.1, Hi: 1.1},
		{Codec: "c", Unit: "sec/op", N: 1, Ratio: 4, Lo: math.Inf(1), Hi: math.Inf(1)},
		{Codec: "", Unit: "sec/op", N: 6, Ratio: math.Pow(2*0.5*1.1*1.1*4*1, 1.0/6)},
	}
	if len(got) != len(want) {
		t.Fatalf("Geomeans = %+v, want %d entries", got, len(want))
	}
	near := func(x, y float64) bool { return x == y || math.Abs(x-y) < 1e-9 }
	for i, w := range want {
		g := got[i]
		if g.Codec != w.Codec || g.N != w.N || !near(g.Ratio, w.Ratio) {
			t.Errorf("Geomeans[%d] = %+v, want codec %q, n %d, ratio %v", i, g, w.Codec, w.N, w.Ratio)
		}
	}
	// a's ratios 2 and 0.5 disagree: its interval spans both ways; b's
	// agree exactly: no width; c has one benchmark: no interval.
	if a := got[0]; !(a.Lo < 1 && a.Hi > 1) {
		t.Errorf("a's interval [%v, %v] does not contain 1", a.Lo, a.Hi)
	}
	if b := got[1]; !near(b.Lo, 1.1) || !near(b.Hi, 1.1) {
		t.Errorf("b's interval [%v, %v], want [1.1, 1.1]", b.Lo, b.Hi)
	}
	if c := got[2]; !math.IsInf(c.Hi, 0) {
		t.Errorf("c's interval [%v, %v], want unknown", c.Lo, c.Hi)
	}
}

// TestWriteVerdict renders a fixed comparison: the regressions named,
// the geomeans of the units that moved, the others in one line.
func TestWriteVerdict(t *testing.T) {
	rows := []compare.Row{
		row("Encode/codec=a/dataset=x", "sec/op", 100e-9, 140e-9, 0.001),
		row("Decode/codec=a/dataset=x", "sec/op", 100e-9, 105e-9, 0.001),
		row("Encode/codec=b/dataset=x", "sec/op", 100e-9, 60e-9, 0.002),
		row("Decode/codec=b/dataset=x", "sec/op", 100e-9, 98e-9, 0.4),
		wide("Encode/codec=c/dataset=x", "sec/op", 100e-9, 140e-9, 0.01),
		row("Encode/codec=a/dataset=x", "allocs/op", 2, 3, 0.001),
		row("Decode/codec=a/dataset=x", "allocs/op", 2, 2, 1),
		row("Encode/codec=b/dataset=x", "allocs/op", 2, 2, 1),
		row("Decode/codec=b/dataset=x", "allocs/op", 2, 2, 1),
		row("Encode/codec=a/dataset=x", "B/msg", 50, 50, 1),
		row("Encode/codec=b/dataset=x", "B/msg", 50, 50, 1),
	}
	var buf bytes.Buffer
	if err := compare.WriteVerdict(&buf, compare.Gate{Threshold: 0.25}.Judge(rows), rows); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "verdict.golden", buf.Bytes())
}

func TestMerge(t *testing.T) {
	a, err := compare.Read(strings.NewReader("BenchmarkX 1 1 ns/op\nBenchmarkY 1 2 ns/op\n"), "a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := compare.Read(strings.NewReader("BenchmarkZ 1 3 ns/op\nBenchmarkX 1 4 ns/op\n"), "b")
	if err != nil {
		t.Fatal(err)
	}
	m := compare.Merge("pooled", a, b)
	if got := strings.Join(m.Names(), ","); m.File != "pooled" || got != "X,Y,Z" {
		t.Errorf("Merge: file %q, names %s; want pooled, X,Y,Z", m.File, got)
	}
	rows, err := compare.Compare(m, m)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Name != "X" || rows[0].Cmp.N1 != 2 {
		t.Errorf("Merge: X has %d samples, want 2", rows[0].Cmp.N1)
	}
}
