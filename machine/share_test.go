package machine

import (
	"math"
	"testing"
	"time"
)

// TestShareOf checks the share read from injected readings: CPU time over
// threads times the wall time, at most 1, unknown without a reading.
func TestShareOf(t *testing.T) {
	for _, tt := range []struct {
		name      string
		cpu, wall time.Duration
		threads   int
		want      float64
	}{
		{"idle, one thread", 2 * time.Second, 2 * time.Second, 1, 1},
		{"idle, two threads", 4 * time.Second, 2 * time.Second, 2, 1},
		{"beside six busy threads on two CPUs", time.Second, 2 * time.Second, 2, 0.25},
		{"the GC's threads add CPU time: still whole", 3 * time.Second, 2 * time.Second, 1, 1},
		{"no CPU time reported", 0, 2 * time.Second, 1, 0},
		{"no wall time", time.Second, 0, 1, 0},
		{"no threads", time.Second, time.Second, 0, 0},
	} {
		if got := ShareOf(tt.cpu, tt.wall, tt.threads); got != tt.want {
			t.Errorf("%s: ShareOf(%v, %v, %d) = %v, want %v", tt.name, tt.cpu, tt.wall, tt.threads, got, tt.want)
		}
	}
}

// TestStretch checks the one rule of an estimate on a busy machine: idle
// CPU work divided by the share, unchanged when the share is whole or
// unknown, a hundredfold at most.
func TestStretch(t *testing.T) {
	for _, tt := range []struct {
		share float64
		want  time.Duration
	}{
		{1, time.Minute},
		{0, time.Minute},
		{0.25, 4 * time.Minute},
		{0.5, 2 * time.Minute},
		{0.001, 100 * time.Minute},
	} {
		if got := Stretch(time.Minute, tt.share); got != tt.want {
			t.Errorf("Stretch(1m, %v) = %v, want %v", tt.share, got, tt.want)
		}
	}
	if got := ShareText(0.384); got != "38% of a CPU" {
		t.Errorf("ShareText(0.384) = %q", got)
	}
	if got := ShareText(0); got != "" {
		t.Errorf("ShareText(0) = %q, want none", got)
	}
}

// TestMeasureShareStructure checks what MeasureShare returns, not how
// much: a share in [0, 1] (0 if a loaded machine gave the spin no CPU
// time), 0 where the OS reports none.
func TestMeasureShareStructure(t *testing.T) {
	s := MeasureShare(1, 20*time.Millisecond)
	if _, ok := CPUTime(); ok && (s < 0 || s > 1) {
		t.Errorf("MeasureShare = %v, want a share in [0, 1]", s)
	}
	if _, ok := CPUTime(); !ok && s != 0 {
		t.Errorf("MeasureShare = %v without CPU time, want 0", s)
	}
}

// TestShareAt checks the share of k threads derived from a share
// measured with m: on an idle machine each gets a CPU while there are
// CPUs enough; the other work a busy machine's share implies shares the
// CPUs with the k alike; an unknown share stays unknown.
func TestShareAt(t *testing.T) {
	for _, tt := range []struct {
		k, m, cpus  int
		share, want float64
	}{
		{1, 3, 2, 2.0 / 3, 1},
		{2, 3, 2, 2.0 / 3, 1},
		{3, 1, 2, 1, 2.0 / 3},
		{1, 3, 2, 0.2, 0.25},    // 7 threads of other work, and one
		{2, 3, 2, 0.2, 2.0 / 9}, // 7 threads of other work, and two
		{3, 3, 2, 0.2, 0.2},
		{1, 3, 2, 0, 0},
	} {
		if got := ShareAt(tt.k, tt.m, tt.cpus, tt.share); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("ShareAt(%d, %d, %d, %v) = %v, want %v", tt.k, tt.m, tt.cpus, tt.share, got, tt.want)
		}
	}
}
