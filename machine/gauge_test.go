package machine

import (
	"testing"
	"time"
)

// scripted returns a probe that plays back ns, then repeats its last value.
func scripted(ns ...float64) func() float64 {
	i := 0
	return func() float64 {
		v := ns[min(i, len(ns)-1)]
		i++
		return v
	}
}

func TestGaugeQuiet(t *testing.T) {
	tests := []struct {
		name   string
		probes []float64 // three per call of quiet
		want   []bool
	}{
		{"a steady machine is quiet", []float64{100, 100, 100, 105, 103, 119}, []bool{true, true}},
		{"a slow phase is busy", []float64{100, 100, 100, 160, 150, 170}, []bool{true, false}},
		{"the fastest of three walks counts", []float64{100, 100, 100, 300, 110, 300}, []bool{true, true}},
		{"a faster probe becomes the reference", []float64{100, 100, 100, 50, 50, 50, 100, 100, 100}, []bool{true, true, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGauge(0.2)
			g.Probe = scripted(tc.probes...)
			for i, want := range tc.want {
				if got := g.Quiet(); got != want {
					t.Errorf("call %d: quiet() = %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestGaugeReferenceCreepsUp checks that a machine that slows down for
// good becomes the new reference within seconds.
func TestGaugeReferenceCreepsUp(t *testing.T) {
	g := NewGauge(0.2)
	t0 := time.Now()
	clock := t0
	g.Now = func() time.Time { return clock }
	g.Probe = scripted(100, 100, 100, 130, 130, 130, 130, 130, 130, 125, 125, 125)
	g.Quiet()
	if g.Quiet() {
		t.Error("30% slower at once: quiet() = true, want false")
	}
	clock = t0.Add(20 * time.Second) // a slowdown for good: the reference is 140 by now
	if !g.Quiet() {
		t.Error("30% slower for 20s: quiet() = false, want true")
	}
	if g.best != 130 {
		t.Errorf("reference %v after the machine slowed down for good, want 130", g.best)
	}
	if !g.Quiet() {
		t.Error("125 after a reference of 130: quiet() = false, want true")
	}
}

// TestGaugeProbeRuns checks the real probe: it takes time and the machine
// it runs on counts as quiet right after its fastest probe is learned.
func TestGaugeProbeRuns(t *testing.T) {
	if d := Walk(); d <= 0 {
		t.Fatalf("Walk() = %v ns, want > 0", d)
	}
	g := NewGauge(10) // generous: only that the reference is learned
	g.Warm(10 * time.Millisecond)
	if !g.Quiet() {
		t.Error("quiet() = false within 10x of the fastest probe")
	}
}
