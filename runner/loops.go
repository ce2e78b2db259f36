package runner

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"time"

	"github.com/serbench/serbench/codec"
)

// A loop runs the operation under test n times.
type loop func(n int) error

// A control is what a bench's timed loop shares with the sampler: the
// order of the pool's builds for the current sample, drawn anew for each,
// and the one iteration of the current batch to verify (at, or -1), drawn
// at random, so that no call can tell the timed iterations from the
// checked ones. The loop hands that iteration's result to check on the
// spot, off the clock (the time it takes is paused and taken out of the
// batch's); what need not happen there waits for the sample's end
// (later, settle).
type control struct {
	order  []int
	at     int
	paused time.Duration
	// allocs counts what the verifications allocated (bytes, objects), to
	// take out of the sample's B/op and allocs/op.
	allocs [2]uint64
	rng    *rand.Rand
	now    func() time.Time
	// verify checks iteration at's result: build k's encoding enc, or
	// (enc nil) the case's last decoded value, of message k.
	verify func(k int, enc []byte) error
	// each, for a self-timed loop, verifies every batch's last result.
	each bool
	// force makes the next batch verify one of its iterations; verified
	// counts the batches of the current sample that did.
	force    bool
	verified int
	// uncounted, when the loop is counted (count.go), pauses the count
	// around a check, so that the check's instructions are not the op's.
	uncounted func(func() error) error
	// parts, for a loop on several goroutines (parallelLoop), are the
	// goroutines' own controls: each verifies its own iterations, and
	// this one draws and counts for all of them.
	parts []*control
	// later holds verifications left for the sample's end (settle): an
	// encoding's, on a copy taken on the spot (copyEnc), and a stream's
	// (op_stream.go). Their work is then no part of the timed steps a
	// parent measuring the worker's time charges to the sample (package
	// worker): verifying an encoding decodes it, at several times the
	// encode's cost. holding says a sampler settles them (timeSampleOf);
	// otherwise each batch does (timeCtl).
	later   []func() error
	copyEnc bool
	holding bool
	// mark, while a sample's batches run, announces a step on the
	// runner's Beat: a verification on the spot that is long (the last
	// one took markCheck or more) is announced as step stepVerify and
	// the batches resume as stepTimed, so that the parent measuring the
	// worker's time (package worker) does not charge it to the sample.
	// What must be verified on the spot can be long: a converting
	// codec's Value of a large value.
	mark func(step string)
	long bool
}

// markCheck: a verification on the spot that took this long or longer has
// the next one announced (control.mark); a shorter one stays in the
// timed step, where two beats for each would cost the parent more than
// they tell it.
const markCheck = 250 * time.Microsecond

// newControl returns the control of a loop over a pool of size builds.
func newControl(size int, seed uint64, now func() time.Time, verify func(int, []byte) error) *control {
	c := &control{order: seq(size), at: -1, rng: rand.New(rand.NewPCG(seed, uint64(size))), now: now, verify: verify}
	c.shuffle()
	return c
}

// shuffle draws a new order of the builds, for the next sample.
func (c *control) shuffle() {
	for _, p := range c.parts {
		p.shuffle()
	}
	if c.rng == nil {
		return
	}
	c.rng.Shuffle(len(c.order), func(i, j int) { c.order[i], c.order[j] = c.order[j], c.order[i] })
}

// checkEvery: one batch in checkEvery, drawn at random, verifies one of
// its iterations; a sample none of whose batches did takes one batch more
// that does.
const checkEvery = 4

// arm draws, for a batch of n iterations, whether it verifies one and
// which; it resets the paused time.
func (c *control) arm(n int) {
	c.paused = 0
	c.at = -1
	if c.parts != nil {
		c.armParts(n)
		return
	}
	switch {
	case c.each:
		c.at = n - 1
	case c.force || c.rng.IntN(checkEvery) == 0:
		c.at = c.rng.IntN(n)
	}
	if c.at >= 0 {
		c.verified++
	}
	c.force = false
}

// check verifies iteration at's result off the clock.
func (c *control) check(k int, enc []byte) error {
	if c.uncounted != nil {
		return c.uncounted(func() error { return c.checkTimed(k, enc) })
	}
	return c.checkTimed(k, enc)
}

// checkTimed is check with the clock paused.
func (c *control) checkTimed(k int, enc []byte) error {
	a0 := heapAllocs()
	t0 := c.now()
	marked := c.mark != nil && c.long
	if marked {
		c.mark(stepVerify)
	}
	v0 := c.now()
	var err error
	if c.copyEnc && enc != nil {
		enc := bytes.Clone(enc) // the next Encode may reuse enc
		c.later = append(c.later, func() error { return c.verify(k, enc) })
	} else {
		err = c.verify(k, enc)
	}
	c.long = c.now().Sub(v0) >= markCheck
	if marked {
		c.mark(stepTimed)
	}
	c.paused += c.now().Sub(t0)
	a1 := heapAllocs()
	c.allocs[0] += a1[0] - a0[0]
	c.allocs[1] += a1[1] - a0[1]
	if err != nil {
		return &checkFailure{err}
	}
	return nil
}

