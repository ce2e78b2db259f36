package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/thrift/schema"
	"github.com/serbench/serbench/dataset"
)

// Thrift's cases cross as structs of the project's schema (Model.Schema
// SchemaThrift): serbench.thrift, whose structs the Thrift compiler
// generated into package codecs/thrift/schema (scripts/check-generated
// keeps them fresh). Each case is sent with its struct and those it
// holds, self-contained, as the generated Go code has them (each field's
// id, name and Thrift type, from its `thrift` tag and Go type); the peers
// build their struct types from that at run time (Python's thrift_spec
// tuples of TBase, which `thrift --gen py:dynamic` would generate), so no
// generated code of theirs is committed and none can drift from the Go
// side's. The protocol the peer speaks is the one the column's Go codec
// writes (thriftProtocol).

// A thriftType is a Thrift type as the peers read it: a base type's name
// ("i64", "string", "binary"), or ["list", T], ["map", K, V] or
// ["struct", NAME].
type thriftType = any

// A thriftField is one field of a struct: its id, name and type, and
// whether it is optional.
type thriftField struct {
	ID       int        `json:"id"`
	Name     string     `json:"name"`
	Type     thriftType `json:"type"`
	Optional bool       `json:"optional,omitempty"`
}

// A thriftSpec is a case's struct and every struct it holds.
type thriftSpec struct {
	Root    string                   `json:"root"`
	Structs map[string][]thriftField `json:"structs"`
}

// thriftTag reads a generated field's `thrift:"name,id[,optional]"` tag.
func thriftTag(f reflect.StructField) (name string, id int, optional, ok bool) {
	tag, ok := f.Tag.Lookup("thrift")
	if !ok {
		return "", 0, false, false
	}
	parts := strings.Split(tag, ",")
	if len(parts) < 2 {
		return "", 0, false, false
	}
	id, err := strconv.Atoi(parts[1])
	if err != nil {
		return "", 0, false, false
	}
	return parts[0], id, slices.Contains(parts[2:], "optional"), true
}

// typeOf returns the Thrift type of a generated field's Go type, adding
// the structs it holds to s.
func (s *thriftSpec) typeOf(t reflect.Type) thriftType {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "bool"
	case reflect.Int8:
		return "byte"
	case reflect.Int16:
		return "i16"
	case reflect.Int32:
		return "i32"
	case reflect.Int64:
		return "i64"
	case reflect.Float64:
		return "double"
	case reflect.String:
		return "string"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "binary"
		}
		return []any{"list", s.typeOf(t.Elem())}
	case reflect.Map:
		return []any{"map", s.typeOf(t.Key()), s.typeOf(t.Elem())}
	case reflect.Struct:
		s.addStruct(t)
		return []any{"struct", t.Name()}
	}
	panic("interop: no Thrift type for the generated " + t.String())
}

func (s *thriftSpec) addStruct(t reflect.Type) {
	if _, ok := s.Structs[t.Name()]; ok {
		return
	}
	fields := []thriftField{}
	s.Structs[t.Name()] = fields
	for i := range t.NumField() {
		f := t.Field(i)
		name, id, opt, ok := thriftTag(f)
		if !ok {
			continue
		}
		fields = append(fields, thriftField{ID: id, Name: name, Type: s.typeOf(f.Type), Optional: opt})
	}
	s.Structs[t.Name()] = fields
}

// bindThrift binds v, a pointer to a dataset value, to its struct of
// serbench.thrift, or says why the schema has none.
func bindThrift(v any) (binding, error) {
	b, err := schema.Bind(v)
	if err != nil {
		return binding{}, err
	}
	t := reflect.TypeOf(b.Msg).Elem()
	spec := thriftSpec{Root: t.Name(), Structs: map[string][]thriftField{}}
	spec.addStruct(t)
	text, err := json.Marshal(spec)
	if err != nil {
		return binding{}, err
	}
	return binding{
		typ:  string(text),
		want: thriftNeutral(reflect.ValueOf(b.Msg)),
		into: func(read Value) (any, error) {
			m := b.New()
			if err := intoThrift(read, reflect.ValueOf(m).Elem()); err != nil {
				return nil, err
			}
			return reflect.ValueOf(b.Value(m)).Elem().Interface(), nil
		},
	}, nil
}

