package runner

import (
	"fmt"
	"reflect"
	"time"

	"github.com/serbench/serbench/results"
)

// Value is on the clock wherever a decode's result is used. The timed
// loop does not call it (unless the codec declares Lazy), so a codec
// could leave its work to Value when it sees the timed loop's pattern
// (Decode after Decode). The timed iterations verified on the spot time
// their Value call (timedValue): a Value that costs more there than after
// the checks' own decodes, by more than the whole timed figure, is the
// decoding the timed loop skipped. The checks after timing on builds the
// codec never saw time Decode and Value together (unseen.go).
//
// A codec that declares ValueConverts has its Value measured against a
// reflective deep copy of the value it returns (Result.CopyValueNs,
// beside Result.ValueNs), for the reader to judge: the copy cannot tell a
// conversion from a decode (encoding/json's decode costs three times the
// copy, and so does codecs/internal/mirror's conversion by reflection),
// so it flags nothing.

// convertRatio: a Value after a timed Decode may cost this many times
// what it costs after the checks', and the timed figure more.
const convertRatio = 4

// timedValue calls the case's Value after a timed Decode verified on the
// spot, and records its time.
func (p *Prepared) timedValue() (any, error) {
	t0 := p.now()
	v, err := p.Case.Value()
	p.times.timedValue = append(p.times.timedValue, p.now().Sub(t0))
	return v, err
}

// judgeValue returns a flag when Value does the decoder's work: in the
// timed loop's pattern (deferred), or in a codec that declares it only
// converts. m is the timed figure per op, q the checks' quantile.
func (p *Prepared) judgeValue(res *results.Result, m float64, q func([]time.Duration) float64) string {
	if p.info.Lazy || p.info.SelfTimed {
		return "" // Value is timed with Decode; a self-timed loop's last value is verified after the loop (its path figure is held apart)
	}
	val := q(p.times.value)
	if p.info.ValueConverts && len(p.times.convert) > 0 {
		res.CopyValueNs = q(p.times.convert)
	}
	// A Value that allocates pays the collector's assists in the timed
	// loop's heap: it may cost a few times what it costs in the checks.
	// A converting Value allocates, and in the timed loop's heap pays the
	// collector's assists and a cold cache: several times what it costs
	// in the checks. Only a Value that hands back what Decode made is
	// held to its cost there.
	if tv := q(p.times.timedValue); !p.info.ValueConverts && len(p.times.timedValue) >= 3 && m > 0 && tv > convertRatio*val+m {
		return fmt.Sprintf("Value takes %.3gns after a timed Decode where it takes %.3gns after the checks' (the timed figure is %.3gns/op): "+
			"the decoding is left to Value when the codec sees the timed loop", tv, val, m)
	}
	return ""
}

// timeCopy times a reflective deep copy of v, the cost a conversion of a
// decoded value is held to (ValueConverts).
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