// settle runs the verifications left for later (control.later), each
// off the count as check's are, and returns the first that fails as a
// checkFailure. The goroutines' own controls (parts) settle theirs.
func (c *control) settle() error {
	for _, p := range c.parts {
		if err := p.settle(); err != nil {
			return err
		}
	}
	later := c.later
	c.later = nil
	for _, f := range later {
		var err error
		if c.uncounted != nil {
			err = c.uncounted(f)
		} else {
			err = f()
		}
		if err != nil {
			return &checkFailure{err}
		}
	}
	return nil
}

// heapAllocs reads the bytes and objects allocated so far, without
// stopping the world (runtime.ReadMemStats does).
func heapAllocs() [2]uint64 {
	s := [2]metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/allocs:objects"}}
	metrics.Read(s[:])
	var out [2]uint64
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			out[i] = s[i].Value.Uint64()
		}
	}
	return out
}

// A checkFailure is a timed iteration's result that failed verification:
// the bench is rejected with the check's reason, not errored.
type checkFailure struct{ err error }

func (e *checkFailure) Error() string { return "a timed iteration: " + e.err.Error() }
func (e *checkFailure) Unwrap() error { return e.err }

// plainLoop is a loop of n Encode calls on one case: the loop overhead's
// and the copy bound's, with no pool.
func plainLoop(c interface{ Encode() ([]byte, error) }) loop {
	return func(n int) error {
		var b []byte
		for range n {
			var err error
			if b, err = c.Encode(); err != nil {
				return err
			}
		}
		runtime.KeepAlive(b)
		return nil
	}
}

// encodeLoop is the timed encode loop: n calls of Encode on the pool's
// cases, in the control's order.
func encodeLoop(cases []codec.Case, ctl *control) loop {
	return func(n int) error {
		order, at := ctl.order, ctl.at
		j := 0
		for i := range n {
			k := order[j]
			b, err := cases[k].Encode()
			if err != nil {
				return err
			}
			if i == at {
				if err := ctl.check(k, b); err != nil {
					return err
				}
			}
			if j++; j == len(order) {
				j = 0
			}
		}
		return nil
	}
}

// decodeLoop is the timed decode loop: n calls of Decode through the
// first case on the pool's messages, in the control's order; with
// lazy (codec.Info.TimesValue), each followed by Value.
func decodeLoop(c codec.Case, msgs [][]byte, lazy bool, ctl *control) loop {
	return func(n int) error {
		order, at := ctl.order, ctl.at
		j := 0
		for i := range n {
			k := order[j]
			if err := c.Decode(msgs[k]); err != nil {
				return err
			}
			if lazy {
				if _, err := c.Value(); err != nil {
					return err
				}
			}
			if i == at {
				if err := ctl.check(k, nil); err != nil {
					return err
				}
			}
			if j++; j == len(order) {
				j = 0
			}
		}
		return nil
	}
}

// selfEncodeLoop is the timed encode loop of a case that runs it itself
// (codec.Looper): each batch encodes one build of the pool, drawn at
// random, and its last encoding is verified.
func selfEncodeLoop(loopers []codec.Looper, ctl *control) loop {
	return func(n int) error {
		k := ctl.order[ctl.rng.IntN(len(ctl.order))]
		b, err := loopers[k].EncodeLoop(n)
		if err != nil {
			return err
		}
		return ctl.check(k, b)
	}
}

// selfDecodeLoop is the timed decode loop of a case that runs it itself:
// n decodes of the pool's messages in the control's order, and the last
// decoded value verified.
func selfDecodeLoop(c codec.Looper, msgs [][]byte, ctl *control) loop {
	return func(n int) error {
		if err := c.DecodeLoop(n, msgs, ctl.order); err != nil {
			return err
		}
		return ctl.check(ctl.order[(n-1)%len(ctl.order)], nil)
	}
}

// loopers returns the pool's cases as codec.Loopers, or an error naming
// the codec that declares itself self-timed without being one.
func loopers(p *Prepared) ([]codec.Looper, error) {
	out := make([]codec.Looper, len(p.Cases))
	for k, c := range p.Cases {
		l, ok := c.(codec.Looper)
		if !ok {
			return nil, fmt.Errorf("codec %s declares SelfTimed but its case %T is not a codec.Looper", p.info.Name, c)
		}
		out[k] = l
	}
	return out, nil
}
