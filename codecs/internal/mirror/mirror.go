// Package mirror supports the adapters whose code generator writes methods
// on types declared in the adapter's own package (msgp, easyjson).
//
// Such an adapter keeps mirror types: copies of the dataset types, written
// into the adapter package by the mirrorgen command (see gen.go there), with
// the generated marshalling methods beside them. A Case converts the dataset
// value to its mirror once, when the case is prepared, so the timed loops
// only ever see the mirror; Value converts a decoded mirror back for
// verification.
package mirror

import (
	"fmt"
	"reflect"
)

// Copy sets *dst to a deep copy of *src, where Dst and Src have the same
// structure: the same kinds at every level, struct fields matched by name.
// Basic values are converted to the destination's type (int64 to a named
// int64, say). Nil pointers, slices and maps stay nil; empty ones stay
// empty. Structs with unexported fields, such as time.Time, must have the
// same type on both sides and are copied as values.
func Copy[Dst, Src any](dst *Dst, src *Src) error {
	if dst == nil || src == nil {
		return fmt.Errorf("mirror: Copy needs non-nil pointers, got %T and %T", dst, src)
	}
	if err := copyValue(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()); err != nil {
		err.path = reflect.TypeFor[Src]().String() + err.path
		return err
	}
	return nil
}

// CopyValue is Copy for values whose types are known at run time: dst
// must be settable.
func CopyValue(dst, src reflect.Value) error {
	if err := copyValue(dst, src); err != nil {
		err.path = src.Type().String() + err.path
		return err
	}
	return nil
}

// A copyError says where in the value a copy failed.
type copyError struct {
	path string // built from the inside out as the error returns
	msg  string
}

func (e *copyError) Error() string { return "mirror: " + e.path + ": " + e.msg }

// at prefixes the error's path with one step, when there is an error.
func at(err *copyError, step string) *copyError {
	if err != nil {
		err.path = step + err.path
	}
	return err
}

// copyValue copies src into dst.
func copyValue(dst, src reflect.Value) *copyError {
	if dst.Kind() != src.Kind() {
		return &copyError{msg: fmt.Sprintf("cannot copy a %s into a %s", src.Type(), dst.Type())}
	}
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			dst.SetZero()
			return nil
		}
		p := reflect.New(dst.Type().Elem())
		if err := copyValue(p.Elem(), src.Elem()); err != nil {
			return err
		}
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			dst.SetZero()
			return nil
		}
		s := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			if err := copyValue(s.Index(i), src.Index(i)); err != nil {
				return at(err, fmt.Sprintf("[%d]", i))
			}
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			dst.SetZero()
			return nil
		}
		m := reflect.MakeMapWithSize(dst.Type(), src.Len())
		kt, vt := dst.Type().Key(), dst.Type().Elem()
		for it := src.MapRange(); it.Next(); {
			k, v := reflect.New(kt).Elem(), reflect.New(vt).Elem()
			if err := copyValue(k, it.Key()); err != nil {
				return at(err, fmt.Sprintf("[%v]", it.Key()))
			}
			if err := copyValue(v, it.Value()); err != nil {
				return at(err, fmt.Sprintf("[%v]", it.Key()))
			}
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	case reflect.Struct:
		return copyStruct(dst, src)
	case reflect.Array, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return &copyError{msg: fmt.Sprintf("cannot copy a %s", src.Type())}
	default:
		dst.Set(src.Convert(dst.Type()))
	}
	return nil
}

// copyStruct copies the fields of src into the fields of dst with the
// same names. Every exported field must have a partner: a field dropped on
// the way would make the round trip look better than it is.
func copyStruct(dst, src reflect.Value) *copyError {
	dt, st := dst.Type(), src.Type()
	if hasUnexported(st) || hasUnexported(dt) {
		if dt != st {
			return &copyError{msg: fmt.Sprintf("%s has unexported fields and can only be copied into itself, not into %s", st, dt)}
		}
		dst.Set(src)
		return nil
	}
	if dt.NumField() != st.NumField() {
		return &copyError{msg: fmt.Sprintf("%s has %d fields, %s has %d", st, st.NumField(), dt, dt.NumField())}
	}
	for i := range st.NumField() {
		name := st.Field(i).Name
		df := dst.FieldByName(name)
		if !df.IsValid() {
			return &copyError{msg: fmt.Sprintf("%s has no field %s", dt, name)}
		}
		if err := copyValue(df, src.Field(i)); err != nil {
			return at(err, "."+name)
		}
	}
	return nil
}

func hasUnexported(t reflect.Type) bool {
	for i := range t.NumField() {
		if !t.Field(i).IsExported() {
			return true
		}
	}
	return false
}
