package fidelity

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/verify"
)

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
	cell.Codec, cell.Case = info.Name, p.Name
	return cell
}

// Forwarded is what a Forward probe reads back.
type Forwarded struct {
	A string
	B int64
}

// run runs p through the codec, a panic (through the one guard,
// codec.Guard) a Crashed cell.
func run(info codec.Info, p Probe) Cell {
	cell, err := codec.GuardValue(func() (Cell, error) { return run1(info, p), nil })
	var pe *codec.PanicError
	if errors.As(err, &pe) {
		return Cell{Outcome: Crashed, Detail: truncate(pe.Error()+"\n"+pe.Stack, maxDiff)}
	}
	return cell
}

// run1 runs p through the codec.
func run1(info codec.Info, p Probe) Cell {
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
		return Cell{Outcome: Normalised, Note: norm}
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
