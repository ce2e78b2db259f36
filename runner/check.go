package runner

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// A Prepared is a job's codec case, verified and ready to time: the case
// of the job's value, the encodings of that value and of a second,
// distinct one (Job.Alt), and the references they must decode to, built
// apart from the values handed to the codec.
//
// The decode benchmark alternates the two messages, so that a decoder
// that returns its input, a cached value or its last result fails
// verification instead of winning.
type Prepared struct {
	Case codec.Case
	// Msgs holds private copies of the encodings of the job's value and
	// of its alternate; Msgs[1] is Msgs[0] when the job has no Alt.
	Msgs [2][]byte

	alt    codec.Case // the alternate value's case, for round-trip checks
	alive  func()     // says a long check still moves (Runner.alive)
	refs   [2]any
	losses []codec.Loss
}

// A CheckError says why a job cannot be measured or why its figures
// cannot be believed: Status is Skipped, Failed or Error.
type CheckError struct {
	Status results.Status
	Reason string
}

func (e *CheckError) Error() string { return fmt.Sprintf("%s: %s", e.Status, e.Reason) }

func checkErr(st results.Status, format string, args ...any) *CheckError {
	return &CheckError{Status: st, Reason: fmt.Sprintf(format, args...)}
}

// compared turns a verification error into a CheckError: Failed for a
// mismatch, Error otherwise.
func compared(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	st := results.Error
	var mm *verify.MismatchError
	if errors.As(err, &mm) {
		st = results.Failed
	}
	return checkErr(st, "%s: %v", fmt.Sprintf(format, args...), err)
}

// Prepare prepares the job's codec case and verifies it as the runner does
// before timing: the job's value and its alternate are each encoded and
// decoded through the first case, in the order value, alternate, value,
// and each decode is compared with its own reference; encoding again must
// give a message of the same size. It returns a *CheckError saying why a
// job cannot be measured. It lets other harnesses (testing.B) time
// exactly what the runner times.
func Prepare(job *Job) (*Prepared, error) { return prepare(job, func() {}) }

// prepare does the work of Prepare, calling alive between its steps.
func prepare(job *Job, alive func()) (*Prepared, error) {
	build := func(f func() (any, error)) (any, any, error) {
		v, err := f()
		if err != nil {
			return nil, nil, checkErr(results.Error, "building the value: %v", err)
		}
		ref, err := f()
		if err != nil {
			return nil, nil, checkErr(results.Error, "building the value: %v", err)
		}
		return v, ref, nil
	}
	v, ref, err := build(job.Value)
	if err != nil {
		return nil, err
	}
	typ := reflect.TypeOf(v)
	if err := job.Codec.Supports(typ.String(), codec.FeaturesOf(typ)); err != nil {
		return nil, checkErr(results.Skipped, "%v", err)
	}
	p := &Prepared{losses: job.Codec.Losses, alive: alive}
	p.refs[0], p.refs[1] = ref, ref
	cd := job.Codec.New()
	if p.Case, err = cd.Prepare(v); err != nil {
		if codec.IsUnsupported(err) {
			return nil, checkErr(results.Skipped, "%v", err)
		}
		return nil, checkErr(results.Error, "prepare: %v", err)
	}
	p.alt = p.Case
	if job.Alt != nil {
		v2, ref2, err := build(job.Alt)
		if err != nil {
			return nil, err
		}
		if reflect.DeepEqual(ref, ref2) || reflect.TypeOf(v2) != typ {
			return nil, checkErr(results.Error, "the job's alternate value must differ from its value and have its type %s", typ)
		}
		p.refs[1] = ref2
		if p.alt, err = cd.Prepare(v2); err != nil {
			return nil, checkErr(results.Error, "prepare of the alternate value: %v", err)
		}
	}
	for k, c := range []codec.Case{p.Case, p.alt} {
		alive()
		enc, err := c.Encode()
		if err != nil {
			return nil, checkErr(results.Error, "encode: %v", err)
		}
		p.Msgs[k] = slices.Clone(enc)
	}
	for _, k := range []int{0, 1, 0} {
		alive()
		if err := p.decodeCheck(k); err != nil {
			return nil, err
		}
	}
	alive()
	if err := p.checkEncoding(p.Case, 0); err != nil {
		return nil, err
	}
	return p, nil
}

