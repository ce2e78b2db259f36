package machine

import (
	"math"
	"testing"
	"time"

	"github.com/serbench/serbench/results"
)

func TestMachineOf(t *testing.T) {
	repeat := func(v float64, n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	tests := []struct {
		name string
		ns   []float64
		want results.Machine
	}{
		{"no probes", nil, results.Machine{}},
		{"a steady machine is never busy", []float64{100, 103, 98, 110, 101, 117}, results.Machine{Probes: 6, FastNs: 98}},
		{"two speeds: the slow phase's share and slowdown",
			append(repeat(100, 60), repeat(170, 40)...), results.Machine{Probes: 100, Busy: 0.4, Slowdown: 1.7, FastNs: 100}},
		{"one lucky probe does not set the fast speed",
			append([]float64{40}, repeat(100, 99)...), results.Machine{Probes: 100, FastNs: 100}},
		{"busy most of the time: the fast speed is still the fast phase's",
			append(repeat(100, 10), repeat(150, 90)...), results.Machine{Probes: 100, Busy: 0.9, Slowdown: 1.5, FastNs: 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Of(tc.ns)
			if got.Probes != tc.want.Probes || math.Abs(got.Busy-tc.want.Busy) > 1e-9 || math.Abs(got.Slowdown-tc.want.Slowdown) > 1e-9 || got.FastNs != tc.want.FastNs {
				t.Errorf("machineOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestMeterTicks checks that the meter probes at most every ProbeEvery and
// keeps the fastest of three walks.
func TestMeterTicks(t *testing.T) {
	m := NewMeter()
	clock := time.Unix(1e9, 0)
	m.Now = func() time.Time { return clock }
	m.Probe = scripted(300, 100, 200, 170, 180, 175)
	for i, want := range []float64{100, 100, 170} {
		if got := m.Tick(); got != want {
			t.Errorf("tick %d = %v, want the latest probe, %v", i, got, want)
		}
		clock = clock.Add(ProbeEvery / 2) // the second tick is too soon to probe
		if i == 1 {
			clock = clock.Add(ProbeEvery)
		}
	}
	if want := []float64{100, 170}; len(m.ns) != 2 || m.ns[0] != want[0] || m.ns[1] != want[1] {
		t.Fatalf("probes = %v, want %v", m.ns, want)
	}
	if got := m.Summary(); got.Probes != 2 || got.Busy != 0.5 || got.Slowdown != 1.7 {
		t.Errorf("summary = %+v, want 2 probes, busy 0.5, slowdown 1.7", got)
	}
}
