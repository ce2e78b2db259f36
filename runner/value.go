package runner

import (
	"reflect"
	"time"

	"github.com/serbench/serbench/results"
)

// Value is on the clock wherever a decode's result is used: the checks
// after timing on builds the codec never saw time Decode and Value
// together, each call on its own, beside the same calls on the pool's
// builds (unseen.go), and hold the timed figure to them; a decode that
// leaves its work to Value (always, or when it sees the timed loop's
// pattern) is as slow there as an honest one, and the timed figure far
// below them.
//
// A codec that declares ValueConverts has its Value measured against a
// reflective deep copy of the value it returns (Result.CopyValueNs,
// beside Result.ValueNs), for the reader to judge. The copy cannot tell a
// conversion from a decode (encoding/json's decode costs three times the
// copy, and so does codecs/internal/mirror's conversion by reflection),
// and a Value timed after the timed loop's Decodes costs several times
// what it costs after the checks' when it allocates (the collector's
// assists in the timed loop's heap), so neither flags anything.

// recordCopy records what the reflective copies of decoded values cost
// in the checks, for a codec that declares ValueConverts.
func (p *Prepared) recordCopy(res *results.Result, q func([]time.Duration) float64) {
	if p.info.ValueConverts && len(p.times.convert) > 0 {
		res.CopyValueNs = q(p.times.convert)
	}
}

// timeCopy times a reflective deep copy of v, beside Value's cost
// (ValueConverts).
func (p *Prepared) timeCopy(v any) {
	t0 := p.now()
	c := deepCopy(reflect.ValueOf(v))
	p.times.convert = append(p.times.convert, p.now().Sub(t0))
	copySink = c
}

// copySink keeps the last copy alive.
var copySink reflect.Value

// deepCopy returns a copy of v sharing no memory with it.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(deepCopy(v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(deepCopy(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Array:
		c := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(deepCopy(it.Key()), deepCopy(it.Value()))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v) // unexported fields (time.Time's) as they are
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
		return c
	case reflect.String:
		s := v.String()
		c := reflect.New(v.Type()).Elem()
		c.SetString(string(append([]byte(nil), s...)))
		return c
	}
	return v
}