// Ref returns the reference that message k decodes to, for callers that
// compare further (conformance's loss check).
func (p *Prepared) Ref(k int) any { return p.refs[k] }

// decodeCheck decodes message k through the case and compares the result
// with its reference.
func (p *Prepared) decodeCheck(k int) error {
	if err := p.Case.Decode(p.Msgs[k]); err != nil {
		return checkErr(results.Failed, "decode of its own encoding: %v", err)
	}
	return p.checkDecoded(k)
}

// checkDecoded compares the case's last decoded value with the reference
// of message k.
func (p *Prepared) checkDecoded(k int) error {
	got, err := p.Case.Value()
	if err != nil {
		return checkErr(results.Error, "converting the decoded value: %v", err)
	}
	return compared(verify.Equal(p.refs[k], got, p.losses), "message %d of 2", k+1)
}

// checkEncoding encodes once more through c (the case of message k) and
// checks the encoding is the size first measured and decodes to the
// reference.
func (p *Prepared) checkEncoding(c codec.Case, k int) error {
	enc, err := c.Encode()
	if err != nil {
		return checkErr(results.Error, "encode: %v", err)
	}
	return p.checkBytes(enc, k)
}

// checkBytes checks that enc, an encoding of message k, has the size
// first measured (within sizeSlack) and decodes to the reference.
func (p *Prepared) checkBytes(enc []byte, k int) error {
	if d := len(enc) - len(p.Msgs[k]); d > len(p.Msgs[k])/sizeSlack || -d > len(p.Msgs[k])/sizeSlack {
		return checkErr(results.Failed, "an encoding of %d bytes where the first was %d: the size reported is not the size timed", len(enc), len(p.Msgs[k]))
	}
	if err := p.Case.Decode(slices.Clone(enc)); err != nil {
		return checkErr(results.Failed, "decode of a later encoding: %v", err)
	}
	return p.checkDecoded(k)
}

// CheckEncoding checks enc, an encoding of the job's value made through
// Case after Prepare (the last one a timed loop made), as the runner
// checks it after timing: it has the size first measured and decodes to
// the reference.
func (p *Prepared) CheckEncoding(enc []byte) error { return p.checkBytes(enc, 0) }

// CheckDecoded checks the value Case decoded last, from Msgs[k], against
// its reference, as the runner checks a decode loop's last result after
// timing.
func (p *Prepared) CheckDecoded(k int) error { return p.checkDecoded(k) }

// RoundTrips makes up to n round trips, alternating the job's value and
// its alternate (encode through the value's own case, decode through the
// first case), and verifies each: what one check before timing cannot
// see, a codec that goes wrong on its second message or one in a
// thousand. It stops early at the deadline (zero: none) and returns how
// many it made.
func (p *Prepared) RoundTrips(n int, deadline time.Time) (int, error) {
	for i := range n {
		if !deadline.IsZero() && i > 0 && time.Now().After(deadline) {
			return i, nil
		}
		if p.alive != nil {
			p.alive()
		}
		k := i & 1
		c := p.Case
		if k == 1 {
			c = p.alt
		}
		if err := p.checkEncoding(c, k); err != nil {
			var ce *CheckError
			if errors.As(err, &ce) {
				ce.Reason = fmt.Sprintf("round trip %d: %s", i+1, ce.Reason)
			}
			return i, err
		}
	}
	return n, nil
}

// sizeSlack: a later encoding may differ from the first by 1/sizeSlack of
// its size. A codec that writes a map in its iteration order (gob, with
// interface values) varies by a few bytes from one encoding to the next;
// one whose encoding grows with every call soon leaves that range.
const sizeSlack = 100

// checkRoundTrips is how many round trips are made after a job is timed:
// enough to catch a codec that goes wrong once in a thousand calls. Those
// of a message up to SmallMessage bytes are all made, whatever the
// machine's speed; a larger message's stop at 1/checkShare of the budget.
const (
	checkRoundTrips = 1000
	checkShare      = 20
	SmallMessage    = 4 << 10
)

