package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codecs/goavro"
)

// Avro's cases cross as types of the project's schema (Model.Schema
// SchemaAvro): dataset.avsc, which Go's Avro codecs share. A peer reads
// each case by its schema, self-contained (dataset.avsc's named types
// inlined where first used, as goavro.Schema gives it). What the peer reads is
// compared with the case's datum as Avro's data model has it: goavro's
// native reading of the value's encoding, as a neutral value (a record a
// map of its fields, a ["null", T] union its branch's value, a fixed its
// bytes, a timestamp a time).

// bindAvro binds v, a pointer to a dataset value, to its schema of
// dataset.avsc, or says why there is none.
func bindAvro(v any) (binding, error) {
	s, gc, err := goavro.Schema(v)
	if err != nil {
		return binding{}, err
	}
	text, err := json.Marshal(s)
	if err != nil {
		return binding{}, err
	}
	cs, err := goavro.Default.New().Prepare(v)
	if err != nil {
		return binding{}, err
	}
	data, err := cs.Encode()
	if err != nil {
		return binding{}, err
	}
	native, _, err := gc.NativeFromBinary(data)
	if err != nil {
		return binding{}, err
	}
	w := avroWalk{defs: map[string]any{}}
	w.collect(s)
	want, err := w.neutral(s, native)
	if err != nil {
		return binding{}, err
	}
	value := reflect.ValueOf(v).Elem().Interface()
	return binding{typ: string(text), want: want, into: func(read Value) (any, error) {
		if err := sameNeutral(want, read, ""); err != nil {
			return nil, err
		}
		return value, nil
	}}, nil
}

// An avroWalk turns goavro's native data into neutral values, led by the
// schema; defs are its named types by full name.
type avroWalk struct{ defs map[string]any }

// avroName qualifies a name with dataset.avsc's namespace.
func avroName(name string) string {
	if strings.Contains(name, ".") {
		return name
	}
	return "serbench." + name
}

// collect records the named types defined in s.
func (w avroWalk) collect(s any) {
	switch s := s.(type) {
	case []any:
		for _, b := range s {
			w.collect(b)
		}
	case map[string]any:
		if name, ok := s["name"].(string); ok {
			if ns, ok := s["namespace"].(string); ok && !strings.Contains(name, ".") {
				name = ns + "." + name
			}
			w.defs[avroName(name)] = s
		}
		for _, k := range []string{"type", "items", "values"} {
			if sub, ok := s[k]; ok {
				w.collect(sub)
			}
		}
		if fs, ok := s["fields"].([]any); ok {
			for _, f := range fs {
				w.collect(f.(map[string]any)["type"])
			}
		}
	}
}

// branchName is how goavro names a union's branch: a named type by its
// full name, a primitive by its own.
func (w avroWalk) branchName(s any) string {
	switch s := s.(type) {
	case string:
		if _, ok := w.defs[avroName(s)]; ok {
			return avroName(s)
		}
		return s
	case map[string]any:
		if name, ok := s["name"].(string); ok {
			return avroName(name)
		}
		if t, ok := s["type"].(string); ok {
			if lt, ok := s["logicalType"].(string); ok {
				return t + "." + lt
			}
			return t
		}
	}
	return fmt.Sprint(s)
}

