package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/results"
)

func TestShare(t *testing.T) {
	for _, tt := range []struct{ n, procs int }{{1, 2}, {7, 2}, {8, 4}, {1000, 3}, {5, 8}} {
		sum := 0
		for i := range tt.procs {
			s := share(tt.n, tt.procs, i)
			if lo := tt.n / tt.procs; s < lo || s > lo+1 {
				t.Errorf("share(%d, %d, %d) = %d, want %d or %d", tt.n, tt.procs, i, s, lo, lo+1)
			}
			sum += s
		}
		if sum != tt.n {
			t.Errorf("shares of %d among %d sum to %d", tt.n, tt.procs, sum)
		}
	}
}

// TestParallelLoop checks the loop of several goroutines: each runs its
// share of a batch through its own control, verifies the iteration its
// own control drew, a forced batch verifies on one of them at least, a
// failure or a panic on any goroutine fails the batch, and what the
// verifications allocated reaches the control the sampler reads.
func TestParallelLoop(t *testing.T) {
	const procs = 3
	var ran [procs]atomic.Int64
	var checked [procs]atomic.Int64
	var fail, panics atomic.Int64 // goroutine+1 that fails or panics
	loops := make([]loop, procs)
	parts := make([]*control, procs)
	sinks := make([][]byte, procs) // one per goroutine: a shared one races
	for i := range procs {
		parts[i] = newControl(4, uint64(i), time.Now, func(int, []byte) error {
			checked[i].Add(1)
			// An allocation of the verification's, large enough to be
			// counted as it is made: the runtime counts small objects
			// per span, when a P's cache gives its span back.
			sinks[i] = make([]byte, 64<<10)
			return nil
		})
		loops[i] = func(n int) error {
			ran[i].Add(int64(n))
			if at := parts[i].at; at >= 0 {
				if err := parts[i].check(0, nil); err != nil {
					return err
				}
			}
			switch {
			case fail.Load() == int64(i+1):
				return errors.New("boom")
			case panics.Load() == int64(i+1):
				panic("kaboom")
			}
			return nil
		}
	}
	l, ctl := parallelLoop(loops, parts, time.Now)
	for range 20 {
		ctl.force = true
		ctl.arm(10)
		if err := l(10); err != nil {
			t.Fatal(err)
		}
	}
	total, verified := int64(0), int64(0)
	for i := range procs {
		if got := ran[i].Load(); got != 20*int64(share(10, procs, i)) {
			t.Errorf("goroutine %d ran %d iterations, want its share of 20 batches of 10", i, got)
		}
		total += ran[i].Load()
		verified += checked[i].Load()
	}
	if total != 200 {
		t.Errorf("%d iterations in all, want 200", total)
	}
	if checked[0].Load() != 20 || ctl.verified != 20 {
		t.Errorf("the first goroutine verified %d forced batches and the control counted %d verified; want 20 each", checked[0].Load(), ctl.verified)
	}
	if ctl.allocs[0] < uint64(verified)<<16 {
		t.Errorf("the control holds %d bytes allocated by %d verifications of 64 KiB", ctl.allocs[0], verified)
	}
	fail.Store(2)
	ctl.arm(10)
	if err := l(10); err == nil || err.Error() != "boom" {
		t.Errorf("a goroutine that fails: %v", err)
	}
	fail.Store(0)
	panics.Store(3)
	ctl.arm(10)
	if err := l(10); err == nil || !strings.Contains(err.Error(), "panic on goroutine 3 of 3: kaboom") {
		t.Errorf("a goroutine that panics: %v", err)
	}
}

