package runner

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"github.com/serbench/serbench/results"
)

// gcCPU reads the CPU time the collector has spent so far, in ns: the
// runtime's estimate (/cpu/classes/gc/total:cpu-seconds), which it brings
// up to date as cycles end.
func gcCPU() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return s[0].Value.Float64() * 1e9
}

// gcCost sets the result's collection cycles and collector CPU time per
// 1,000 operations, over all its samples: a cycle ends in few samples,
// so a median of them would read zero.
func gcCost(res *results.Result) {
	var cycles, cpu float64
	iters := 0
	for _, s := range res.Samples {
		cycles += float64(s.GCs)
		cpu += s.GCCPUNs
		iters += s.Iters
	}
	if iters == 0 {
		return
	}
	res.GCCyclesPerKop = 1000 * cycles / float64(iters)
	res.GCCPUNsPerKop = 1000 * cpu / float64(iters)
}

// forcesGC reports whether calibration collects before its batches: not
// with NoGC, nor with a LiveHeap, whose every collection marks it all.
func (r *Runner) forcesGC() bool { return !r.opts.NoGC && r.opts.LiveHeap <= 0 }

// A liveNode is one object of a live heap (Options.LiveHeap): 64 bytes,
// three of them pointers, as a service's decoded and cached values are,
// so that the collector has pointers to follow, not one block to skip.
type liveNode struct {
	next [3]*liveNode
	data [5]uint64
}

// liveNodeSize is the size of a liveNode.
const liveNodeSize = 64

// liveSlab is how many liveNodes are allocated together, as one object
// of 1 KiB: a service's heap of small objects, built in a few hundred
// thousand allocations rather than millions, so that a worker process
// (one per group of benchmarks) builds it in a fraction of a second.
const liveSlab = 16

// newLiveHeap allocates about size bytes of liveNodes in slabs, each node
// linked to the one before it and to a node drawn at random, and returns
// the last: the whole heap is reachable from it and lives as long as it
// does. The collector is off while the heap grows (each cycle would mark
// all of it built so far), and one collection marks it once built, so
// that the first samples do not meet that cycle and the next heap goal
// is twice the live heap, as in a service's steady state.
func newLiveHeap(size int64) *liveNode {
	n := int(size / (liveNodeSize * liveSlab))
	if n <= 0 {
		return nil
	}
	defer runtime.GC() // deferred calls run last first: after the collector is on again
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	sample := make([]*liveNode, 0, 1<<12) // nodes to link across to
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	var last *liveNode
	for i := range n {
		slab := new([liveSlab]liveNode)
		for k := range slab {
			nd := &slab[k]
			nd.data[0] = uint64(i*liveSlab + k)
			nd.next[0] = last
			if len(sample) > 0 {
				nd.next[1] = sample[rng.IntN(len(sample))]
			}
			last = nd
		}
		if len(sample) < cap(sample) {
			sample = append(sample, last)
		} else {
			sample[rng.IntN(len(sample))] = last
		}
	}
	return last
}

// keptValues is how many decoded values keptBytes holds at most, within
// keptBytesCap of their messages' size: enough small values that what
// they keep stands well above what else changes between two collections
// (a sync.Pool emptied, a buffer grown).
const (
	keptValues   = 4096
	keptBytesCap = 8 << 20
)

// keptBytes measures what a decoded value keeps reachable once the
// collector has run, in bytes: on a case of its own (prepared on build
// 0), it decodes the pool's messages, holding every value Value returns,
// and takes the live heap after a collection once half of them are held
// and once all are; the difference over the values added is one value's
// size. Taking the difference of two held sets leaves out what the case
// keeps whatever it decodes (its buffers, the last value it holds).
func (p *Prepared) keptBytes() (float64, error) {
	if p.build == nil {
		return 0, nil
	}
	v, err := p.build(0)
	if err != nil {
		return 0, err
	}
	c, err := p.info.New().Prepare(v)
	if err != nil {
		return 0, err
	}
	k := max(2, min(keptValues, keptBytesCap/max(len(p.Msgs[0]), 1)))
	held := make([]any, k)
	decode := func(i int) error {
		if err := c.Decode(p.Msgs[i%len(p.Msgs)]); err != nil {
			return err
		}
		held[i], err = c.Value()
		return err
	}
	if err := decode(0); err != nil { // the case's buffers, before either measure
		return 0, err
	}
	held[0] = nil
	// What the decodes left in pools (sync.Pool) goes in the next two
	// collections: this one and the first measure's, not the second's.
	liveHeap()
	half := k / 2
	for i := range half {
		if err := decode(i); err != nil {
			return 0, err
		}
	}
	l1 := liveHeap()
	for i := half; i < k; i++ {
		if err := decode(i); err != nil {
			return 0, err
		}
	}
	l2 := liveHeap()
	// The pool, the case and the values are reachable at both measures.
	runtime.KeepAlive(held)
	runtime.KeepAlive(c)
	runtime.KeepAlive(p)
	if l2 <= l1 {
		return 0, nil
	}
	return float64(l2-l1) / float64(k-half), nil
}

// liveHeap collects and returns the heap in use after the collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
