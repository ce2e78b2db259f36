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
