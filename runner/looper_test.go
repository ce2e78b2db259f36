package runner_test

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// loopCase is an int64 case that runs its own timed loops (codec.Looper)
// and counts them. DecodeLoop's last decode yields a wrong value when
// wrong(n) says so: the check of every call's last result must catch it,
// whatever the iteration count.
type loopCase struct {
	v, out int64
	buf    [8]byte
	loops  *int
	wrong  func(n int) bool
}

func (c *loopCase) Encode() ([]byte, error) {
	binary.LittleEndian.PutUint64(c.buf[:], uint64(c.v))
	return c.buf[:], nil
}

func (c *loopCase) Decode(data []byte) error {
	if len(data) != 8 {
		return errors.New("want 8 bytes")
	}
	c.out = int64(binary.LittleEndian.Uint64(data))
	return nil
}

func (c *loopCase) Value() (any, error) { v := c.out; return &v, nil }

func (c *loopCase) EncodeLoop(n int) ([]byte, error) {
	*c.loops++
	for range n {
		binary.LittleEndian.PutUint64(c.buf[:], uint64(c.v))
	}
	return c.buf[:], nil
}

func (c *loopCase) DecodeLoop(n int, msgs [][]byte, order []int) error {
	*c.loops++
	for i := range n {
		c.out = int64(binary.LittleEndian.Uint64(msgs[order[i%len(order)]]))
	}
	if c.wrong(n) {
		c.out++
	}
	return nil
}

func looperInfo(name string, loops *int, wrong func(int) bool) codec.Info {
	return codec.Info{Name: name, Family: "test", API: codec.Manual, SelfTimed: true,
		New: func() codec.Codec {
			return codec.Func(func(v any) (codec.Case, error) {
				return &loopCase{v: *v.(*int64), loops: loops, wrong: wrong}, nil
			})
		}}
}

// TestLooper checks that the runner times a codec.Looper through its own
// loops, marks its results self-timed, and still verifies after timing.
func TestLooper(t *testing.T) {
	r, err := runner.New(runner.Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := dataset.Lookup("int64")
	for _, tt := range []struct {
		name   string
		wrong  func(n int) bool
		decode results.Status
	}{
		{"honest", func(int) bool { return false }, results.OK},
		{"wrong last decode", func(int) bool { return true }, results.Failed},
		{"wrong at one iteration only", func(n int) bool { return n == 1 }, results.Failed},
		{"wrong past the first call", func(n int) bool { return n > 1 }, results.Failed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var loops int
			job := runner.Job{Codec: looperInfo("looper", &loops, tt.wrong), Dataset: d.Name, Shape: "single", Ops: results.Ops,
				Value: func() (any, error) { return d.Value(dataset.Single) },
				Alt:   func() (any, error) { return d.ValueAt(dataset.Single, 1) }}
			res := r.RunJob(context.Background(), &job)
			if len(res) != 2 {
				t.Fatalf("got %d results, want 2", len(res))
			}
			if loops == 0 {
				t.Error("the runner never called the case's own loops")
			}
			for _, got := range res {
				want := results.OK
				if got.Op == results.Decode {
					want = tt.decode
				}
				if got.Status != want {
					t.Errorf("%s: status %s (%s), want %s", got.Op, got.Status, got.Reason, want)
				}
				if want == results.Failed && !strings.Contains(got.Reason, "a timed iteration") {
					t.Errorf("%s: reason %q does not say a timed iteration failed its check", got.Op, got.Reason)
				}
				if got.Status == results.OK && (!got.SelfTimed || got.CopyNs <= 0 || len(got.Samples) == 0) {
					t.Errorf("%s: self_timed %v, copy %v ns, %d samples; want self-timed with a copy time and samples", got.Op, got.SelfTimed, got.CopyNs, len(got.Samples))
				}
			}
		})
	}
}