// encodeLoop is the timed encode loop: n calls; the last encoding is kept
// for the check after timing.
func encodeLoop(c interface{ Encode() ([]byte, error) }, last *[]byte) loop {
	return func(n int) error {
		var b []byte
		for range n {
			var err error
			if b, err = c.Encode(); err != nil {
				return err
			}
		}
		*last = b
		return nil
	}
}

// decodeLoop is the timed decode loop: n decodes alternating the two
// messages; *last is the index of the last one decoded.
func decodeLoop(c codec.Case, msgs [2][]byte, last *int) loop {
	return func(n int) error {
		for i := range n {
			if err := c.Decode(msgs[i&1]); err != nil {
				return err
			}
		}
		*last = (n - 1) & 1
		return nil
	}
}

// selfEncodeLoop is the timed encode loop of a case that runs it itself
// (codec.Looper): the last encoding is kept for the check after timing.
func selfEncodeLoop(c codec.Looper, last *[]byte) loop {
	return func(n int) error {
		b, err := c.EncodeLoop(n)
		if err != nil {
			return err
		}
		*last = b
		return nil
	}
}

// selfDecodeLoop is the timed decode loop of a case that runs it itself:
// n decodes alternating the two messages, as decodeLoop's.
func selfDecodeLoop(c codec.Looper, msgs [2][]byte, last *int) loop {
	return func(n int) error {
		if err := c.DecodeLoop(n, msgs); err != nil {
			return err
		}
		*last = (n - 1) & 1
		return nil
	}
}

// Floors are what a benchmark's figure is held against
// (results.MarkImplausible), timed beside it, as the codec's operation is:
// through the runner's loop and the Case interface, or, for a self-timed
// case (direct), by loops that call nothing indirectly.
type floors struct {
	copyNs     float64 // copying the encoding's size bytes
	copyBaseNs float64 // copying one byte: a copy's fixed cost
	loopNs     float64 // the loop around a case that does nothing; 0 when direct
}

// floorRounds is how many rounds floorTimes takes: each times a batch of
// every loop, and each loop keeps its fastest batch.
const floorRounds = 7

// floorTimes measures the floors of an encoding of size bytes, in ns per
// iteration. The loops are timed in turn, round after round, in batches of
// about 200µs, and each keeps its fastest batch: a busy phase of a shared
// machine then raises none of them alone, so that a difference of two
// (the bytes' share of the copy) is not one loop's bad luck.
func (r *Runner) floorTimes(size int, direct bool) floors {
	copyOf := func(size int) loop {
		src := make([]byte, size)
		var dst []byte
		if direct {
			return func(n int) error {
				for range n {
					dst = append(dst[:0], src...)
				}
				return nil
			}
		}
		c := copier(func() ([]byte, error) { dst = append(dst[:0], src...); return dst, nil })
		var last []byte
		return encodeLoop(c, &last)
	}
	loops := []loop{copyOf(size), copyOf(1)}
	if !direct {
		var last []byte
		loops = append(loops, encodeLoop(nop{}, &last))
	}
	best := append(r.fastestOf(loops), 0)
	return floors{copyNs: best[0], copyBaseNs: best[1], loopNs: best[2]}
}

// fastestOf times loops in turn, round after round, in batches of about
// 200µs (calibrated on the first), and returns each one's fastest batch,
// in ns per iteration.
func (r *Runner) fastestOf(loops []loop) []float64 {
	n := 1
	for n < 1<<24 {
		d, err := r.timeBatch(loops[0], n)
		if err != nil || d >= 200*time.Microsecond {
			break
		}
		n *= 4
	}
	best := make([]float64, len(loops))
	for range floorRounds {
		for i, l := range loops {
			d, _ := r.timeBatch(l, n)
			ns := float64(d.Nanoseconds()) / float64(n)
			if best[i] == 0 || ns < best[i] {
				best[i] = ns
			}
		}
	}
	return best
}

type copier func() ([]byte, error)

func (f copier) Encode() ([]byte, error) { return f() }
