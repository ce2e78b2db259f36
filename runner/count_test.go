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

// TestCountWork checks what an estimate takes a count to run: a cheap
// op's windows reach countWindow in whole passes over the pool and its
// warm-up countWarm; an op whose one pass passes countWindow runs one
// pass a window and its warm-up two.
func TestCountWork(t *testing.T) {
	for _, tc := range []struct {
		name           string
		perOp          float64
		pool           int
		counted, plain float64
	}{
		{"a cheap op", 1000, 64, 64*1000 + 6*64*157*1000, 64 * 1563 * 1000},
		{"an op of a million instructions", 1e6, 64, 64e6 + 6*64e6, 2 * 64e6},
		{"one message", 1e9, 1, 1e9 + 6e9, 2e9},
	} {
		counted, plain, windows := CountWork(tc.perOp, tc.pool)
		if counted != tc.counted || plain != tc.plain || windows != 1+2*countPairs {
			t.Errorf("%s: CountWork = %v counted, %v plain, %d windows; want %v, %v, %d", tc.name, counted, plain, windows, tc.counted, tc.plain, 1+2*countPairs)
		}
	}
}
