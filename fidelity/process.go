package fidelity

import (
	"context"
	"time"

	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// DefaultTimeout is the default time a probe may take: a megabyte through
// the slowest text codec on a loaded machine takes seconds, not tens.
const DefaultTimeout = 30 * time.Second

// Spec returns the fidelity study as a value (package study): every probe
// through every codec that makes round trips of its own, one child per
// codec running the probes left of it, so that a codec that crashes its
// process (a stack overflow on a cycle) or hangs costs the cell it was in
// and nothing else: the cell is Crashed and the codec's other probes run
// in a new child. The child's stack cap (worker.DefaultLimits) makes a
// codec recursing down a cycle fail in well under a second instead of
// growing a gigabyte.
func Spec() *study.Study {
	cases := make([]study.Case, len(Probes))
	for i, p := range Probes {
		cases[i] = study.Case{Name: p.Name, Group: p.Group, Doc: p.Doc}
	}
	return &study.Study{
		Matrix:   Study,
		Cases:    cases,
		CaseList: "probes",
		Timeout:  DefaultTimeout,
		Step:     "one probe",
		PerCodec: true,
		Cell:     cell,
		Record:   record,
	}
}

// cell is the child's side: one probe through the codec.
func cell(_ context.Context, t study.Task, _ func(string)) (any, error) {
	PinZone()
	ps, err := Lookup([]string{t.Case})
	if err != nil {
		return nil, err
	}
	return Check(t.Codec, ps[0]), nil
}

// record reads a probe's cell from the child's answer; a child that died
// in the probe, or could not run it, makes it Crashed.
func record(c *study.Cell, r worker.TaskResult) bool {
	why := study.Died(r)
	if why == "" {
		if err := study.Decode(r, &c.Result); err != nil {
			why = err.Error()
		}
	}
	if why != "" {
		c.Result = Cell{Outcome: Crashed, Detail: why}
	}
	return false
}

// PinZone sets the process's local zone to UTC. Codecs that decode times
// into time.Local then give the same cells on every machine, and a time
// read back in the local zone shows as the UTC normalisation whatever the
// machine's TZ. The study's child calls it; so must any other process
// that checks probes in itself (a generator, a test binary).
func PinZone() { time.Local = time.UTC }
