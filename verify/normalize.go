package verify

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/serbench/serbench/codec"
)

// A normalizer maps a value to a canonical copy in which the declared
// losses no longer show: times truncated and in UTC, empty slices and maps
// nil, pointers to zero values nil, values held in interfaces in the
// canonical form of their content (see canonical). Comparing two canonical copies with
// reflect.DeepEqual is the fast path of Equal; go-cmp, far slower on large
// values, only runs to explain a mismatch.
type normalizer struct {
	prec      time.Duration // truncate times to this; 0 keeps them
	utc       bool          // the time zone is not preserved
	nilEmpty  bool
	nilZeroed bool
	ifaces    bool // InterfaceTypes: see canonical
}

// newNormalizer returns the normalizer for losses, or false when a loss
// cannot be normalized away (BinaryText needs go-cmp's judgement).
func newNormalizer(losses []codec.Loss) (normalizer, bool) {
	var n normalizer
	for _, l := range losses {
		switch l.Kind {
		case codec.TimePrecision:
			n.prec = max(n.prec, l.Precision)
		case codec.TimeZone:
			n.utc = true
		case codec.NilEmpty:
			n.nilEmpty = true
		case codec.NilPointerZero:
			n.nilZeroed = true
		case codec.InterfaceTypes:
			// Equal applies it first, alone (the canonical form holds
			// no Go types for the others to act on).
		default:
			return n, false
		}
	}
	return n, true
}

// copy returns a normalized deep copy of v. Unexported fields are copied
// as they are.
func (n normalizer) copy(v reflect.Value) reflect.Value {
	t := v.Type()
	if t == timeType {
		tm := v.Interface().(time.Time)
		if n.prec > 0 {
			tm = tm.Truncate(n.prec)
		}
		if n.utc {
			tm = tm.UTC()
		}
		return reflect.ValueOf(tm)
	}
	out := reflect.New(t).Elem()
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || n.nilZeroed && v.Elem().IsZero() {
			return out
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(n.copy(v.Elem()))
		return p
	case reflect.Slice:
		if v.IsNil() || n.nilEmpty && v.Len() == 0 {
			return out
		}
		s := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			s.Index(i).Set(n.copy(v.Index(i)))
		}
		return s
	case reflect.Array:
		for i := range v.Len() {
			out.Index(i).Set(n.copy(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() || n.nilEmpty && v.Len() == 0 {
			return out
		}
		m := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), n.copy(it.Value()))
		}
		return m
	case reflect.Struct:
		out.Set(v)
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				out.Field(i).Set(n.copy(v.Field(i)))
			}
		}
		return out
	case reflect.Interface:
		if v.IsNil() || n.nilEmpty && (v.Elem().Kind() == reflect.Slice || v.Elem().Kind() == reflect.Map) && v.Elem().Len() == 0 {
			return out // an empty list or map held in an interface is nil, as JSON's null
		}
		if n.ifaces {
			if c := n.canonical(v.Elem()); c.IsValid() {
				out.Set(c)
			}
			return out
		}
		out.Set(n.copy(v.Elem()))
		return out
	default:
		out.Set(v)
		return out
	}
}

var timeType = reflect.TypeFor[time.Time]()

// A number is the canonical form of a number held in an interface: its
// exact value in decimal, whatever its Go type. It is its own type, so
// that it never equals a string.
type number string

// canonical returns the canonical form of v, a value held in an interface,
// for InterfaceTypes: a number as a number; a map as a map[string]any of
// its entries' canonical forms, keyed by the keys' text; a list of
// key-value pairs (a slice of structs of two fields, Key and Value, as
// BSON's bson.D) as that map; any other slice or array but bytes as an
// []any; anything else as a normalized copy. It returns the zero Value
// for a nil map, slice or pointer: in an interface, as JSON's null.
func (n normalizer) canonical(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return reflect.Value{}
		}
		return n.canonical(v.Elem())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return reflect.ValueOf(number(strconv.FormatInt(v.Int(), 10)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return reflect.ValueOf(number(strconv.FormatUint(v.Uint(), 10)))
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return reflect.ValueOf(number(strconv.FormatInt(int64(f), 10)))
		}
		return reflect.ValueOf(number(strconv.FormatFloat(f, 'g', -1, 64)))
	case reflect.Map:
		if v.IsNil() {
			return reflect.Value{}
		}
		m := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			m[n.key(it.Key())] = n.held(it.Value())
		}
		return reflect.ValueOf(m)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return reflect.Value{}
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return n.copy(v)
		}
		if pairs(v.Type().Elem()) {
			m := make(map[string]any, v.Len())
			for i := range v.Len() {
				m[n.key(v.Index(i).Field(0))] = n.held(v.Index(i).Field(1))
			}
			return reflect.ValueOf(m)
		}
		s := make([]any, v.Len())
		for i := range v.Len() {
			s[i] = n.held(v.Index(i))
		}
		return reflect.ValueOf(s)
	default:
		return n.copy(v)
	}
}

// held returns the canonical form of v as an any.
func (n normalizer) held(v reflect.Value) any {
	if c := n.canonical(v); c.IsValid() {
		return c.Interface()
	}
	return nil
}

// key returns the text of a map key's canonical form.
func (n normalizer) key(v reflect.Value) string { return fmt.Sprint(n.held(v)) }

// pairs reports whether t is a key-value pair: a struct of two exported
// fields, Key and Value.
func pairs(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 2 &&
		t.Field(0).Name == "Key" && t.Field(1).Name == "Value"
}
