package runner

import (
	"math"
	"strconv"
	"sync/atomic"
	"time"
)

// A gauge tells whether the machine is running at full speed right now.
//
// On a shared machine (a cloud VM) the host's other tenants take part of
// the core in phases of tens to hundreds of milliseconds, during which
// everything runs 1.5 to 2 times slower. A sample taken in such a phase
// measures the neighbour as much as the codec, and the phases come and go
// during a run, so two runs differ by how many of their samples fell in
// them. The gauge times a fixed probe (formatting and parsing integers:
// arithmetic and branches on data in the L1 cache, so that what the last
// sample left in the caches does not matter) and compares it with the
// fastest probe seen: the machine is quiet when the probe runs within a
// tolerance of that. On a machine of its own the probe's time barely
// moves and every sample is taken; on this project's 2-core VM the probe
// is either within 10% of its best or 50% and more slower, and the
// samples taken after a slow probe are several times likelier to be slow.
type gauge struct {
	tol  float64
	best atomic.Uint64 // math.Float64bits of the fastest probe, ns
}

// gaugeSteps is the probe's length: about 10µs on a current x86 core.
const gaugeSteps = 512

func newGauge(tol float64) *gauge {
	g := &gauge{tol: tol}
	g.best.Store(math.Float64bits(math.Inf(1)))
	return g
}

// gaugeSink keeps the probe's result alive.
var gaugeSink atomic.Uint64

// walk runs the probe once and returns its time in ns.
func (g *gauge) walk() float64 {
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

// quiet probes the machine (the fastest of three walks) and reports
// whether it runs within the tolerance of its fastest probe so far.
func (g *gauge) quiet() bool {
	p := min(g.walk(), g.walk(), g.walk())
	for {
		old := g.best.Load()
		if p >= math.Float64frombits(old) || g.best.CompareAndSwap(old, math.Float64bits(p)) {
			break
		}
	}
	return p <= math.Float64frombits(g.best.Load())*(1+g.tol)
}

// warm probes the machine for d to learn its fastest probe.
func (g *gauge) warm(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		g.quiet()
	}
}
