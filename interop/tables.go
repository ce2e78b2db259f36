package interop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/serbench/serbench/codec"
	capnpschema "github.com/serbench/serbench/codecs/capnp/schema"
	fbschema "github.com/serbench/serbench/codecs/flatbuffers/schema"
)

// FlatBuffers' and Cap'n Proto's cases cross as tables (structs) of the
// project's schemas, serbench.fbs and serbench.capnp, which the Go codecs'
// generated code was made from. Neither's generated Go code describes its
// tables (FlatBuffers' has accessors only; capnpc-go's names differ from
// the schema's), so the study reads the schema file itself: each table's
// fields in declaration order, which is the order of the dataset type's
// fields the table was written for (serbench.fbs and serbench.capnp say
// so), and each field's type. A case's neutral form is its table: a map
// of its fields by their names in the schema, a time the Timestamp table
// of its UTC instant ({seconds, nanos}), a Go map a list of {key, value}
// entries sorted by key, an absent pointer, slice, map or string pointer
// left out. Cap'n Proto's optional scalar is a union of none and value:
// {"value": x}, or {"none": nil} when absent.
//
// The FlatBuffers peers read and write the tables generically, from the
// schema as the header gives it (tableSchema.peerJSON: each field's slot,
// type and, for a struct, offset), through their libraries' Builder and
// Table, so that no generated code of theirs is committed; pycapnp loads
// serbench.capnp itself (Go's annotations left out).

// A tableType is a table or struct of a schema.
type tableType struct {
	Name   string
	Struct bool // a FlatBuffers struct: inline, fixed layout
	Fields []tableField
}

// A tableField is one field: its name in the schema, its type, and
// whether it is an optional scalar (FlatBuffers' "= null", Cap'n Proto's
// union of none and value).
type tableField struct {
	Name     string
	Type     fieldType
	Optional bool
}

// A fieldType is a scalar's name as the peers know it (long, int, ulong,
// double, bool, string, bytes), a vector of Elem, or a table or struct
// named Ref.
type fieldType struct {
	Base string // a scalar's name, "vector", "table" or "struct"
	Elem *fieldType
	Ref  string
}

// A tableSchema is a schema's tables by name.
type tableSchema struct {
	file   string
	types  map[string]*tableType
	union  bool // optional scalars are unions (Cap'n Proto)
	layout bool // structs have a fixed layout the peers need (FlatBuffers)
}

var fbsScalars = map[string]string{"long": "long", "int64": "long", "int": "int", "int32": "int",
	"ulong": "ulong", "uint64": "ulong", "double": "double", "float64": "double", "bool": "bool", "string": "string"}

var capnpScalars = map[string]string{"Int64": "long", "Int32": "int", "UInt64": "ulong", "Float64": "double",
	"Bool": "bool", "Text": "string", "Data": "bytes"}

// flatSchema is serbench.fbs, parsed.
var flatSchema = sync.OnceValue(func() *tableSchema {
	s, err := parseFBS(fbschema.Text)
	if err != nil {
		panic(err) // the schema the Go code was generated from
	}
	return s
})

// capnpSchema is serbench.capnp, parsed.
var capnpSchema = sync.OnceValue(func() *tableSchema {
	s, err := parseCapnp(capnpschema.Text)
	if err != nil {
		panic(err)
	}
	return s
})

var (
	fbsOpen   = regexp.MustCompile(`^(table|struct)\s+(\w+)\s*\{(.*)$`)
	fbsField  = regexp.MustCompile(`^(\w+)\s*:\s*(\[?\w+\]?)\s*(\([^)]*\))?\s*(=\s*([^;\s]+))?\s*;`)
	capOpen   = regexp.MustCompile(`^struct\s+(\w+)\s*\{(.*)$`)
	capField  = regexp.MustCompile(`^(\w+)\s+@\d+\s*:\s*([\w()]+)\s*;`)
	capUnion  = regexp.MustCompile(`^(\w+)\s*:union\s*\{$`)
	commentRE = regexp.MustCompile(`(//|#).*$`)
)

