package runner

import (
	"slices"
	"sync"
	"time"

	"github.com/serbench/serbench/results"
)

// A meter records how fast the machine runs over a run: the gauge's probe
// (walk), the fastest of three walks, about every probeEvery, between
// samples. The probes cost about 30µs in 10ms. They do not gate anything
// (Options.Gate does that); they let a report say that the machine ran at
// two speeds, which no interval of one run can show.
type meter struct {
	probe func() float64   // one walk's time in ns
	now   func() time.Time // time.Now, or a test's clock

	mu   sync.Mutex
	last time.Time // when the last probe ran
	ns   []float64 // every probe's time
}

// probeEvery is the shortest time between two probes of the meter.
const probeEvery = 10 * time.Millisecond

func newMeter() *meter { return &meter{probe: walk, now: time.Now} }

// tick probes the machine unless it was probed less than probeEvery ago,
// and returns the latest probe's time in ns.
func (m *meter) tick() float64 {
	now := m.now()
	m.mu.Lock()
	due := now.Sub(m.last) >= probeEvery
	if due {
		m.last = now
	}
	latest := 0.0
	if len(m.ns) > 0 {
		latest = m.ns[len(m.ns)-1]
	}
	m.mu.Unlock()
	if !due {
		return latest
	}
	p := fastestOfThree(m.probe)
	m.mu.Lock()
	m.ns = append(m.ns, p)
	m.mu.Unlock()
	return p
}

// summary describes the probes so far.
func (m *meter) summary() results.Machine {
	return MachineOf(m.probes())
}

// probes returns a copy of the probes' times so far.
func (m *meter) probes() []float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.ns)
}

// MachineOf describes probe times: the share more than
// results.BusyTolerance slower than the fast speed (their 5th percentile,
// so that one lucky probe does not set it), and how much slower those ran.
func MachineOf(ns []float64) results.Machine {
	if len(ns) == 0 {
		return results.Machine{}
	}
	sorted := slices.Sorted(slices.Values(ns))
	fast := sorted[int(0.05*float64(len(sorted)-1))]
	var busy []float64
	for _, p := range sorted {
		if results.BusyProbe(p, fast) {
			busy = append(busy, p/fast)
		}
	}
	m := results.Machine{Probes: len(ns), Busy: float64(len(busy)) / float64(len(ns)), FastNs: fast}
	if len(busy) > 0 {
		m.Slowdown = busy[len(busy)/2]
	}
	return m
}
