// Package shapes dispatches a value handed to a schema codec's Prepare by
// its dataset type and shape: a *T, a *[]T or a *[]*T.
//
// A schema has a message (a struct, a table) for each dataset type it
// covers, and a list message for the types whose slices it carries. The
// adapter lists one Type per covered dataset type, each made by Single or
// All from the functions that build its result (a case, a binding) for
// each shape, and a Table finds the one that takes a value.
package shapes

import "github.com/serbench/serbench/codec"

// A Type builds R for a value of one dataset type in the shapes the schema
// has for it, reporting false for any other type or shape.
type Type[R any] func(v any) (R, bool)

// Single returns the Type of dataset type T whose schema has the single
// shape only (a *T).
func Single[T, R any](single func(*T) R) Type[R] {
	return func(v any) (R, bool) {
		if p, ok := v.(*T); ok {
			return single(p), true
		}
		var zero R
		return zero, false
	}
}

// All returns the Type of dataset type T in all three shapes: single (a
// *T), slice (a *[]T) and pointer slice (a *[]*T).
func All[T, R any](single func(*T) R, slice func(*[]T) R, ptrSlice func(*[]*T) R) Type[R] {
	return func(v any) (R, bool) {
		switch p := v.(type) {
		case *T:
			return single(p), true
		case *[]T:
			return slice(p), true
		case *[]*T:
			return ptrSlice(p), true
		}
		var zero R
		return zero, false
	}
}

// A Table lists the dataset types a schema covers.
type Table[R any] struct {
	Types []Type[R]
	// Missing says why a value of any other type is unsupported, e.g.
	// "serbench.proto has no message for it".
	Missing string
}

// Build returns R for v from the first of t's Types that takes it. For a
// v that none takes it returns codec.PointerElem's error when v is not a
// non-nil pointer, else a *codec.UnsupportedError with t.Missing.
func (t Table[R]) Build(v any) (R, error) {
	for _, typ := range t.Types {
		if r, ok := typ(v); ok {
			return r, nil
		}
	}
	var zero R
	if _, err := codec.PointerElem(v); err != nil {
		return zero, err
	}
	return zero, codec.Unsupported(v, "%s", t.Missing)
}
