package results

import (
	"slices"
	"testing"
)

func TestContested(t *testing.T) {
	r := func(codec string, op Op, med, lo, hi float64) Result {
		return Result{Op: op, Codec: codec, Dataset: "tiny", Shape: "single", Status: OK,
			NsPerOp: Stat{Median: med, Lo: lo, Hi: hi}}
	}
	key := func(codec string, op Op) string { x := r(codec, op, 0, 0, 0); return x.Key() }
	tests := []struct {
		name string
		rs   []Result
		want []string
	}{
		{"apart and separated: settled", []Result{r("a", Encode, 100, 98, 102), r("b", Encode, 200, 196, 204)}, nil},
		{"far apart, intervals overlap", []Result{r("a", Encode, 100, 80, 150), r("b", Encode, 140, 120, 160)},
			[]string{key("a", Encode), key("b", Encode)}},
		{"no interval", []Result{r("a", Encode, 100, 0, 0), r("b", Encode, 300, 290, 310)},
			[]string{key("a", Encode), key("b", Encode)}},
		{"a tie in practice, separated", []Result{r("a", Encode, 100, 99, 101), r("b", Encode, 105, 104, 106)}, nil},
		{"the fastest two overlap within the gap", []Result{r("a", Encode, 100, 95, 105), r("b", Encode, 103, 98, 108), r("c", Encode, 300, 295, 305)},
			[]string{key("a", Encode), key("b", Encode)}},
		{"ops are not rivals", []Result{r("a", Encode, 100, 80, 150), r("b", Decode, 140, 120, 160)}, nil},
		{"unranked results are left out", func() []Result {
			x := r("b", Encode, 140, 120, 160)
			x.Implausible = "faster than a copy"
			y := r("c", Encode, 130, 0, 0)
			y.Status = Failed
			return []Result{r("a", Encode, 100, 80, 150), x, y}
		}(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Contested(tt.rs)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Contested = %q, want %q", got, want)
			}
		})
	}
}

func TestTurnable(t *testing.T) {
	r := func(codec string, med float64) Result {
		return Result{Op: Encode, Codec: codec, Dataset: "tiny", Shape: "single", Status: OK,
			NsPerOp: Stat{Median: med, Lo: med * 0.99, Hi: med * 1.01}}
	}
	rs := []Result{r("a", 100), r("b", 105), r("c", 140), r("d", 400)}
	key := func(c string) string { x := r(c, 0); return x.Key() }
	tests := []struct {
		name string
		m    Machine
		want []string
	}{
		{"a machine of its own", Machine{Probes: 100, Busy: 0.01, Slowdown: 1.6}, nil},
		{"never measured", Machine{}, nil},
		{"busy, 1.6x slower then", Machine{Probes: 100, Busy: 0.2, Slowdown: 1.6},
			[]string{key("a"), key("b"), key("c")}}, // a-c and b-c: 1.4 and 1.33 apart; a-b is a tie; d is 2.9 away
		{"busy, barely slower", Machine{Probes: 100, Busy: 0.2, Slowdown: 1.05}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Turnable(rs, tt.m)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Turnable = %q, want %q", got, want)
			}
		})
	}
}
