package machine

import (
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// A gauge tells whether the machine is running at full speed right now.
//
// On a shared machine (a cloud VM) the host's other tenants take part of
// the core in phases of tens to hundreds of milliseconds, during which
// everything runs markedly slower. A sample taken in such a phase
// measures the neighbour as much as the codec, and the phases come and go
// during a run, so two runs differ by how many of their samples fell in
// them. The gauge times a fixed probe (formatting and parsing integers:
// arithmetic and branches on data in the L1 cache, so that what the last
// sample left in the caches does not matter) and compares it with the
// fastest probe seen: the machine is quiet when the probe runs within a
// tolerance of that. The reference creeps up by 2% a second since it was
// last set, so that a machine that slows down for good (a laptop's
// throttled CPU) becomes the new reference within seconds instead of
// counting as busy for the rest of the run, while a busy phase of a few
// hundred milliseconds moves it by less than 1%. On a machine of its own
// the probe's time barely moves and every sample is taken; on a shared
// VM the probe runs either near its best or far slower, and a sample
// taken after a slow probe is likelier to be slow (notes/noise-log.md).
type Gauge struct {
	tol   float64
	Probe func() float64   // one probe's time in ns; Walk, or a test's
	Now   func() time.Time // time.Now, or a test's clock

	mu     sync.Mutex
	best   float64   // the reference probe time, ns
	bestAt time.Time // when best was set
}

// gaugeDrift is how fast the reference creeps up, per second.
const gaugeDrift = 0.02

// gaugeSteps is the probe's length: about 10µs on a current x86 core.
const gaugeSteps = 512

func NewGauge(tol float64) *Gauge {
	return &Gauge{tol: tol, Probe: Walk, Now: time.Now, best: math.Inf(1)}
}

// gaugeSink keeps the probe's result alive.
var gaugeSink atomic.Uint64

// Walk runs the probe once and returns its time in ns.
func Walk() float64 {
	start := time.Now()
	var buf [24]byte
	acc := uint64(0)
	for i := range gaugeSteps {
		b := strconv.AppendInt(buf[:0], int64(i)*0x9e3779b97f4a7c1>>3, 10)
		v, _ := strconv.ParseInt(string(b), 10, 64)
		acc += uint64(v)
	}
	d := time.Since(start)
	gaugeSink.Store(acc)
	return float64(d.Nanoseconds())
}

// fastestOfThree runs probe three times and returns its fastest time, so
// that one interrupt does not count as a busy machine.
func fastestOfThree(probe func() float64) float64 {
	return min(probe(), probe(), probe())
}

// quiet probes the machine (the fastest of three walks) and reports
// whether it runs within the tolerance of the reference.
func (g *Gauge) Quiet() bool {
	p := fastestOfThree(g.Probe)
	now := g.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	ref := g.best * (1 + gaugeDrift*now.Sub(g.bestAt).Seconds())
	if p <= ref {
		g.best, g.bestAt, ref = p, now, p
	}
	return p <= ref*(1+g.tol)
}

// warm probes the machine for d (on the gauge's clock) to learn its
// fastest probe.
func (g *Gauge) Warm(d time.Duration) {
	for end := g.Now().Add(d); g.Now().Before(end); {
		g.Quiet()
	}
}