// thriftNeutral returns a generated value's neutral form, as the peers
// read theirs: a struct a map of its set fields by their names in the
// schema, in field order (a nil pointer, list, map or binary is unset: Go
// does not write it); a list an array; a map a map sorted by key.
func thriftNeutral(v reflect.Value) Value {
	switch v.Kind() {
	case reflect.Pointer:
		return thriftNeutral(v.Elem())
	case reflect.Struct:
		out := Value{Kind: Map, Pairs: []Pair{}}
		for i := range v.NumField() {
			name, _, _, ok := thriftTag(v.Type().Field(i))
			f := v.Field(i)
			if !ok || (f.Kind() == reflect.Pointer || f.Kind() == reflect.Slice || f.Kind() == reflect.Map) && f.IsNil() {
				continue
			}
			out.Pairs = append(out.Pairs, Pair{Value{Kind: Str, Bytes: []byte(name)}, thriftNeutral(f)})
		}
		return out
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return Value{Kind: Bytes, Bytes: bytes.Clone(v.Bytes())}
		}
		out := Value{Kind: Array, Elems: []Value{}}
		for i := range v.Len() {
			out.Elems = append(out.Elems, thriftNeutral(v.Index(i)))
		}
		return out
	case reflect.Map:
		out := Value{Kind: Map, Pairs: []Pair{}}
		for it := v.MapRange(); it.Next(); {
			out.Pairs = append(out.Pairs, Pair{thriftNeutral(it.Key()), thriftNeutral(it.Value())})
		}
		slices.SortFunc(out.Pairs, func(a, b Pair) int { return strings.Compare(a.Key.String(), b.Key.String()) })
		return out
	case reflect.Bool:
		return Value{Kind: Bool, Bool: v.Bool()}
	case reflect.String:
		return Value{Kind: Str, Bytes: []byte(v.String())}
	case reflect.Float64:
		return Value{Kind: Float, Bits: math.Float64bits(v.Float())}
	}
	return Value{Kind: Int, Int: big.NewInt(v.Int())}
}

// intoThrift sets v, a generated value, from n, a peer's reading in the
// form thriftNeutral gives: the value a Go program gets from it. An error
// says how the reading differs in kind from what the schema holds.
func intoThrift(n Value, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return intoThrift(n, v.Elem())
	case reflect.Struct:
		if n.Kind != Map {
			return &mismatch{n, "a struct"}
		}
		for _, p := range n.Pairs {
			if p.Key.Kind != Str {
				return &mismatch{p.Key, "a field name"}
			}
			i := slices.IndexFunc(reflect.VisibleFields(v.Type()), func(f reflect.StructField) bool {
				name, _, _, ok := thriftTag(f)
				return ok && name == string(p.Key.Bytes)
			})
			if i < 0 {
				return fmt.Errorf("read a field %s that %s does not have", p.Key.String(), v.Type().Name())
			}
			if err := intoThrift(p.Value, v.Field(i)); err != nil {
				return fmt.Errorf("%s: %w", p.Key.Bytes, err)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if n.Kind != Bytes {
				return &mismatch{n, "binary"}
			}
			v.SetBytes(bytes.Clone(n.Bytes))
			return nil
		}
		if n.Kind != Array {
			return &mismatch{n, "a list"}
		}
		s := reflect.MakeSlice(v.Type(), len(n.Elems), len(n.Elems))
		for i, e := range n.Elems {
			if err := intoThrift(e, s.Index(i)); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		v.Set(s)
	case reflect.Map:
		if n.Kind != Map {
			return &mismatch{n, "a map"}
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.Pairs))
		for _, p := range n.Pairs {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			if err := intoThrift(p.Key, k); err != nil {
				return fmt.Errorf("a key: %w", err)
			}
			if err := intoThrift(p.Value, e); err != nil {
				return fmt.Errorf("[%s]: %w", p.Key.String(), err)
			}
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Bool:
		if n.Kind != Bool {
			return &mismatch{n, "a bool"}
		}
		v.SetBool(n.Bool)
	case reflect.String:
		if n.Kind != Str {
			return &mismatch{n, "a string"}
		}
		v.SetString(string(n.Bytes))
	case reflect.Float64:
		switch n.Kind {
		case Float, Float32, Num:
			v.SetFloat(n.Float64())
		default:
			return &mismatch{n, "a double"}
		}
	default:
		i, err := integer(n)
		if err != nil {
			return &mismatch{n, "an integer"}
		}
		if !i.IsInt64() || v.OverflowInt(i.Int64()) {
			return fmt.Errorf("read %s, past the %s", i, v.Type())
		}
		v.SetInt(i.Int64())
	}
	return nil
}

// thriftProtocol returns the Thrift protocol info's encodings are in,
// "binary" or "compact", by what it writes of a small struct: the peer
// speaks that protocol. "" when it writes neither's bytes.
func thriftProtocol(info codec.Info) string {
	v := &dataset.Tiny{ID: 1, SomeStr: "a"}
	got, err := codec.GuardValue(func() ([]byte, error) {
		cs, err := info.New().Prepare(v)
		if err != nil {
			return nil, err
		}
		return cs.Encode()
	})
	b, berr := schema.Bind(v)
	if err != nil || berr != nil {
		return ""
	}
	for name, f := range map[string]thrift.TProtocolFactory{
		"binary":  thrift.NewTBinaryProtocolFactoryConf(nil),
		"compact": thrift.NewTCompactProtocolFactoryConf(nil),
	} {
		s := thrift.NewTSerializer()
		s.Protocol = f.GetProtocol(s.Transport)
		if want, err := s.Write(context.Background(), b.Msg); err == nil && bytes.Equal(got, want) {
			return name
		}
	}
	return ""
}
