package runner

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// DecoyBuild is the build of a job's value that FreshDecode prepares its
// case on: one no pool holds (PoolSize is smaller).
const DecoyBuild = 1 << 20

// FreshDecode decodes msgs, encodings of builds of the job's value that
// the runner verified, as a process that never saw the value must: its
// case is prepared on another build (DecoyBuild), nothing is encoded, and
// each decoded value is compared with a reference built apart from the
// codec. An encoding that carries a handle to a value kept in the
// encoding process's memory, not the value, fails here. It is run in a
// process of its own (measure runs it as a worker task); it returns a
// *CheckError saying which message did not decode to its value.
func FreshDecode(job *Job, msgs []results.Message) error {
	builds := job.builds()
	if job.ValueAt == nil {
		return checkErr(results.Error, "the job has no builds to decode against (Job.ValueAt)")
	}
	decoy, err := builds(DecoyBuild)
	if err != nil {
		return checkErr(results.Error, "building the value: %v", err)
	}
	c, err := job.Codec.New().Prepare(decoy)
	if err != nil {
		return checkErr(results.Error, "prepare: %v", err)
	}
	for _, m := range msgs {
		ref, err := builds(m.Build)
		if err != nil {
			return checkErr(results.Error, "building the value: %v", err)
		}
		if reflect.TypeOf(ref) != reflect.TypeOf(decoy) {
			return checkErr(results.Error, "build %d has type %T, the decoy %T", m.Build, ref, decoy)
		}
		if err := decodeFresh(c, m, ref, job.Codec.Losses); err != nil {
			return err
		}
	}
	return nil
}

// decodeFresh decodes one message through c and compares it with ref.
func decodeFresh(c codec.Case, m results.Message, ref any, losses []codec.Loss) error {
	err := codec.Guard(func() error { return c.Decode(m.Data) })
	if pe := (*codec.PanicError)(nil); errors.As(err, &pe) {
		return checkErr(results.Failed, "decoding build %d's encoding panicked: %v", m.Build, pe.Value)
	}
	if err != nil {
		return checkErr(results.Failed, "build %d's encoding (%d bytes) does not decode: %v", m.Build, len(m.Data), err)
	}
	got, err := codec.GuardValue(c.Value)
	if pe := (*codec.PanicError)(nil); errors.As(err, &pe) {
		return checkErr(results.Failed, "the value decoded from build %d's encoding panicked: %v", m.Build, pe.Value)
	}
	if err != nil {
		return checkErr(results.Error, "converting the decoded value: %v", err)
	}
	return compared(verify.Equal(ref, got, losses), "%s", fmt.Sprintf("build %d's encoding (%d bytes)", m.Build, len(m.Data)))
}