// parseFBS reads the tables and structs of a FlatBuffers schema (the
// subset serbench.fbs uses: scalars, strings, vectors, tables, structs,
// "= null").
func parseFBS(text string) (*tableSchema, error) {
	s := &tableSchema{file: SchemaFlat, types: map[string]*tableType{}, layout: true}
	var cur *tableType
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(commentRE.ReplaceAllString(sc.Text(), ""))
		if strings.HasPrefix(line, "namespace") || strings.HasPrefix(line, "root_type") {
			continue
		}
		if m := fbsOpen.FindStringSubmatch(line); m != nil {
			cur = &tableType{Name: m[2], Struct: m[1] == "struct"}
			s.types[cur.Name] = cur
			line = strings.TrimSpace(m[3])
		}
		for line != "" {
			if rest, ok := strings.CutPrefix(line, "}"); ok {
				cur, line = nil, strings.TrimSpace(rest)
				continue
			}
			f := fbsField.FindStringSubmatch(line)
			if f == nil || cur == nil {
				return nil, fmt.Errorf("%s:%d: not a field this study reads: %q", SchemaFlat, n, line)
			}
			line = strings.TrimSpace(line[len(f[0]):])
			t := f[2]
			var ft fieldType
			if strings.HasPrefix(t, "[") {
				e := fbsType(strings.Trim(t, "[]"))
				if e.Base == "ubyte" {
					ft = fieldType{Base: "bytes"}
				} else {
					ft = fieldType{Base: "vector", Elem: &e}
				}
			} else {
				ft = fbsType(t)
			}
			cur.Fields = append(cur.Fields, tableField{Name: f[1], Type: ft, Optional: f[5] == "null"})
		}
	}
	return s, s.resolve()
}

func fbsType(t string) fieldType {
	if b, ok := fbsScalars[t]; ok {
		return fieldType{Base: b}
	}
	if t == "ubyte" {
		return fieldType{Base: "ubyte"}
	}
	return fieldType{Base: "table", Ref: t}
}

// parseCapnp reads the structs of a Cap'n Proto schema (the subset
// serbench.capnp uses: scalars, Text, Data, List, structs, and a union
// of none and value for an optional scalar).
func parseCapnp(text string) (*tableSchema, error) {
	s := &tableSchema{file: SchemaCapnp, types: map[string]*tableType{}, union: true}
	var cur *tableType
	var union *tableField
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(commentRE.ReplaceAllString(sc.Text(), ""))
		if m := capOpen.FindStringSubmatch(line); m != nil {
			cur = &tableType{Name: m[1]}
			s.types[cur.Name] = cur
			line = strings.TrimSpace(m[2])
		}
		for line != "" {
			switch {
			case strings.HasPrefix(line, "@0x") || strings.HasPrefix(line, "using ") || strings.HasPrefix(line, "$"):
				line = ""
			case strings.HasPrefix(line, "}"):
				if union != nil {
					cur.Fields = append(cur.Fields, *union)
					union = nil
				} else {
					cur = nil
				}
				line = strings.TrimSpace(line[1:])
			case capUnion.MatchString(line):
				union = &tableField{Name: capUnion.FindStringSubmatch(line)[1], Optional: true}
				line = ""
			default:
				f := capField.FindStringSubmatch(line)
				if f == nil || cur == nil {
					return nil, fmt.Errorf("%s:%d: not a field this study reads: %q", SchemaCapnp, n, line)
				}
				line = strings.TrimSpace(line[len(f[0]):])
				ft := capnpType(f[2])
				switch {
				case union != nil && f[1] == "value":
					union.Type = ft
				case union != nil && f[1] != "none":
					return nil, fmt.Errorf("%s:%d: a union other than none and value", SchemaCapnp, n)
				case union == nil:
					cur.Fields = append(cur.Fields, tableField{Name: f[1], Type: ft})
				}
			}
		}
	}
	return s, s.resolve()
}

func capnpType(t string) fieldType {
	if b, ok := capnpScalars[t]; ok {
		return fieldType{Base: b}
	}
	if e, ok := strings.CutPrefix(t, "List("); ok {
		et := capnpType(strings.TrimSuffix(e, ")"))
		return fieldType{Base: "vector", Elem: &et}
	}
	if t == "Void" {
		return fieldType{Base: "void"}
	}
	return fieldType{Base: "table", Ref: t}
}

