package runner

import (
	"testing"
	"time"
)

// TestUnseenBuilds checks the salted draws: distinct, beyond every pool
// and the decoy, different from one salt to another, the same for one.
func TestUnseenBuilds(t *testing.T) {
	a, b := unseenBuilds(1, 0, 64), unseenBuilds(2, 0, 64)
	seen := map[int]bool{}
	for _, k := range a {
		if k < unseenBase || k >= unseenBase+unseenRange || seen[k] {
			t.Fatalf("build %d: out of [%d, %d) or drawn twice", k, unseenBase, unseenBase+unseenRange)
		}
		seen[k] = true
	}
	if k := unseenBuilds(1, 0, 64); k[5] != a[5] {
		t.Error("one salt drew two sets")
	}
	same := 0
	for _, k := range b {
		if seen[k] {
			same++
		}
	}
	if same > 2 {
		t.Errorf("two salts share %d of 64 builds", same)
	}
	if poolBuild(0, 7) != 7 {
		t.Error("an unsalted pool's build 7 is not build 7")
	}
	if k := poolBuild(1, 0); k < unseenBase || k == poolBuild(2, 0) {
		t.Errorf("a salted pool's build 0 is build %d", k)
	}
}

// TestPairRatio checks that the unseen calls are held to the pool's pair
// by pair: a busy phase that slows both calls of a pair moves nothing.
func TestPairRatio(t *testing.T) {
	ns := func(xs ...int) []time.Duration {
		out := make([]time.Duration, len(xs))
		for i, x := range xs {
			out[i] = time.Duration(x)
		}
		return out
	}
	for _, tt := range []struct {
		name         string
		unseen, seen []time.Duration
		want         float64
	}{
		{"honest, a busy phase", ns(100, 100, 400, 400, 100), ns(100, 100, 400, 400, 100), 1},
		{"a memo", ns(1000, 1000, 1000, 1000), ns(10, 10, 10, 10), 100},
		{"one outlier", ns(100, 5000, 100), ns(100, 100, 100), 1},
		{"none", nil, nil, 0},
	} {
		if got := pairRatio(tt.unseen, tt.seen); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestCheckSize checks the size bound: the pool's spread and an eighth of
// its mean.
func TestCheckSize(t *testing.T) {
	p := &Prepared{Msgs: [][]byte{make([]byte, 100), make([]byte, 110), make([]byte, 90)}}
	for n, ok := range map[int]bool{100: true, 122: true, 78: true, 135: false, 3: false} {
		if err := p.checkSize(n, "an encoding"); (err == nil) != ok {
			t.Errorf("%d bytes against a pool of 90 to 110: %v", n, err)
		}
	}
}
