package codec

import (
	"fmt"
	"math"
	"reflect"
)

// Refuse returns a Codec that prepares values with c, except that it
// refuses, with an *UnsupportedError, a value holding a scalar that the
// format or library cannot carry: reject is called on every value of one
// of kinds found in it (struct fields, elements, map keys and values) and
// returns why that value cannot be carried, or "" if it can.
//
// It is for limits that depend on values, not types (a uint64 above
// math.MaxInt64, a string a library mangles), so that Features cannot
// declare them. The walk happens once, in Prepare, outside the timer, and
// only when the value's type can hold one of kinds at all.
func Refuse(c Codec, kinds []reflect.Kind, reject func(v reflect.Value) string) Codec {
	want := map[reflect.Kind]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	return Func(func(v any) (Case, error) {
		rv := reflect.ValueOf(v)
		if holds(rv.Type(), want, map[reflect.Type]bool{}) {
			if reason := find(rv, want, reject); reason != "" {
				return nil, Unsupported(v, "%s", reason)
			}
		}
		return c.Prepare(v)
	})
}

// SignedInts refuses values holding an unsigned integer above
// math.MaxInt64, for formats whose integers are signed 64-bit (BSON,
// TOML); format names the format in the reason.
func SignedInts(format string, c Codec) Codec {
	return Refuse(c, []reflect.Kind{reflect.Uint, reflect.Uint64, reflect.Uintptr}, func(v reflect.Value) string {
		if u := v.Uint(); u > math.MaxInt64 {
			return fmt.Sprintf("%s integers are signed 64-bit: %d does not fit", format, u)
		}
		return ""
	})
}

// NoNull refuses values holding a nil interface value (what JSON's null
// decodes to in generic data, map[string]any), for formats that have no
// null (TOML); format names the format in the reason.
func NoNull(format string, c Codec) Codec {
	return Refuse(c, []reflect.Kind{reflect.Interface}, func(v reflect.Value) string {
		if v.IsNil() {
			return fmt.Sprintf("%s has no null: the value holds a nil interface value", format)
		}
		return ""
	})
}

// holds reports whether values of type t can hold a value of one of kinds.
func holds(t reflect.Type, kinds map[reflect.Kind]bool, seen map[reflect.Type]bool) bool {
	if kinds[t.Kind()] {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holds(t.Elem(), kinds, seen)
	case reflect.Map:
		return holds(t.Key(), kinds, seen) || holds(t.Elem(), kinds, seen)
	case reflect.Interface:
		return true
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && holds(f.Type, kinds, seen) {
				return true
			}
		}
	}
	return false
}

// find returns the first reason reject gives for a value of one of kinds
// in v, or "".
func find(v reflect.Value, kinds map[reflect.Kind]bool, reject func(reflect.Value) string) string {
	if kinds[v.Kind()] {
		if r := reject(v); r != "" {
			return r
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return find(v.Elem(), kinds, reject)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 && !kinds[reflect.Uint8] {
			return "" // bytes
		}
		for i := range v.Len() {
			if r := find(v.Index(i), kinds, reject); r != "" {
				return r
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if r := find(it.Key(), kinds, reject); r != "" {
				return r
			}
			if r := find(it.Value(), kinds, reject); r != "" {
				return r
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if r := find(v.Field(i), kinds, reject); r != "" {
				return r
			}
		}
	}
	return ""
}
