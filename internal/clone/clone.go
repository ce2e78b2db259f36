// Package clone builds copies of values by reflection: Deep, an equal
// copy that shares no memory with the original, and Varied, a copy of the
// same type and shape whose every scalar differs, for a benchmark that
// alternates two distinct messages.
//
// Both copy exported struct fields deeply; unexported fields are copied
// as they are (reflection cannot set them), so they may share memory with
// the original. A time.Time is copied as a value. Pointers to the same
// value stay shared in the copy, so a cycle through pointers is copied as
// a cycle. Channels and functions are copied as they are.
package clone

import (
	"reflect"
	"time"
	"unicode/utf8"
)

// Deep returns a deep copy of v.
func Deep(v any) any { return copyOf(v, false) }

// Varied returns a deep copy of v in which every scalar is changed: a
// bool negated, a number plus one (minus one at its type's maximum), the
// first ASCII letter or digit of a string or byte slice moved on by one
// in its range (z to a), or, without one, its first character moved to
// its end; a time one hour later. Map keys, lengths and nil values are
// kept, so the copy has the original's type, shape and about its size.
// It returns a value equal to v when v holds no scalar that can change
// (an empty struct, slice or map).
func Varied(v any) any { return copyOf(v, true) }

func copyOf(v any, vary bool) any {
	if v == nil {
		return nil
	}
	c := copier{vary: vary, seen: map[ptr]reflect.Value{}}
	return c.copy(reflect.ValueOf(v)).Interface()
}

// A ptr identifies a pointer already copied.
type ptr struct {
	t reflect.Type
	p uintptr
}

type copier struct {
	vary bool
	seen map[ptr]reflect.Value
}

var timeType = reflect.TypeFor[time.Time]()

// copy returns a copy of v of v's type.
func (c *copier) copy(v reflect.Value) reflect.Value {
	t := v.Type()
	out := reflect.New(t).Elem()
	if t == timeType {
		tm := v.Interface().(time.Time)
		if c.vary {
			tm = tm.Add(time.Hour)
		}
		out.Set(reflect.ValueOf(tm))
		return out
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return out
		}
		k := ptr{t, v.Pointer()}
		if p, ok := c.seen[k]; ok {
			return p
		}
		p := reflect.New(t.Elem())
		c.seen[k] = p
		p.Elem().Set(c.copy(v.Elem()))
		return p
	case reflect.Slice:
		if v.IsNil() {
			return out
		}
		if t.Elem().Kind() == reflect.Uint8 {
			b := make([]byte, v.Len())
			copy(b, v.Bytes())
			if c.vary {
				b = varyText(b)
			}
			return reflect.ValueOf(b).Convert(t)
		}
		s := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			s.Index(i).Set(c.copy(v.Index(i)))
		}
		return s
	case reflect.Array:
		for i := range v.Len() {
			out.Index(i).Set(c.copy(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return out
		}
		m := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), c.copy(it.Value()))
		}
		return m
	case reflect.Struct:
		out.Set(v)
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				out.Field(i).Set(c.copy(v.Field(i)))
			}
		}
		return out
	case reflect.Interface:
		if !v.IsNil() {
			out.Set(c.copy(v.Elem()))
		}
		return out
	}
	out.Set(v)
	if c.vary {
		vary(out)
	}
	return out
}

// vary changes the scalar v in place.
func vary(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n := v.Int(); v.OverflowInt(n + 1) {
			v.SetInt(n - 1)
		} else {
			v.SetInt(n + 1)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n := v.Uint(); v.OverflowUint(n + 1) {
			v.SetUint(n - 1)
		} else {
			v.SetUint(n + 1)
		}
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); f+1 != f {
			v.SetFloat(f + 1)
		} else {
			v.SetFloat(f / 2) // too large for +1 to show
		}
	case reflect.Complex64, reflect.Complex128:
		v.SetComplex(v.Complex() + 1)
	case reflect.String:
		v.SetString(string(varyText([]byte(v.String()))))
	}
}

// varyText changes b in place, keeping its length and whether it is valid
// UTF-8: its first ASCII letter or digit moves on by one within its range,
// or, without one, its first character moves to its end.
func varyText(b []byte) []byte {
	for i, ch := range b {
		switch {
		case 'a' <= ch && ch <= 'z':
			b[i] = 'a' + (ch-'a'+1)%26
		case 'A' <= ch && ch <= 'Z':
			b[i] = 'A' + (ch-'A'+1)%26
		case '0' <= ch && ch <= '9':
			b[i] = '0' + (ch-'0'+1)%10
		default:
			continue
		}
		return b
	}
	if len(b) > 1 {
		_, n := utf8.DecodeRune(b)
		b = append(b[n:], b[:n]...)
	}
	return b
}
