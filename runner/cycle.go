package runner

import (
	"runtime/metrics"
	"time"
)

// A cycleWatch tells a sample where the garbage collector's cycles end,
// so that a sample of an allocating operation can end on one.
//
// A sample starts right after a collection (the runtime.GC before it). If
// it stopped when SampleTime had passed, it would hold the first
// floor(allocated / heap growth) cycles and none of the next one's cost:
// an operation that allocates a cycle's worth every 8ms would pay for no
// collection in a 5ms sample, and its median would leave the collector's
// cost out (20 to 30% of one-shot gob's and YAML's time on this project's
// build machine, against testing.B's one-second runs). Ending the sample
// at the first cycle to complete after SampleTime makes it a whole number
// of cycles, each with its cost, as a long-running program pays them. An
// operation that would need more than maxStretch × SampleTime to reach
// the next collection ends at SampleTime: its collections are rare, and
// their cost per op small.
//
// It reads runtime/metrics, which does not stop the world.
type cycleWatch struct {
	cycles []metrics.Sample // read after every batch
	all    []metrics.Sample // read to decide whether to stretch
	start  uint64           // bytes allocated when the sample started
	last   uint64           // cycles completed before the last batch
}

// maxStretch bounds how far past SampleTime a sample runs to end on a
// collection.
const maxStretch = 10

const (
	mCycles = iota
	mAllocs
	mGoal
	mHeap
)

func newCycleWatch() *cycleWatch {
	return &cycleWatch{
		cycles: []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}},
		all: []metrics.Sample{
			mCycles: {Name: "/gc/cycles/total:gc-cycles"},
			mAllocs: {Name: "/gc/heap/allocs:bytes"},
			mGoal:   {Name: "/gc/heap/goal:bytes"},
			mHeap:   {Name: "/memory/classes/heap/objects:bytes"},
		},
	}
}

func value(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0 // a metric this Go does not have: the sample never stretches
	}
	return s.Value.Uint64()
}

// begin marks the start of a sample.
func (w *cycleWatch) begin() {
	metrics.Read(w.all)
	w.last, w.start = value(w.all[mCycles]), value(w.all[mAllocs])
}

// batch is called after each batch before SampleTime has passed; it
// notes the cycles completed so far.
func (w *cycleWatch) batch() {
	metrics.Read(w.cycles)
	w.last = value(w.cycles[0])
}

// stretch is called after each batch once SampleTime has passed, with the
// timed work so far; it reports whether the sample goes on to reach the
// end of a collection cycle: not if one ended in the last batch, nor if
// the operation allocates too slowly to reach the next within
// maxStretch × sampleTime of timed work.
func (w *cycleWatch) stretch(elapsed, sampleTime time.Duration) bool {
	metrics.Read(w.all)
	cycles, allocs, goal, heap := value(w.all[mCycles]), value(w.all[mAllocs]), value(w.all[mGoal]), value(w.all[mHeap])
	ended := cycles > w.last
	w.last = cycles
	if ended || elapsed >= maxStretch*sampleTime || allocs <= w.start || goal == 0 {
		return false
	}
	rate := float64(allocs-w.start) / float64(elapsed) // bytes per ns of work
	left := 0.0
	if goal > heap {
		left = float64(goal - heap)
	}
	return elapsed+time.Duration(left/rate) < maxStretch*sampleTime
}