func (w avroWalk) neutral(s any, n any) (Value, error) {
	switch s := s.(type) {
	case string:
		if d, ok := w.defs[avroName(s)]; ok {
			return w.neutral(d, n)
		}
		switch s {
		case "null":
			return Value{Kind: Nil}, nil
		case "boolean":
			return Value{Kind: Bool, Bool: n.(bool)}, nil
		case "int":
			return Value{Kind: Int, Int: big.NewInt(int64(n.(int32)))}, nil
		case "long":
			return Value{Kind: Int, Int: big.NewInt(n.(int64))}, nil
		case "float":
			return Value{Kind: Float32, Bits: uint64(math.Float32bits(n.(float32)))}, nil
		case "double":
			return Value{Kind: Float, Bits: math.Float64bits(n.(float64))}, nil
		case "bytes":
			return Value{Kind: Bytes, Bytes: slices.Clone(n.([]byte))}, nil
		case "string":
			return Value{Kind: Str, Bytes: []byte(n.(string))}, nil
		}
	case []any:
		if n == nil {
			return Value{Kind: Nil}, nil
		}
		for name, x := range n.(map[string]any) {
			for _, b := range s {
				if w.branchName(b) == name {
					return w.neutral(b, x)
				}
			}
			return Value{}, fmt.Errorf("interop: no branch %s in union %v", name, s)
		}
	case map[string]any:
		if t, ok := n.(time.Time); ok {
			return Value{Kind: Time, Sec: t.Unix(), Nsec: t.Nanosecond(), Offset: new(int)}, nil
		}
		switch s["type"] {
		case "record":
			out := Value{Kind: Map, Pairs: []Pair{}}
			rec := n.(map[string]any)
			for _, f := range s["fields"].([]any) {
				f := f.(map[string]any)
				name := f["name"].(string)
				v, err := w.neutral(f["type"], rec[name])
				if err != nil {
					return Value{}, fmt.Errorf("%s: %w", name, err)
				}
				out.Pairs = append(out.Pairs, Pair{Value{Kind: Str, Bytes: []byte(name)}, v})
			}
			return out, nil
		case "array":
			out := Value{Kind: Array, Elems: []Value{}}
			for _, x := range n.([]any) {
				v, err := w.neutral(s["items"], x)
				if err != nil {
					return Value{}, err
				}
				out.Elems = append(out.Elems, v)
			}
			return out, nil
		case "map":
			out := Value{Kind: Map, Pairs: []Pair{}}
			for k, x := range n.(map[string]any) {
				v, err := w.neutral(s["values"], x)
				if err != nil {
					return Value{}, err
				}
				out.Pairs = append(out.Pairs, Pair{Value{Kind: Str, Bytes: []byte(k)}, v})
			}
			slices.SortFunc(out.Pairs, func(a, b Pair) int { return strings.Compare(a.Key.String(), b.Key.String()) })
			return out, nil
		case "fixed":
			return Value{Kind: Bytes, Bytes: slices.Clone(n.([]byte))}, nil
		case "enum":
			return Value{Kind: Str, Bytes: []byte(n.(string))}, nil
		}
		return w.neutral(s["type"], n)
	}
	return Value{}, fmt.Errorf("interop: no neutral value for Avro's %v", s)
}

// sameNeutral says how got, a peer's reading, differs from want, the
// datum written: nil when it is the same datum. A map's entries are
// matched by key, in any order; a JavaScript number stands for the
// integer or float it equals; a time is its instant. A reading of
// another kind is a *mismatch.
func sameNeutral(want, got Value, path string) error {
	at := func(err error) error {
		if path == "" {
			return err
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	if got.Kind == Num && (want.Kind == Int || want.Kind == Float || want.Kind == Float32) {
		switch want.Kind {
		case Int:
			if i, err := integer(got); err == nil && i.Cmp(want.Int) == 0 {
				return nil
			}
		default:
			if got.Float64() == want.Float64() || math.IsNaN(got.Float64()) && math.IsNaN(want.Float64()) {
				return nil
			}
		}
		return at(fmt.Errorf("read %s where %s was written", got, want))
	}
	if got.Kind != want.Kind {
		return at(&mismatch{got, want.String() + " (" + string(want.Kind) + ")"})
	}
	switch want.Kind {
	case Bool:
		if got.Bool != want.Bool {
			return at(fmt.Errorf("read %s where %s was written", got, want))
		}
	case Int:
		if got.Int.Cmp(want.Int) != 0 {
			return at(fmt.Errorf("read %s where %s was written", got, want))
		}
	case Float, Float32:
		if got.Bits != want.Bits {
			return at(fmt.Errorf("read %s where %s was written", got, want))
		}
	case Str, Bytes:
		if !bytes.Equal(got.Bytes, want.Bytes) {
			return at(fmt.Errorf("read %s where %s was written", got, want))
		}
	case Time:
		if !got.goTime().Equal(want.goTime()) {
			return at(fmt.Errorf("read %s where %s was written", got, want))
		}
	case Array:
		if len(got.Elems) != len(want.Elems) {
			return at(fmt.Errorf("read %d elements where %d were written", len(got.Elems), len(want.Elems)))
		}
		for i := range want.Elems {
			if err := sameNeutral(want.Elems[i], got.Elems[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case Map:
		if len(got.Pairs) != len(want.Pairs) {
			return at(fmt.Errorf("read %d entries where %d were written", len(got.Pairs), len(want.Pairs)))
		}
		for _, wp := range want.Pairs {
			i := slices.IndexFunc(got.Pairs, func(p Pair) bool { return sameNeutral(wp.Key, p.Key, "") == nil })
			if i < 0 {
				return at(fmt.Errorf("read no entry %s", wp.Key))
			}
			if err := sameNeutral(wp.Value, got.Pairs[i].Value, path+"."+wp.Key.String()); err != nil {
				return err
			}
		}
	}
	return nil
}
