package runner

import (
	"context"
	"time"

	"github.com/serbench/serbench/codec"
)

// nop is a case that does nothing, to measure the harness's own cost.
type nop struct{}

func (nop) Encode() ([]byte, error) { return nil, nil }
func (nop) Decode([]byte) error     { return nil }
func (nop) Value() (any, error)     { return nil, nil }

// LoopOverhead measures one iteration of the timed encode loop around a
// pool of cases that do nothing, in ns: the floor under every figure. It
// is the fastest of a few short batches (as the floors timed beside each
// benchmark are), so that a busy phase of a shared machine at the start of
// a run does not raise it; 0 if ctx is done.
func (r *Runner) LoopOverhead(ctx context.Context) float64 {
	if ctx.Err() != nil {
		return 0
	}
	return r.fastestOf([]loop{nopLoop(r.now)})[0]
}

// nopLoop is the timed encode loop over a pool of cases that do nothing.
func nopLoop(now func() time.Time) loop {
	cases := make([]codec.Case, PoolSize)
	for k := range cases {
		cases[k] = nop{}
	}
	ctl := newControl(PoolSize, 1, now, func(int, []byte) error { return nil })
	return encodeLoop(cases, ctl)
}
