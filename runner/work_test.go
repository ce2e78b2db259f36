package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
)

// copyCase encodes a *blob as its bytes, counting its calls: a codec
// that costs a copy, so that a test of a large message stays cheap.
type copyCase struct {
	v     *blob
	got   *blob
	calls *callCount
}

type callCount struct{ encodes, decodes atomic.Int64 }

func (c *copyCase) Encode() ([]byte, error) {
	c.calls.encodes.Add(1)
	return append([]byte(nil), c.v.B...), nil
}

func (c *copyCase) Decode(b []byte) error {
	c.calls.decodes.Add(1)
	c.got = &blob{B: append([]byte(nil), b...)}
	return nil
}

func (c *copyCase) Value() (any, error) { return c.got, nil }

// TestChecksCounted runs a job of a small and of a large message through
// the runner, counting its builds and its codec's calls, and holds
// Checks, the model an estimate multiplies, to them: its builds are the
// builds made (the timed loop makes none), and it counts no more encodes
// or decodes than were made (the timed loop makes more). A check added
// to the runner without its calls in Checks fails here.
func TestChecksCounted(t *testing.T) {
	for _, size := range []int{100, LargeBytes + 1<<10} {
		var calls callCount
		var builds atomic.Int64
		info := codec.Info{Name: "copy", Family: "test", API: codec.Reflection, New: func() codec.Codec {
			return codec.Func(func(v any) (codec.Case, error) { return &copyCase{v: v.(*blob), calls: &calls}, nil })
		}}
		build := func(k int) (any, error) {
			builds.Add(1)
			b := &blob{B: make([]byte, size)}
			for i := range b.B {
				b.B[i] = byte(k + i)
			}
			return b, nil
		}
		job := Job{Codec: info, Dataset: "blob", Shape: "single", Ops: results.Ops, Value: func() (any, error) { return build(0) }, ValueAt: build}
		r, err := New(Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range r.RunJob(context.Background(), &job) {
			if res.Status != results.OK {
				t.Fatalf("size %d, %s: %s: %s", size, res.Op, res.Status, res.Reason)
			}
		}
		w := Checks(size, len(results.Ops))
		if got := float64(builds.Load()); got != w.Builds {
			t.Errorf("size %d: %v builds made, Checks counts %v", size, got, w.Builds)
		}
		if got := float64(calls.encodes.Load()); got < w.Encodes {
			t.Errorf("size %d: %v encodes made, Checks counts more: %v", size, got, w.Encodes)
		}
		if got := float64(calls.decodes.Load()); got < w.Decodes {
			t.Errorf("size %d: %v decodes made, Checks counts more: %v", size, got, w.Decodes)
		}
	}
}
