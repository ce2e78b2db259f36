package evolve

import (
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/evolve/change"
)

// reflectFormat is a reflection codec reading and writing the two Go types
// of a case (package evolve/gotypes) through its registry entry: Prepare,
// Encode, Decode and Value, as every study calls a codec.
type reflectFormat struct{ info codec.Info }

func (f reflectFormat) encode(c *change.Case, w change.Version) ([]byte, error) {
	t, err := genType(c, w)
	if err != nil {
		return nil, err
	}
	return f.encodeValue(newGo(t, w).Interface())
}

func (f reflectFormat) encodeValue(v any) ([]byte, error) {
	cs, err := f.info.New().Prepare(v)
	if err != nil {
		return nil, err
	}
	b, err := cs.Encode()
	return append([]byte(nil), b...), err
}

func (f reflectFormat) decode(c *change.Case, _, r change.Version, data []byte) (any, error) {
	t, err := genType(c, r)
	if err != nil {
		return nil, err
	}
	cs, err := f.info.New().Prepare(reflect.New(t).Interface())
	if err != nil {
		return nil, err
	}
	if err := cs.Decode(data); err != nil {
		return nil, err
	}
	return cs.Value()
}

func (f reflectFormat) reencode(_ *change.Case, _ change.Version, native any) ([]byte, error) {
	return f.encodeValue(native)
}

func (f reflectFormat) record(_ *change.Case, r change.Version, native any) (change.Record, error) {
	return goRecord(r, native)
}

// goRecord returns a Go struct of version r (or a pointer to one) as r's
// Record.
func goRecord(r change.Version, native any) (change.Record, error) {
	v := reflect.ValueOf(native)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, fmt.Errorf("decoded a nil %s", v.Type())
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("decoded a %s, not the reader's struct", v.Type())
	}
	rec := change.Record{}
	for _, fd := range r.Fields {
		fv := v.FieldByName(change.GoName(fd.Name))
		if !fv.IsValid() {
			return nil, fmt.Errorf("decoded a %s without field %s", v.Type(), change.GoName(fd.Name))
		}
		rec[fd.Key()] = change.Canonical(fd.Kind, canonicalGo(fv).Interface())
	}
	return rec, nil
}

// canonicalGo returns a field of a generated Go type as the kind's Go
// type: a generated Inner as change.Inner, generated Pairs as
// []change.Pair.
func canonicalGo(v reflect.Value) reflect.Value {
	switch {
	case v.Kind() == reflect.Struct && v.Type() != reflect.TypeFor[change.Inner]():
		return v.Convert(reflect.TypeFor[change.Inner]())
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct && v.Type().Elem() != reflect.TypeFor[change.Pair]():
		if v.Len() == 0 {
			return reflect.ValueOf([]change.Pair(nil))
		}
		out := make([]change.Pair, v.Len())
		for i := range v.Len() {
			out[i] = v.Index(i).Convert(reflect.TypeFor[change.Pair]()).Interface().(change.Pair)
		}
		return reflect.ValueOf(out)
	}
	return v
}

// setGo sets the Go field dst to the canonical value v.
func setGo(dst reflect.Value, v any) {
	switch x := v.(type) {
	case int64:
		if dst.CanInt() {
			dst.SetInt(x)
		} else {
			dst.SetUint(uint64(x))
		}
	case uint64:
		if dst.CanUint() {
			dst.SetUint(x)
		} else {
			dst.SetInt(int64(x))
		}
	case []int64:
		s := reflect.MakeSlice(dst.Type(), len(x), len(x))
		for i, n := range x {
			s.Index(i).SetInt(n)
		}
		dst.Set(s)
	case []change.Pair:
		s := reflect.MakeSlice(dst.Type(), len(x), len(x))
		for i, p := range x {
			s.Index(i).Set(reflect.ValueOf(p).Convert(dst.Type().Elem()))
		}
		dst.Set(s)
	default:
		dst.Set(reflect.ValueOf(v).Convert(dst.Type()))
	}
}

// newGo returns a new Go value of type t holding version w's data.
func newGo(t reflect.Type, w change.Version) reflect.Value {
	p := reflect.New(t)
	for _, fd := range w.Fields {
		if v, ok := w.Data[fd.Key()]; ok {
			setGo(p.Elem().FieldByName(change.GoName(fd.Name)), v)
		}
	}
	return p
}
