package machine

import (
	"slices"
	"sync"
	"time"

	"github.com/serbench/serbench/results"
)

// A meter records how fast the machine runs over a run: the gauge's probe
// (walk), the fastest of three walks, about every ProbeEvery, between
// samples. The probes cost about 30µs in 10ms. They do not gate anything
// (Options.Gate does that); they let a report say that the machine ran at
// two speeds, which no interval of one run can show.
type Meter struct {
	Probe func() float64   // one walk's time in ns
	Now   func() time.Time // time.Now, or a test's clock

	mu   sync.Mutex
	last time.Time // when the last probe ran
	ns   []float64 // every probe's time
}

// ProbeEvery is the shortest time between two probes of the meter.
const ProbeEvery = 10 * time.Millisecond

func NewMeter() *Meter { return &Meter{Probe: Walk, Now: time.Now} }

// tick probes the machine unless it was probed less than ProbeEvery ago,
// and returns the latest probe's time in ns.
func (m *Meter) Tick() float64 {
	now := m.Now()
	m.mu.Lock()
	due := now.Sub(m.last) >= ProbeEvery
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
	p := fastestOfThree(m.Probe)
	m.mu.Lock()
	m.ns = append(m.ns, p)
	m.mu.Unlock()
	return p
}

// summary describes the probes so far.
func (m *Meter) Summary() results.Machine {
	return Of(m.Probes())
}

// probes returns a copy of the probes' times so far.
func (m *Meter) Probes() []float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.ns)
}

// Of describes probe times: the share more than
// results.BusyTolerance slower than the fast speed (their 5th percentile,
// so that one lucky probe does not set it), and how much slower those ran.
func Of(ns []float64) results.Machine {
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
