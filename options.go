package serbench

import (
	"fmt"
	"reflect"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/need"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// An Option tunes Benchmark and Run.
type Option func(*config)

// config is what the options ask for.
type config struct {
	codecs  []string // nil: every codec that can hold the value
	ops     []results.Op
	losses  []codec.Loss
	alt     any // WithAlt's value, if set
	hasAlt  bool
	noAlt   bool         // NoAlt: no second value
	added   []codec.Info // WithCodec and Schema, by name over the registry's
	name    string
	options runner.Options
	err     error // the first option's mistake
	// needs and needFrom are Needs' needs and the matrices that judge
	// them; judged is how the candidates stood, set by jobs.
	needs    []need.Want
	needFrom []*results.Matrix
	judged   *results.Needs
}

// Codecs limits the benchmark to the codecs named, in this order: the
// registry's names (see serbench list codecs) and those of WithCodec and
// Schema. An unknown name is an error that lists the known ones.
func Codecs(names ...string) Option { return func(c *config) { c.codecs = append(c.codecs, names...) } }

// Needs leaves out the codecs that fail any of the needs named
// ("untrusted,evolve=add+rename"; serbench list needs), judged from the
// study matrices given (report.ReadMatrices reads those of a directory
// serbench wrote) and the codecs' declared facts. A need whose study is
// not among the matrices is unknown for a codec, which is then left out
// too. Run records every judgement in results.Run.Needs.
func Needs(list string, matrices ...*results.Matrix) Option {
	return func(c *config) {
		ws, err := need.Parse(list)
		if err != nil {
			c.fail(fmt.Errorf("serbench: Needs: %w", err))
			return
		}
		c.needs, c.needFrom = ws, matrices
	}
}

// Ops limits the benchmark to these operations (results.Encode,
// results.Decode, or "encode", "decode"); by default both.
func Ops(ops ...results.Op) Option { return func(c *config) { c.ops = append(c.ops, ops...) } }

// Losses accepts what a round trip may change, for every codec. By
// default a codec must return the value exactly: one that changes it in
// a way it declares (codec.Info.Losses: cbor drops a time's sub-seconds
// and zone, msgpack its zone) is skipped with the losses named, and is
// measured only once they are accepted here. codec.InterfaceTypes, for
// instance, lets a number held in an interface come back as another
// numeric type of the same value. A round trip that changes the value
// beyond what the codec declares fails, accepted or not.
func Losses(losses ...codec.Loss) Option {
	return func(c *config) { c.losses = append(c.losses, losses...) }
}

// TimePrecision declares that the value's times need only compare at d:
// Losses(codec.Loss{Kind: codec.TimePrecision, Precision: d}).
func TimePrecision(d time.Duration) Option {
	return Losses(codec.Loss{Kind: codec.TimePrecision, Precision: d})
}

// FloatPrecision declares that the value's floats need only agree to
// digits significant digits (codec.FloatPrecision says how they compare):
// Losses(codec.Loss{Kind: codec.FloatPrecision, Digits: digits}). A codec
// that rounds floats to no fewer digits is then measured.
func FloatPrecision(digits int) Option {
	return Losses(codec.Loss{Kind: codec.FloatPrecision, Digits: digits})
}

// WithAlt gives the second value the decode benchmark alternates with v:
// of v's type, distinct from v and of about its size. By default it is a
// copy of v with every scalar changed (each number plus one, one letter of
// each string moved on, each time an hour later, maps' keys kept); give
// one when such a copy is not a valid value of the type (a checksum, an
// enumeration that a custom marshaller checks). A value with nothing to
// change (no scalar in it) has no second message: its decode benchmark
// decodes the one message, and a decoder that caches its last result
// cannot be caught.
func WithAlt(v2 any) Option { return func(c *config) { c.alt, c.hasAlt, c.noAlt = v2, true, false } }

// NoAlt has the decode benchmark decode v's one message, with no second
// value: for a value of which only v itself may be measured (a document
// the user gave, whose varied copy would hold values the user never
// wrote). A decoder that caches its last result cannot be caught then.
func NoAlt() Option { return func(c *config) { c.alt, c.hasAlt, c.noAlt = nil, false, true } }

// WithCodec adds a codec to the benchmark, or replaces the registered
// codec of its name: a codec.Info whose New returns a codec.Codec that
// prepares the value (converting it to a generated type, outside the
// timer) and converts decoded values back. See Schema for the
// schema-compiled libraries serbench knows.
func WithCodec(info codec.Info) Option {
	return func(c *config) {
		if err := info.Validate(); err != nil {
			c.fail(fmt.Errorf("serbench: WithCodec: %w", err))
			return
		}
		c.added = append(c.added, info)
	}
}

// Name labels the value in Run's record and files: the dataset name of its
// results (dataset=NAME in results.bench). By default it is the name of
// v's type in lower case ("order" for an Order), "value" for an unnamed
// type.
func Name(name string) Option { return func(c *config) { c.name = name } }

// Measure sets Run's measuring options (runner.Options: the zero value
// means the defaults, a budget of 1s per benchmark). Benchmark ignores
// them: go test's flags (-benchtime, -count) decide there.
func Measure(o runner.Options) Option { return func(c *config) { c.options = o } }

// fail records an option's mistake; the first one is reported.
func (c *config) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// newConfig applies opts.
func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	return c
}

// label returns the dataset label of a value of type t (a pointer's
// element type).
func (c *config) label(t reflect.Type) (string, error) {
	if c.name != "" {
		if err := checkLabel(c.name); err != nil {
			return "", err
		}
		return c.name, nil
	}
	for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	name := labelOf(t.Name())
	if name == "" {
		return "value", nil
	}
	return name, nil
}
