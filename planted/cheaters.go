package planted

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
)

// inputCase decodes into a throwaway and hands back the input.
type inputCase struct{ jsonCase }

func (c *inputCase) Encode() ([]byte, error) { return c.marshal() }

func (c *inputCase) Decode(data []byte) error {
	out, err := c.unmarshal(data)
	c.out = out // kept, so the work is not dead, but never returned
	return err
}

// Value returns the pointer handed to Prepare.
func (c *inputCase) Value() (any, error) { return c.v, nil }

// cachedEncodeCase marshals once.
type cachedEncodeCase struct {
	jsonCase
	enc []byte
}

func (c *cachedEncodeCase) Encode() ([]byte, error) {
	if c.enc == nil {
		enc, err := c.marshal()
		if err != nil {
			return nil, err
		}
		c.enc = enc
	}
	return c.enc, nil
}

func (c *cachedEncodeCase) Decode(data []byte) error {
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

// memoDecodeCase decodes once and then remembers.
type memoDecodeCase struct {
	jsonCase
	decoded bool
}

func (c *memoDecodeCase) Encode() ([]byte, error) { return c.marshal() }

func (c *memoDecodeCase) Decode(data []byte) error {
	if c.decoded {
		return nil
	}
	var err error
	c.out, err = c.unmarshal(data)
	c.decoded = err == nil
	return err
}

// lossyCase corrupts the decoded value on the Decode calls lossy picks
// (counted from 1 per Case).
type lossyCase struct {
	jsonCase
	calls int
	lossy func(call int) bool
}

func (c *lossyCase) Encode() ([]byte, error) { return c.marshal() }

func (c *lossyCase) Decode(data []byte) error {
	c.calls++
	var err error
	c.out, err = c.unmarshal(data)
	if err == nil && c.lossy(c.calls) {
		corrupt(c.out)
	}
	return err
}

// growingCase pads each encoding with one more trailing space.
type growingCase struct {
	jsonCase
	pad []byte // spaces: as many as Encode calls so far
}

func (c *growingCase) Encode() ([]byte, error) {
	enc, err := c.marshal()
	if err != nil {
		return nil, err
	}
	enc = append(enc, c.pad...)
	c.pad = append(c.pad, ' ')
	return enc, nil
}

func (c *growingCase) Decode(data []byte) error {
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

// noopCase did all its work in Prepare.
type noopCase struct {
	enc []byte
	out any
}

func prepareNoop(v any) (codec.Case, error) {
	var j jsonCase
	if err := j.init(v); err != nil {
		return nil, err
	}
	enc, err := j.marshal()
	if err != nil {
		return nil, err
	}
	out, err := j.unmarshal(enc)
	if err != nil {
		return nil, err
	}
	return &noopCase{enc: enc, out: out}, nil
}

func (c *noopCase) Encode() ([]byte, error) { return c.enc, nil }
func (c *noopCase) Decode([]byte) error     { return nil }
func (c *noopCase) Value() (any, error)     { return c.out, nil }

// corrupt changes the value p points to, at its top level, so that it no
// longer equals what was decoded.
func corrupt(p any) { corruptValue(reflect.ValueOf(p).Elem()) }

var timeType = reflect.TypeFor[time.Time]()

// corruptValue changes the settable v and reports whether it could.
func corruptValue(v reflect.Value) bool {
	if v.Type() == timeType {
		v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		return true
	}
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if t.Field(i).IsExported() && !v.Field(i).IsZero() {
				v.Field(i).SetZero()
				return true
			}
		}
		// Every exported field is zero: change the first that can be.
		for i := range t.NumField() {
			if t.Field(i).IsExported() && corruptValue(v.Field(i)) {
				return true
			}
		}
		return false
	case reflect.Slice:
		if n := v.Len(); n > 0 {
			v.Set(v.Slice(0, n-1))
		} else {
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		}
		return true
	case reflect.Map:
		if v.Len() == 0 {
			if v.IsNil() {
				v.Set(reflect.MakeMap(v.Type()))
			}
			v.SetMapIndex(reflect.Zero(v.Type().Key()), reflect.Zero(v.Type().Elem()))
			return true
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return strings.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
		})
		v.SetMapIndex(keys[0], reflect.Value{})
		return true
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
			return true
		}
		return corruptValue(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		v.SetZero()
		return true
	case reflect.Array:
		return v.Len() > 0 && corruptValue(v.Index(0))
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1) // wraps at the maximum, still different
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		// +1 would be lost on large floats: negate instead.
		switch f := v.Float(); {
		case f == 0 || math.IsNaN(f):
			v.SetFloat(1)
		default:
			v.SetFloat(-f)
		}
	case reflect.Complex64, reflect.Complex128:
		if v.Complex() == 0 {
			v.SetComplex(1)
		} else {
			v.SetComplex(-v.Complex())
		}
	case reflect.String:
		v.SetString(v.String() + "x")
	default:
		return false
	}
	return true
}
