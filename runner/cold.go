package runner

import (
	"slices"
	"time"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// A Cold is what the first calls of an op on a value's type cost in a
// process that has not made one before (reflection caches built, code
// generated at run time, lazily made tables): the first call and the one
// after it, on build 0 of the job's value.
type Cold struct {
	// First is the first call with the Prepare before it: a codec's
	// Prepare may warm every cache the first call would build, so its
	// work counts in the first call's. Next is the call after.
	First, Next time.Duration
	// Prepare is the part of First that Prepare took.
	Prepare time.Duration
	// Msg is the first encoding (for an encode), which a decode's own
	// fresh process then decodes.
	Msg []byte
}

// ColdCall makes the job's first two calls of op, in a process that is
// to have made none before (measure runs it as a worker task in a child
// of its own), and times each, the first with Prepare on build 0 before it
// (Cold.First): Encode, or Decode
// of msg (an encoding of build 0 made in another process; with Value for
// a lazy codec). Every result is checked after both are timed: an
// encoding must decode to build 0 and a decoded value must equal it. It
// returns a *CheckError when a result is wrong.
func ColdCall(job *Job, op results.Op, msg []byte) (Cold, error) {
	builds := job.builds()
	v, err := builds(0)
	if err != nil {
		return Cold{}, checkErr(results.Error, "building the value: %v", err)
	}
	ref, err := builds(0)
	if err != nil {
		return Cold{}, checkErr(results.Error, "building the value: %v", err)
	}
	t0 := time.Now()
	c, err := job.Codec.New().Prepare(v)
	prep := time.Since(t0)
	if err != nil {
		return Cold{}, checkErr(results.Error, "prepare: %v", err)
	}
	out := Cold{Prepare: prep}
	switch op {
	case results.Encode:
		var encs [2][]byte
		for i := range encs {
			t0 := time.Now()
			enc, err := c.Encode()
			d := time.Since(t0)
			if err != nil {
				return Cold{}, checkErr(results.Error, "encode: %v", err)
			}
			encs[i] = slices.Clone(enc)
			out.First, out.Next = cmpSet(i, d, out.First, out.Next)
		}
		out.First += prep
		for _, enc := range encs {
			if err := c.Decode(enc); err != nil {
				return Cold{}, checkErr(results.Failed, "decode of its first encodings: %v", err)
			}
			if err := coldCompare(job, c.Value, ref); err != nil {
				return Cold{}, err
			}
		}
		out.Msg = encs[0]
	case results.Decode:
		if len(msg) == 0 {
			return Cold{}, checkErr(results.Error, "no encoding to decode")
		}
		for i := range 2 {
			in := slices.Clone(msg)
			t0 := time.Now()
			err := c.Decode(in)
			if err == nil && job.Codec.TimesValue() {
				_, err = c.Value()
			}
			d := time.Since(t0)
			if err != nil {
				return Cold{}, checkErr(results.Failed, "decode of build 0's encoding: %v", err)
			}
			out.First, out.Next = cmpSet(i, d, out.First, out.Next)
			if err := coldCompare(job, c.Value, ref); err != nil {
				return Cold{}, err
			}
		}
		out.First += prep
	default:
		return Cold{}, checkErr(results.Skipped, "no cold call of op %q: only encode and decode have one", op)
	}
	return out, nil
}

// cmpSet sets the first (i == 0) or the next of two durations to d.
func cmpSet(i int, d, first, next time.Duration) (time.Duration, time.Duration) {
	if i == 0 {
		return d, next
	}
	return first, d
}

// coldCompare compares the value a case decoded last with ref.
func coldCompare(job *Job, value func() (any, error), ref any) error {
	got, err := value()
	if err != nil {
		return checkErr(results.Error, "converting the decoded value: %v", err)
	}
	return compared(verify.Equal(ref, got, job.Codec.Losses), "build 0")
}
