package serbench

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/clone"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/need"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/runner/tbloop"
)

// Benchmark benchmarks v, a value or a pointer to one, with every
// registered codec that can hold its type: a sub-benchmark per codec and
// operation, named codec=NAME/op=encode and codec=NAME/op=decode, so that
// the output of go test -bench . -count 10 goes to benchstat as it is.
//
// Each codec's round trip is verified before anything is timed, as
// serbench run verifies it (runner.Prepare): the codec encodes and decodes
// a deep copy of v and a second, distinct value (WithAlt), and each
// decoded value must equal another copy exactly, modulo only the losses
// accepted with Losses. A codec that cannot hold the type is skipped with
// the reason (b.Skip); so is one that changes the value in a way it
// declares (a time's zone, its sub-seconds), with the losses named and the
// Losses call that accepts them; one whose round trip changes the value
// otherwise fails with the difference (b.Error) and times nothing. An
// in-place reader (codec.Info.ReadsOnly: gjson over encoding/json's
// encodings) takes part in neither encode nor decode and is skipped, as
// serbench run leaves it out. Every skip is printed, with -v or without.
// The encode
// benchmark times the codec's Encode of v; the decode benchmark its Decode
// of the two encodings in turn. After timing, the last encoding and the
// last decoded value are checked again, then up to 1,000 round trips of
// both values (a tenth of a second at most). Each benchmark reports its
// allocations and the encoded size of v as B/msg.
//
// Mistakes in the options (an unknown codec name) end the benchmark with
// b.Fatal.
func Benchmark(b *testing.B, v any, opts ...Option) {
	b.Helper()
	jobs, err := newConfig(opts).jobs(v)
	if err != nil {
		b.Fatal(err)
	}
	for _, job := range jobs {
		b.Run("codec="+job.Codec.Name, func(b *testing.B) { benchJob(b, &job) })
	}
}

// benchJob runs the sub-benchmarks of one codec: those of the job's ops
// it takes part in (runner.OpsOf: an in-place reader takes part in
// neither encode nor decode).
func benchJob(b *testing.B, job *runner.Job) {
	if job.Skip != "" {
		skip(b, job.Skip)
	}
	ops := runner.OpsOf(job.Codec, job.Ops)
	if len(ops) == 0 && len(job.Ops) > 0 {
		skip(b, runner.LeftOut(job.Codec, job.Ops[0]))
	}
	p, err := runner.Prepare(job)
	if err != nil {
		var ce *runner.CheckError
		if errors.As(err, &ce) && ce.Status == results.Skipped {
			skip(b, ce.Reason)
		}
		b.Error(err)
		return
	}
	for _, op := range ops {
		b.Run("op="+string(op), func(b *testing.B) { tbloop.Op(b, p, op) })
	}
	if _, err := p.RoundTrips(1000, time.Now().Add(100*time.Millisecond)); err != nil {
		b.Errorf("after timing: %v", err)
	}
}

// skip skips b with reason. go test prints a skip only under -v; a codec
// left out (one that cannot hold the user's type, loses part of the
// value, or takes no part in the ops) is said in every run, in go test's
// own form, which benchstat passes over.
func skip(b *testing.B, reason string) {
	b.Helper()
	if !testing.Verbose() {
		fmt.Printf("--- SKIP: %s\n    %s\n", b.Name(), reason)
	}
	b.Skip(reason)
}

// Run measures v, a value or a pointer to one, with every registered
// codec that can hold its type, in this process, as serbench run measures
// its datasets (adaptive sampling to a confidence interval, verification
// before and after timing), and returns the run's record: the results in
// codec order, skipped and failed codecs with their reasons, warnings.
// Verification is Benchmark's: a codec must return v exactly, modulo the
// losses accepted with Losses; one that loses part of it as it declares
// is skipped with the losses named. The record's codecs carry the losses
// accepted, under which their round trips were compared, without the
// fidelity probe that shows each, which serbench run adds: this package
// does not link the fidelity study. report.WriteFiles writes the record's
// files (results.json, results.bench, results.csv, report.html,
// summary.md); report/table prints its table.
//
// When ctx is cancelled Run returns ctx's error with the record of what
// was measured before.
func Run(ctx context.Context, v any, opts ...Option) (*results.Run, error) {
	c := newConfig(opts)
	jobs, err := c.jobs(v)
	if err != nil {
		return nil, err
	}
	cfg := measure.Config{Options: c.options}
	if err := cfg.Options.Validate(); err != nil {
		return nil, fmt.Errorf("serbench: Measure: %w", err)
	}
	run := measure.NewRun(cfg, jobs)
	run.Needs = c.judged
	return run, measure.Run(ctx, run, jobs, cfg)
}

// Jobs returns the jobs Run measures for v: one per codec, in order, for
// measure.Run or a harness of your own (runner.Prepare). It round-trips v
// through each codec once, to apply the rule of Losses: a job whose codec
// loses part of v is returned with Skip set to the losses it shows.
func Jobs(v any, opts ...Option) ([]runner.Job, error) { return newConfig(opts).jobs(v) }

