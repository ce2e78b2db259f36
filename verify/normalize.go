package verify

import (
	"reflect"
	"time"

	"github.com/serbench/serbench/codec"
)

// A normalizer maps a value to a canonical copy in which the declared
// losses no longer show: times truncated and in UTC, empty slices and maps
// nil, pointers to zero values nil. Comparing two canonical copies with
// reflect.DeepEqual is the fast path of Equal; go-cmp, far slower on large
// values, only runs to explain a mismatch.
type normalizer struct {
	prec      time.Duration // truncate times to this; 0 keeps them
	utc       bool          // the time zone is not preserved
	nilEmpty  bool
	nilZeroed bool
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
		if v.IsNil() {
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