// resolve marks each reference to a struct as one, and checks that every
// reference names a type of the schema.
func (s *tableSchema) resolve() error {
	var fix func(t *fieldType) error
	fix = func(t *fieldType) error {
		if t.Elem != nil {
			return fix(t.Elem)
		}
		if t.Base != "table" {
			return nil
		}
		r, ok := s.types[t.Ref]
		if !ok {
			return fmt.Errorf("%s: no type %s", s.file, t.Ref)
		}
		if r.Struct {
			t.Base = "struct"
		}
		return nil
	}
	for _, tt := range s.types {
		for i := range tt.Fields {
			if err := fix(&tt.Fields[i].Type); err != nil {
				return err
			}
		}
	}
	return nil
}

// peerJSON is the schema as the FlatBuffers peers read it: each table's
// fields in slot order, each with its type ("long", ["vector", T],
// ["table", NAME], ["struct", NAME]) and whether it is optional; each
// struct's size, alignment and fields' offsets.
func (s *tableSchema) peerJSON() []byte {
	type pf struct {
		Name     string `json:"name"`
		Type     any    `json:"type"`
		Optional bool   `json:"optional,omitempty"`
		Offset   int    `json:"offset,omitempty"`
	}
	type pt struct {
		Struct bool `json:"struct,omitempty"`
		Size   int  `json:"size,omitempty"`
		Align  int  `json:"align,omitempty"`
		Fields []pf `json:"fields"`
	}
	var enc func(t fieldType) any
	enc = func(t fieldType) any {
		switch t.Base {
		case "vector":
			return []any{"vector", enc(*t.Elem)}
		case "table", "struct":
			return []any{t.Base, t.Ref}
		}
		return t.Base
	}
	out := map[string]pt{}
	for name, tt := range s.types {
		p := pt{Struct: tt.Struct, Fields: []pf{}}
		off := 0
		for _, f := range tt.Fields {
			field := pf{Name: f.Name, Type: enc(f.Type), Optional: f.Optional}
			if tt.Struct {
				size := scalarSize[f.Type.Base]
				off = (off + size - 1) / size * size
				field.Offset = off
				off += size
				p.Align = max(p.Align, size)
			}
			p.Fields = append(p.Fields, field)
		}
		if tt.Struct {
			p.Size = (off + p.Align - 1) / p.Align * p.Align
		}
		out[name] = p
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err)
	}
	return b
}

var scalarSize = map[string]int{"long": 8, "ulong": 8, "double": 8, "int": 4, "bool": 1}

// capnpPeerSchema is Cap'n Proto's schema as its peers read it:
// {"text": serbench.capnp as pycapnp loads it, without the annotations and
// import of capnpc-go's go.capnp, which only Go's generator reads;
// "tables": its structs as peerJSON gives them, which the Node peer walks
// its generated classes by}.
func capnpPeerSchema() []byte {
	var text strings.Builder
	for _, line := range strings.SplitAfter(capnpschema.Text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "using Go") || strings.HasPrefix(t, "$Go.") {
			continue
		}
		text.WriteString(line)
	}
	b, err := json.Marshal(map[string]any{"text": text.String(), "tables": json.RawMessage(capnpSchema().peerJSON())})
	if err != nil {
		panic(err)
	}
	return b
}

// bind binds v, a pointer to a dataset value, to its table of the
// schema: the table named as its Go type, or says that there is none.
func (s *tableSchema) bind(v any) (binding, error) {
	t := reflect.TypeOf(v).Elem()
	tt, ok := s.types[t.Name()]
	if t.Kind() != reflect.Struct || !ok || tt.Struct || len(tt.Fields) != t.NumField() {
		return binding{}, codec.Unsupported(v, "%s has no table for %s", s.file, t)
	}
	ft := fieldType{Base: "table", Ref: tt.Name}
	want, _, err := s.neutral(reflect.ValueOf(v).Elem(), ft)
	if err != nil {
		return binding{}, codec.Unsupported(v, "%s", err)
	}
	return binding{
		typ:  tt.Name,
		want: want,
		into: func(read Value) (any, error) {
			out := reflect.New(t).Elem()
			if err := s.into(read, out, ft); err != nil {
				return nil, err
			}
			return out.Interface(), nil
		},
	}, nil
}

func fieldName(s string) Value { return Value{Kind: Str, Bytes: []byte(s)} }

