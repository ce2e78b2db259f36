package runner

import (
	"strings"
	"testing"
)

// TestPerOp checks the arithmetic of a count's windows: the difference
// of the least counts of the n and 2n windows, over n, so that work that
// is not the loop's, added to one window, moves nothing.
func TestPerOp(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ones, twos []uint64
		n          int
		want       float64
		err        string
	}{
		{name: "one pair", ones: []uint64{1_500_000}, twos: []uint64{2_500_000}, n: 1000, want: 1000},
		{name: "extra work in a short window", ones: []uint64{1_700_000, 1_500_000}, twos: []uint64{2_500_000, 2_500_000}, n: 1000, want: 1000},
		{name: "extra work in a long window", ones: []uint64{1_500_000, 1_500_000}, twos: []uint64{2_500_000, 2_900_000}, n: 1000, want: 1000},
		{name: "extra work in both, in different pairs", ones: []uint64{1_500_100, 1_500_000}, twos: []uint64{2_500_000, 2_500_300}, n: 1000, want: 1000},
		{name: "a count that does not grow", ones: []uint64{2_000_000}, twos: []uint64{2_000_000}, n: 1000, err: "does not grow with the loop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := perOp(tc.ones, tc.twos, tc.n)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("perOp = %v, %v; want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("perOp = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