// jobs returns the runner jobs of v under the options: one per codec.
func (c *config) jobs(v any) ([]runner.Job, error) {
	if c.err != nil {
		return nil, c.err
	}
	base, err := pointerTo(v, "v")
	if err != nil {
		return nil, err
	}
	typ := reflect.TypeOf(base)
	label, err := c.label(typ.Elem())
	if err != nil {
		return nil, err
	}
	job := runner.Job{Dataset: label, Shape: "single", Items: 1, Ops: results.Ops}
	if e := reflect.ValueOf(base).Elem(); e.Kind() == reflect.Slice {
		job.Shape, job.Items = "slice", e.Len()
		if typ.Elem().Elem().Kind() == reflect.Pointer {
			job.Shape = "ptrslice"
		}
	}
	if len(c.ops) > 0 {
		job.Ops = nil
		for _, op := range c.ops {
			if !slices.Contains(results.Ops, op) {
				return nil, fmt.Errorf("serbench: unknown op %q; known: encode, decode", op)
			}
			job.Ops = append(job.Ops, op)
		}
	}
	job.Value = func() (any, error) { return clone.Deep(base), nil }
	alt, err := c.alternate(base)
	if err != nil {
		return nil, err
	}
	if alt != nil {
		job.Alt = func() (any, error) { return clone.Deep(alt), nil }
	}
	infos, err := c.codecList()
	if err != nil {
		return nil, err
	}
	jobs := make([]runner.Job, len(infos))
	for i, info := range infos {
		jobs[i] = job
		jobs[i].Codec = info
		exact(&jobs[i], info.Losses, c.losses)
	}
	return jobs, nil
}

// pointerTo returns v if it is a non-nil pointer, else a pointer to a copy
// of v: codecs are handed pointers.
func pointerTo(v any, what string) (any, error) {
	rv := reflect.ValueOf(v)
	switch {
	case !rv.IsValid():
		return nil, fmt.Errorf("serbench: %s is nil: give a value or a pointer to one", what)
	case rv.Kind() == reflect.Pointer && rv.IsNil():
		return nil, fmt.Errorf("serbench: %s is a nil %T: give a value or a pointer to one", what, v)
	case rv.Kind() == reflect.Pointer:
		return v, nil
	}
	p := reflect.New(rv.Type())
	p.Elem().Set(rv)
	return p.Interface(), nil
}

// alternate returns the second value of the decode benchmark: WithAlt's,
// or a varied copy of base; nil when base has nothing to vary.
func (c *config) alternate(base any) (any, error) {
	if c.noAlt {
		return nil, nil
	}
	if !c.hasAlt {
		alt := clone.Varied(base)
		if reflect.DeepEqual(alt, base) {
			return nil, nil
		}
		return alt, nil
	}
	alt, err := pointerTo(c.alt, "WithAlt's value")
	if err != nil {
		return nil, err
	}
	if reflect.TypeOf(alt) != reflect.TypeOf(base) {
		return nil, fmt.Errorf("serbench: WithAlt's value is a %T, the benchmarked value a %T: give a value of the same type", alt, base)
	}
	if reflect.DeepEqual(alt, base) {
		return nil, fmt.Errorf("serbench: WithAlt's value equals the benchmarked value: give a distinct one")
	}
	return alt, nil
}

// codecList returns the codecs asked for, the options' over the
// registry's, each with its own declared losses, and checks that the
// options' losses are valid.
func (c *config) codecList() ([]codec.Info, error) {
	all := slices.Clone(registry.Codecs)
	for _, a := range c.added {
		if i := slices.IndexFunc(all, func(x codec.Info) bool { return x.Name == a.Name }); i >= 0 {
			all[i] = a
		} else {
			all = append(all, a)
		}
	}
	list := all
	if len(c.codecs) > 0 {
		list = nil
		for _, name := range c.codecs {
			i := slices.IndexFunc(all, func(x codec.Info) bool { return x.Name == name })
			if i < 0 {
				names := make([]string, len(all))
				for k, x := range all {
					names[k] = x.Name
				}
				return nil, fmt.Errorf("serbench: unknown codec %q; known: %s", name, strings.Join(names, ", "))
			}
			list = append(list, all[i])
		}
	}
	for _, info := range list {
		info.Losses = append(slices.Clone(info.Losses), c.losses...)
		if err := info.Validate(); err != nil {
			return nil, fmt.Errorf("serbench: Losses: %w", err)
		}
	}
	return c.meeting(list), nil
}

// labelOf turns a type's name into a dataset label: lower case, letters,
// digits, '-', '_' and '.' only.
func labelOf(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.':
			return unicode.ToLower(r)
		}
		return -1
	}, name)
}

// checkLabel reports whether name can label a dataset in benchmark names.
func checkLabel(name string) error {
	if strings.ContainsAny(name, " \t\n/=,") {
		return fmt.Errorf("serbench: Name %q must have no spaces, '/', '=' or ','", name)
	}
	return nil
}

// meeting returns the codecs of list that meet every need of Needs,
// recording how each stood; list itself without Needs.
func (c *config) meeting(list []codec.Info) []codec.Info {
	if len(c.needs) == 0 {
		return list
	}
	facts := make([]need.Facts, len(list))
	for i, info := range list {
		facts[i] = need.Probe(info).With(need.FactsOf(info))
	}
	c.judged = need.Judge(c.needs, facts, c.needFrom)
	return slices.DeleteFunc(list, func(info codec.Info) bool { return !c.judged.Meets(info.Name) })
}
