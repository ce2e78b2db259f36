package runner

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
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

// A codec that declares ValueConverts says its Decode decoded the input
// in full; overwriting the input before Value (clobbersBeforeValue)
// catches a Value that reads it, not a Decode that copies it (one
// memcpy, on the clock) and a Value that decodes the copy (off it). A
// decode in full has parsed the input, so it refuses one cut short
// itself: checkCuts hands Decode unseen encodings cut short (cuts), and
// fails the codec when Decode accepts one and Value then fails on it
// (Value did the parsing), or when Value hands back the zero value or
// the value of the message decoded before (a Value that hides its
// failure). A cut that Decode accepts and Value converts to another
// value is no tell: a protobuf message cut at a field's end is a valid
// shorter message, and an SSZ container whose last field is a string
// ends with it.

// cutMessages is how many unseen encodings checkCuts cuts short.
const cutMessages = 4

// cuts returns the lengths an encoding of n bytes is cut to: without its
// last byte, half of it, its first byte alone (distinct, each in
// [1, n-1]; none when n < 2).
func cuts(n int) []int {
	var out []int
	for _, c := range []int{n - 1, n / 2, 1} {
		if c >= 1 && c < n && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// checkCuts checks, for a codec that declares ValueConverts (and whose
// Value is off the timed loop's clock), that Decode refuses s's
// encodings cut short, or that Value converts what it accepted (see
// above). Before each cut message, the case decodes another of s's in
// full, so that a Value that hands back the last value it made hands
// back another build's.
func (p *Prepared) checkCuts(s *unseenSet) error {
	if !p.clobbersBeforeValue() || len(s.msgs) < 2 {
		return nil
	}
	for i := range min(cutMessages, len(s.msgs)) {
		m := s.msgs[i]
		for _, n := range cuts(len(m)) {
			if p.alive != nil {
				p.alive()
			}
			other := (i + 1) % len(s.msgs)
			in := slices.Clone(s.msgs[other])
			err := codec.Guard(func() error { return p.Case.Decode(in) })
			var got any
			if err == nil {
				got, err = codec.GuardValue(p.Case.Value)
			}
			if err == nil {
				err = p.equal0(s.refs[other], got)
			}
			if err := compared(err, "decode of unseen build %d's encoding", s.builds[other]); err != nil {
				return err
			}
			in = slices.Clone(m[:n])
			if codec.Guard(func() error { return p.Case.Decode(in) }) != nil {
				continue // refused: Decode parsed it
			}
			got, err = codec.GuardValue(p.Case.Value)
			if err != nil {
				return checkErr(results.Failed, "unseen build %d's encoding cut to %d of its %d bytes: Decode returned no error, then Value failed: %v: %s",
					s.builds[i], n, len(m), err, cutDecodes)
			}
			if n > 1 && (isZero(got) || p.equal0(s.refs[other], got) == nil) {
				return checkErr(results.Failed, "unseen build %d's encoding cut to %d of its %d bytes: Decode returned no error and Value handed back %s: "+
					"Value decoded, failed and hid its failure: %s", s.builds[i], n, len(m), staleOrZero(isZero(got), s.builds[other]), cutDecodes)
			}
		}
	}
	return nil
}

// isZero reports whether v, a pointer Value handed back, points at its
// type's zero value (or is nil).
func isZero(v any) bool {
	r := reflect.ValueOf(v)
	return !r.IsValid() || r.Kind() == reflect.Pointer && (r.IsNil() || r.Elem().IsZero())
}

// staleOrZero says what a Value that hid its failure handed back.
func staleOrZero(zero bool, other int) string {
	if zero {
		return "the zero value"
	}
	return fmt.Sprintf("the value of the build decoded before it (%d)", other)
}

// cutDecodes says why a codec declared ValueConverts fails when it
// accepts an encoding cut short and Value does not convert it.
const cutDecodes = "the codec declares that Value only converts a value Decode decoded in full (codec.Info.ValueConverts), " +
	"but Decode did not parse its input: the decoding is left to Value, off the timed loop's clock " +
	"(declare codec.Info.Lazy if Decode leaves work to Value, or ValueReadsInput if Value's conversion reads the input; Value is then timed with Decode)"