// neutral returns v's neutral form as the schema's type t holds it; ok is
// false for a value the table leaves out (a nil pointer, slice or map).
func (s *tableSchema) neutral(v reflect.Value, t fieldType) (Value, bool, error) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return Value{}, false, nil
		}
		return s.neutral(v.Elem(), t)
	case reflect.Slice, reflect.Map:
		if v.IsNil() {
			return Value{}, false, nil
		}
	}
	switch t.Base {
	case "table", "struct":
		tt := s.types[t.Ref]
		if v.Type() == timeType {
			u := v.Interface().(time.Time).UTC()
			return Value{Kind: Map, Pairs: []Pair{
				{fieldName(tt.Fields[0].Name), Value{Kind: Int, Int: big.NewInt(u.Unix())}},
				{fieldName(tt.Fields[1].Name), Value{Kind: Int, Int: big.NewInt(int64(u.Nanosecond()))}}}}, true, nil
		}
		if v.Kind() != reflect.Struct || v.NumField() != len(tt.Fields) {
			return Value{}, false, fmt.Errorf("%s's %s does not hold a %s", s.file, tt.Name, v.Type())
		}
		out := Value{Kind: Map, Pairs: []Pair{}}
		for i, f := range tt.Fields {
			n, ok, err := s.neutral(v.Field(i), f.Type)
			if err != nil {
				return Value{}, false, fmt.Errorf("%s: %w", f.Name, err)
			}
			if f.Optional && s.union {
				if ok {
					n = Value{Kind: Map, Pairs: []Pair{{fieldName("value"), n}}}
				} else {
					n, ok = Value{Kind: Map, Pairs: []Pair{{fieldName("none"), Value{Kind: Nil}}}}, true
				}
			}
			if ok {
				out.Pairs = append(out.Pairs, Pair{fieldName(f.Name), n})
			}
		}
		return out, true, nil
	case "vector":
		out := Value{Kind: Array, Elems: []Value{}}
		if v.Kind() == reflect.Map {
			entry := s.types[t.Elem.Ref]
			for it := v.MapRange(); it.Next(); {
				k, _, err := s.neutral(it.Key(), entry.Fields[0].Type)
				if err != nil {
					return Value{}, false, err
				}
				e, ok, err := s.neutral(it.Value(), entry.Fields[1].Type)
				if err != nil {
					return Value{}, false, err
				}
				pairs := []Pair{{fieldName(entry.Fields[0].Name), k}}
				if ok {
					pairs = append(pairs, Pair{fieldName(entry.Fields[1].Name), e})
				}
				out.Elems = append(out.Elems, Value{Kind: Map, Pairs: pairs})
			}
			slices.SortFunc(out.Elems, func(a, b Value) int { return bytes.Compare(a.Pairs[0].Value.Bytes, b.Pairs[0].Value.Bytes) })
			return out, true, nil
		}
		if v.Kind() != reflect.Slice {
			return Value{}, false, fmt.Errorf("a vector does not hold a %s", v.Type())
		}
		for i := range v.Len() {
			e, ok, err := s.neutral(v.Index(i), *t.Elem)
			if err != nil {
				return Value{}, false, err
			}
			if !ok {
				return Value{}, false, fmt.Errorf("a vector cannot hold a nil element")
			}
			out.Elems = append(out.Elems, e)
		}
		return out, true, nil
	case "bytes":
		if v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Uint8 {
			return Value{}, false, fmt.Errorf("bytes do not hold a %s", v.Type())
		}
		return Value{Kind: Bytes, Bytes: bytes.Clone(v.Bytes())}, true, nil
	case "string":
		if v.Kind() != reflect.String {
			return Value{}, false, fmt.Errorf("a string does not hold a %s", v.Type())
		}
		return Value{Kind: Str, Bytes: []byte(v.String())}, true, nil
	case "bool":
		return Value{Kind: Bool, Bool: v.Bool()}, true, nil
	case "double":
		return Value{Kind: Float, Bits: math.Float64bits(v.Float())}, true, nil
	case "long", "int":
		if v.CanInt() {
			return Value{Kind: Int, Int: big.NewInt(v.Int())}, true, nil
		}
	case "ulong":
		if v.CanUint() {
			return Value{Kind: Int, Int: new(big.Int).SetUint64(v.Uint())}, true, nil
		}
	}
	return Value{}, false, fmt.Errorf("a %s does not hold a %s", t.Base, v.Type())
}

