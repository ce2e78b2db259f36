package fidelity

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/verify"
)

// An Outcome is what became of one probe through one codec.
type Outcome string

// The outcomes, from best to worst.
const (
	Exact         Outcome = "exact"          // equal as verify.Compare sees it, without a loss
	Normalised    Outcome = "normalised"     // equal after the normalisation named in Cell.Norm
	Changed       Outcome = "changed"        // decoded, but different: Cell.Detail holds the diff
	RefusedEncode Outcome = "refused-encode" // the codec refused to encode it: Cell.Detail holds the error
	RefusedDecode Outcome = "refused-decode" // the codec encoded it and refused to decode it
	Unsupported   Outcome = "unsupported"    // declared: by the codec's Info, its Prepare, or a missing optional interface
	Crashed       Outcome = "crashed"        // the codec panicked, crashed its process or hung
	// CheckFailed: comparing the decoded value failed (verify.CheckError),
	// which says nothing about the codec: Cell.Detail holds why.
	CheckFailed Outcome = "check-failed"
)

// Outcomes lists the outcomes in order.
var Outcomes = []Outcome{Exact, Normalised, Changed, RefusedEncode, RefusedDecode, Unsupported, Crashed, CheckFailed}

// Symbol is the outcome's one-character mark in the text matrix.
func (o Outcome) Symbol() string {
	switch o {
	case Exact:
		return "="
	case Normalised:
		return "≈"
	case Changed:
		return "≠"
	case RefusedEncode:
		return "E"
	case RefusedDecode:
		return "D"
	case Unsupported:
		return "·"
	case Crashed:
		return "!"
	case CheckFailed:
		return "?"
	}
	return "?"
}

// Describe says what the outcome means in a few words.
func (o Outcome) Describe() string {
	switch o {
	case Exact:
		return "exact"
	case Normalised:
		return "equal after a normalisation"
	case Changed:
		return "changed"
	case RefusedEncode:
		return "refused at encode"
	case RefusedDecode:
		return "refused at decode"
	case Unsupported:
		return "unsupported (declared)"
	case Crashed:
		return "crashed or hung"
	case CheckFailed:
		return "the check itself failed"
	}
	return string(o)
}

// A Cell is one probe through one codec.
type Cell struct {
	Codec   string  `json:"codec"`
	Probe   string  `json:"probe"`
	Outcome Outcome `json:"outcome"`
	// Norm names the normalisation of a Normalised cell: "UTC", "1s",
	// "nil≡empty", several joined by ",".
	Norm string `json:"normalisation,omitempty"`
	// Detail is the diff (-want +got) of a Changed cell, the error of a
	// refused or crashed one, the reason of an Unsupported one.
	Detail string `json:"detail,omitempty"`
	// Tried is, for a cell Unsupported by the codec's Info, what running
	// the probe anyway gives: the evidence Derive checks the declaration
	// against.
	Tried *Cell `json:"tried,omitempty"`
}

// Text is the cell in words: "exact", "≈ UTC,1ms", "refused at encode: ...".
func (c Cell) Text() string {
	switch {
	case c.Outcome == Normalised:
		return "≈ " + c.Norm
	case c.Outcome == Unsupported:
		return "unsupported: " + c.Detail
	case c.Detail != "":
		return c.Outcome.Describe() + ": " + c.Detail
	}
	return c.Outcome.Describe()
}

// Evidence returns what the probe showed about the codec: the cell, or
// what running it anyway gave when its Info declares it unsupported.
func (c Cell) Evidence() Cell {
	if c.Tried != nil {
		return *c.Tried
	}
	return c
}

// Check runs probe p through the codec info describes, in this process,
// and returns its cell. A probe whose type has a feature the codec's Info
// declares unsupported is still run, for the cell's Tried.
func Check(info codec.Info, p Probe) Cell {
	cell := run(info, p)
	if p.Kind != Forward {
		types := []any{p.Value()}
		if p.As != nil {
			types = append(types, p.As())
		}
		for _, v := range types {
			if err := info.Supports(fmt.Sprintf("%T", v), codec.FeaturesOf(reflect.TypeOf(v))); err != nil {
				tried := cell
				cell = Cell{Outcome: Unsupported, Detail: "declared: " + err.(*codec.UnsupportedError).Reason, Tried: &tried}
				break
			}
		}
	}
	cell.Codec, cell.Probe = info.Name, p.Name
	return cell
}