// TestRunJobOnProcs checks a job run on two goroutines: its results say
// GOMAXPROCS 2 and carry go test's -2 in their names, every goroutine has
// cases of its own (Prepare is called twice as often as for one), and
// the figures are measured and verified as on one.
func TestRunJobOnProcs(t *testing.T) {
	d, _ := dataset.Lookup("tiny")
	var prepared atomic.Int64
	info := codec.Info{Name: "counted", Family: "test", API: codec.Reflection,
		New: func() codec.Codec {
			inner := codec.Reflect(json.Marshal, json.Unmarshal)
			return codec.Func(func(v any) (codec.Case, error) {
				prepared.Add(1)
				return inner.Prepare(v)
			})
		}}
	r, err := New(Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	count := map[int]int64{}
	for _, procs := range []int{1, 2} {
		prepared.Store(0)
		job := Job{Codec: info, Dataset: "tiny", Shape: "single", Ops: results.Ops, Procs: procs,
			Value:   func() (any, error) { return d.Value(dataset.Single) },
			ValueAt: func(k int) (any, error) { return d.ValueAt(dataset.Single, k) }}
		res := r.RunJob(context.Background(), &job)
		for _, got := range res {
			if got.Status != results.OK || got.Procs != procs || len(got.Samples) == 0 {
				t.Fatalf("procs %d, %s: %s %q, procs %d, %d samples", procs, got.Op, got.Status, got.Reason, got.Procs, len(got.Samples))
			}
			if want := results.ProcsSuffix(procs); !strings.HasSuffix(got.Key(), "shape=single"+want) {
				t.Errorf("procs %d: key %s", procs, got.Key())
			}
		}
		count[procs] = prepared.Load()
	}
	// Every goroutine prepares a pool of its own; the checks after timing
	// prepare as many more cases on one goroutine as on two (the heap a
	// decode keeps, the builds the codec never saw).
	if count[2]-count[1] != PoolSize {
		t.Errorf("%d cases prepared on two goroutines, %d on one: want a pool per goroutine", count[2], count[1])
	}
}

// blob is a value whose decoded size is known: one byte slice.
type blob struct{ B []byte }

// TestKeptBytes checks the heap a decoded value keeps: a 256 KiB byte
// slice, whatever the decode allocated and dropped on the way.
func TestKeptBytes(t *testing.T) {
	const size = 256 << 10
	build := func(k int) (any, error) { return &blob{B: bytes.Repeat([]byte{byte(k + 1)}, size)}, nil }
	job := Job{Codec: codec.Info{Name: "json", Family: "json", API: codec.Reflection,
		New: func() codec.Codec { return codec.Reflect(json.Marshal, json.Unmarshal) }},
		Dataset: "blob", Shape: "single", Ops: []results.Op{results.Decode},
		Value: func() (any, error) { return build(0) }, ValueAt: build}
	p, err := Prepare(&job)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := p.keptBytes()
	if err != nil {
		t.Fatal(err)
	}
	if kept < size*0.95 || kept > size*1.05 {
		t.Errorf("a decoded %d-byte slice keeps %.0f bytes", size, kept)
	}
}

func TestLiveHeap(t *testing.T) {
	const size = 1 << 20
	seen := 0
	for n := newLiveHeap(size); n != nil; n = n.next[0] {
		seen++
	}
	if seen != size/liveNodeSize {
		t.Errorf("%d nodes reachable, want %d", seen, size/liveNodeSize)
	}
	if newLiveHeap(0) != nil {
		t.Error("no live heap asked for, one made")
	}
}

func TestGCCost(t *testing.T) {
	res := results.Result{Samples: []results.Sample{{Iters: 1000, GCs: 1, GCCPUNs: 3000}, {Iters: 3000, GCs: 0}}}
	gcCost(&res)
	if res.GCCyclesPerKop != 0.25 || res.GCCPUNsPerKop != 750 {
		t.Errorf("%v cycles and %v ns of collector CPU per 1,000 ops; want 0.25 and 750", res.GCCyclesPerKop, res.GCCPUNsPerKop)
	}
}

func TestCPUList(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []int
	}{{"0", []int{0}}, {"0-3,6", []int{0, 1, 2, 3, 6}}, {"1,3", []int{1, 3}}, {"x", nil}, {"3-1", nil}} {
		if got := machine.CPUList(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("machine.CPUList(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestOnProcs(t *testing.T) {
	jobs := []Job{{Dataset: "a"}, {Dataset: "b"}}
	got := OnProcs(jobs, []int{1, 2})
	var names []string
	for _, j := range got {
		names = append(names, fmt.Sprintf("%s-%d", j.Dataset, j.Procs))
	}
	if want := []string{"a-1", "a-2", "b-1", "b-2"}; !slices.Equal(names, want) {
		t.Errorf("OnProcs = %v, want %v", names, want)
	}
	if ps := ProcsOf(got); !slices.Equal(ps, []int{1, 2}) {
		t.Errorf("ProcsOf = %v", ps)
	}
	if len(OnProcs(jobs, nil)) != 2 || ProcsOf(jobs) != nil {
		t.Error("no -cpu list changed the jobs")
	}
}

// TestSpinSpeedup checks the ceiling's structure only: a ratio, positive
// and finite. A machine's speed is no test's to assert: on a loaded
// machine the one-goroutine step may be descheduled for most of its 5ms,
// and the ratio runs far above 2.
func TestSpinSpeedup(t *testing.T) {
	if s := SpinSpeedup(2, 5*time.Millisecond); !(s > 0) || math.IsInf(s, 0) {
		t.Errorf("SpinSpeedup(2) = %v: want a positive, finite ratio", s)
	}
}