// into sets v, a dataset value, from n, a peer's reading of the schema's
// type t: the value a Go program gets from it (an absent field its zero
// value, a time in UTC). An error says how the reading differs in kind
// from what the schema holds.
func (s *tableSchema) into(n Value, v reflect.Value, t fieldType) error {
	if v.Kind() == reflect.Pointer {
		e := reflect.New(v.Type().Elem())
		if err := s.into(n, e.Elem(), t); err != nil {
			return err
		}
		v.Set(e)
		return nil
	}
	switch t.Base {
	case "table", "struct":
		if n.Kind != Map {
			return &mismatch{n, "a table"}
		}
		tt := s.types[t.Ref]
		field := func(name string) (Value, bool) {
			for _, p := range n.Pairs {
				if p.Key.Kind == Str && string(p.Key.Bytes) == name {
					return p.Value, true
				}
			}
			return Value{}, false
		}
		for _, p := range n.Pairs {
			if p.Key.Kind != Str || !slices.ContainsFunc(tt.Fields, func(f tableField) bool { return f.Name == string(p.Key.Bytes) }) {
				return fmt.Errorf("read a field %s that %s does not have", p.Key.String(), tt.Name)
			}
		}
		if v.Type() == timeType {
			sec, _ := field(tt.Fields[0].Name)
			ns, _ := field(tt.Fields[1].Name)
			si, err1 := integerOr0(sec)
			ni, err2 := integerOr0(ns)
			if err1 != nil || err2 != nil {
				return &mismatch{n, "a Timestamp"}
			}
			v.Set(reflect.ValueOf(time.Unix(si, ni).UTC()))
			return nil
		}
		for i, f := range tt.Fields {
			e, ok := field(f.Name)
			if !ok {
				continue
			}
			if f.Optional && s.union {
				if e.Kind != Map || len(e.Pairs) != 1 {
					return fmt.Errorf("%s: %w", f.Name, &mismatch{e, "a union of none and value"})
				}
				if string(e.Pairs[0].Key.Bytes) == "none" {
					continue
				}
				e = e.Pairs[0].Value
			}
			if err := s.into(e, v.Field(i), f.Type); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
		}
	case "vector":
		if n.Kind != Array {
			return &mismatch{n, "a vector"}
		}
		if v.Kind() == reflect.Map {
			entry := s.types[t.Elem.Ref]
			m := reflect.MakeMapWithSize(v.Type(), len(n.Elems))
			for _, e := range n.Elems {
				k, x := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				if e.Kind != Map {
					return &mismatch{e, "an entry table"}
				}
				for _, p := range e.Pairs {
					switch string(p.Key.Bytes) {
					case entry.Fields[0].Name:
						if err := s.into(p.Value, k, entry.Fields[0].Type); err != nil {
							return fmt.Errorf("a key: %w", err)
						}
					case entry.Fields[1].Name:
						if err := s.into(p.Value, x, entry.Fields[1].Type); err != nil {
							return fmt.Errorf("an entry's value: %w", err)
						}
					default:
						return fmt.Errorf("read a field %s that %s does not have", p.Key.String(), entry.Name)
					}
				}
				m.SetMapIndex(k, x)
			}
			v.Set(m)
			return nil
		}
		sl := reflect.MakeSlice(v.Type(), len(n.Elems), len(n.Elems))
		for i, e := range n.Elems {
			if err := s.into(e, sl.Index(i), *t.Elem); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		v.Set(sl)
	case "bytes":
		if n.Kind != Bytes {
			return &mismatch{n, "bytes"}
		}
		v.SetBytes(bytes.Clone(n.Bytes))
	case "string":
		if n.Kind != Str {
			return &mismatch{n, "a string"}
		}
		v.SetString(string(n.Bytes))
	case "bool":
		if n.Kind != Bool {
			return &mismatch{n, "a bool"}
		}
		v.SetBool(n.Bool)
	case "double":
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
		switch {
		case v.CanInt() && i.IsInt64() && !v.OverflowInt(i.Int64()):
			v.SetInt(i.Int64())
		case v.CanUint() && i.IsUint64() && !v.OverflowUint(i.Uint64()):
			v.SetUint(i.Uint64())
		default:
			return fmt.Errorf("read %s, past the %s", i, v.Type())
		}
	}
	return nil
}

// integerOr0 is n's integer, 0 for an absent field (the zero Value).
func integerOr0(n Value) (int64, error) {
	if n.Kind == "" {
		return 0, nil
	}
	i, err := integer(n)
	if err != nil || !i.IsInt64() {
		return 0, fmt.Errorf("not an int64")
	}
	return i.Int64(), nil
}