// Forwarded is what a Forward probe reads back.
type Forwarded struct {
	A string
	B int64
}

// run runs p through the codec, recovering a panic into a Crashed cell.
func run(info codec.Info, p Probe) (cell Cell) {
	defer func() {
		if e := recover(); e != nil {
			stack := debug.Stack()
			if i := bytes.Index(stack, []byte("panic(")); i > 0 {
				stack = stack[i:]
			}
			cell = Cell{Outcome: Crashed, Detail: truncate(fmt.Sprintf("panic: %v\n%s", e, stack), maxDiff)}
		}
	}()
	c := info.New()
	if p.Kind == Forward {
		f, ok := c.(codec.Forwarder)
		if !ok {
			return Cell{Outcome: Unsupported, Detail: "no codec.Forwarder: values decode into Go types, which keep no field they do not declare"}
		}
		a, b, err := f.Forward("a", 42, p.Discard)
		if err != nil {
			return Cell{Outcome: RefusedDecode, Detail: message(err)}
		}
		return judge(p, &Forwarded{"a", 42}, &Forwarded{a, b})
	}
	v := p.Value()
	cs, err := c.Prepare(v)
	if err != nil {
		return refused(RefusedEncode, err)
	}
	data, err := cs.Encode()
	if err != nil {
		return refused(RefusedEncode, err)
	}
	data = bytes.Clone(data)
	want := v
	var got any
	switch p.Kind {
	case Reuse:
		into, ok := cs.(codec.Into)
		if !ok {
			return Cell{Outcome: Unsupported, Detail: "no codec.Into: the codec decodes into new values only"}
		}
		got = p.Target()
		if err := into.DecodeInto(data, got); err != nil {
			return Cell{Outcome: RefusedDecode, Detail: message(err)}
		}
	case DecodeAs:
		as, err := c.Prepare(p.As())
		if err != nil {
			return refused(RefusedDecode, err)
		}
		if err := as.Decode(data); err != nil {
			return Cell{Outcome: RefusedDecode, Detail: message(err)}
		}
		if got, err = as.Value(); err != nil {
			return Cell{Outcome: RefusedDecode, Detail: message(err)}
		}
		want = p.Want()
	default:
		if err := cs.Decode(data); err != nil {
			return Cell{Outcome: RefusedDecode, Detail: message(err)}
		}
		if got, err = cs.Value(); err != nil {
			return Cell{Outcome: RefusedDecode, Detail: message(err)}
		}
	}
	return judge(p, want, got)
}

// judge compares the decoded value with the wanted one.
func judge(p Probe, want, got any) Cell {
	norm, err := compare(want, got)
	var mm *verify.MismatchError
	if err != nil && !errors.As(err, &mm) {
		return Cell{Outcome: CheckFailed, Detail: message(err)}
	}
	if p.Check != nil {
		if msg := p.Check(got); msg != "" {
			return Cell{Outcome: Changed, Detail: msg}
		}
	}
	switch {
	case mm != nil:
		return Cell{Outcome: Changed, Detail: truncate(mm.Diff, maxDiff)}
	case norm != "":
		return Cell{Outcome: Normalised, Norm: norm}
	}
	return Cell{Outcome: Exact}
}

// refused is the cell of an error from Prepare: Unsupported when the
// adapter says the codec cannot represent the value, else outcome.
func refused(outcome Outcome, err error) Cell {
	if codec.IsUnsupported(err) {
		var u *codec.UnsupportedError
		errors.As(err, &u)
		return Cell{Outcome: Unsupported, Detail: "by the adapter: " + u.Reason}
	}
	return Cell{Outcome: outcome, Detail: message(err)}
}

func message(err error) string { return truncate(err.Error(), maxDiff) }
