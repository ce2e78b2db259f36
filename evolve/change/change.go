// Package change holds the schema changes of the evolution study as data:
// each a Case with the schema before and after (two Versions), the value
// each version writes, and what a reader of the other version should read
// (Want). Package evolve runs them; the Protobuf schemas of package
// evolve/pb are generated from them (evolve/internal/genproto).
package change

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// A Kind is the type of a field, in words every format's schema maps.
type Kind string

// The kinds.
const (
	Int32   Kind = "int32"
	Int64   Kind = "int64"
	Sint32  Kind = "sint32" // a zigzag-encoded int32 where the format has one
	Uint32  Kind = "uint32"
	Double  Kind = "double"
	String  Kind = "string"
	Bytes   Kind = "bytes"
	Bool    Kind = "bool"
	Strings Kind = "[]string"
	Int32s  Kind = "[]int32" // packed where the format packs
	Map     Kind = "map<string,int64>"
	Pairs   Kind = "[]pair" // a list of Pair, a map's entries as a list
	Enum    Kind = "enum"
	Nested  Kind = "inner" // a nested record: Inner
)

// A Pair is one entry of a Pairs field: a map entry as a record.
type Pair struct {
	Key   string `json:"key"`
	Value int64  `json:"value"`
}

// Inner is the value of a Nested field.
type Inner struct {
	ID  int64  `json:"id"`
	Tag string `json:"tag"`
}

// A Field is one field of a Version's schema.
type Field struct {
	// Name is the field's name in the schema, snake_case.
	Name string
	// ID says which field of the other version is the same field: a
	// renamed or renumbered field keeps its ID. Empty means Name.
	ID string
	// Num is its number, where the format numbers fields (Protobuf).
	Num  int
	Kind Kind
	// Required: the reader fails without it (Protobuf 2's required; an
	// Avro field without a default).
	Required bool
	// Optional: the field may be absent (Avro: a union with null, null by
	// default).
	Optional bool
	// Default is the value the reader sees when the field is absent, where
	// the format has defaults (Protobuf 2, Avro); nil: the zero value.
	Default any
	// Oneof names the oneof (Protobuf) or union the field belongs to.
	Oneof string
	// Symbols are an Enum's values, numbered from 0.
	Symbols []string
}

// Key returns the field's identity across versions: ID, or Name.
func (f Field) Key() string {
	if f.ID != "" {
		return f.ID
	}
	return f.Name
}

// A Record is a value of a Version: each field's value by the field's Key,
// in the canonical Go form of its Kind (Canonical); an absent key is a
// field not set.
type Record map[string]any

// A Version is one side of a change: its schema and the value it writes.
type Version struct {
	Name   string // "v1", "v2"
	Fields []Field
	Data   Record
	// Proto2 says the Protobuf schema of this case uses proto2 syntax
	// (required fields, defaults); proto3 otherwise.
	Proto2 bool
}

// Field returns the field whose Key is key, and whether there is one.
func (v Version) Field(key string) (Field, bool) {
	i := slices.IndexFunc(v.Fields, func(f Field) bool { return f.Key() == key })
	if i < 0 {
		return Field{}, false
	}
	return v.Fields[i], true
}

// Families a case may not apply to, by Case.NA's keys.
const (
	GoTypes = "go"    // reflection codecs, with two Go types
	Proto   = "proto" // Protobuf, with two .proto schemas
	Avro    = "avro"  // Avro, with writer and reader schemas
	// FlatBuffers, with two .fbs schemas.
	FlatBuffers = "flatbuffers"
	// CapnProto is Cap'n Proto, with two .capnp schemas.
	CapnProto = "capnp"
)

// A Case is one schema change: the schema before (Old) and after (New).
type Case struct {
	Name string
	Doc  string
	Old  Version
	New  Version
	// Reencode: the reader re-encodes what it read, and a reader of the
	// writer's version reads that: what unknown fields survive.
	Reencode bool
	// Buf names the buf breaking-change rules that flag the change
	// (buf's rule names); none when buf accepts it.
	Buf []string
	// NA says, per family, why the case cannot be expressed in it.
	NA map[string]string
}

// A Direction says which version reads which version's data.
type Direction string

// The two directions: an old reader on new data (forward compatibility)
// and a new reader on old data (backward compatibility).
const (
	OldReadsNew Direction = "old-reads-new"
	NewReadsOld Direction = "new-reads-old"
)

// Directions lists both, in matrix order.
var Directions = []Direction{OldReadsNew, NewReadsOld}

// Sides returns the writer and the reader of the case in direction d.
func (c *Case) Sides(d Direction) (writer, reader Version) {
	if d == OldReadsNew {
		return c.New, c.Old
	}
	return c.Old, c.New
}

// Version returns the version of the case named name: "v1" is Old, any
// other New.
func (c *Case) Version(name string) Version {
	if name == c.Old.Name {
		return c.Old
	}
	return c.New
}

// Lookup returns the case named name.
func Lookup(name string) (*Case, error) {
	for i := range Cases {
		if Cases[i].Name == name {
			return &Cases[i], nil
		}
	}
	return nil, fmt.Errorf("evolve: unknown case %q; see serbench list cases", name)
}

// Names returns the names of the cases in order.
func Names() []string {
	var names []string
	for _, c := range Cases {
		names = append(names, c.Name)
	}
	return names
}

// None marks a field of a Want with no faithful value: the value written
// cannot be held by the reader's field, or a required field is missing.
type None struct {
	Why   string
	Wrote any // the writer's value; nil for a missing field
}

// Want returns what a reader of version r should read from data d written
// by version w: each of r's fields holds the value of w's field of the
// same Key converted to its Kind, or, absent, its default or zero value;
// a field without a faithful value holds a None. Fields are by r's Keys.
func Want(w Version, d Record, r Version) Record {
	out := Record{}
	for _, f := range r.Fields {
		g, ok := w.Field(f.Key())
		v, set := d[f.Key()]
		if ok && !set && g.Default != nil {
			v, set = Canonical(g.Kind, g.Default), true
		}
		switch {
		case ok && set:
			cv, why := Convert(v, g, f)
			if why != "" {
				out[f.Key()] = None{Why: why, Wrote: v}
			} else {
				out[f.Key()] = cv
			}
		case f.Required:
			out[f.Key()] = None{Why: "the reader requires " + f.Name + ", which the writer did not write"}
		case f.Default != nil:
			out[f.Key()] = Canonical(f.Kind, f.Default)
		default:
			out[f.Key()] = Zero(f.Kind)
		}
	}
	return out
}

// Zero returns the canonical zero value of kind k.
func Zero(k Kind) any {
	switch k {
	case Int32, Int64, Sint32, Enum:
		return int64(0)
	case Uint32:
		return uint64(0)
	case Double:
		return float64(0)
	case String:
		return ""
	case Bytes:
		return []byte(nil)
	case Bool:
		return false
	case Strings:
		return []string(nil)
	case Int32s:
		return []int64(nil)
	case Map:
		return map[string]int64(nil)
	case Pairs:
		return []Pair(nil)
	case Nested:
		return Inner{}
	}
	panic("evolve/change: no kind " + string(k))
}

// Canonical returns v in the canonical form of kind k: int64 for every
// signed integer and an enum's number, uint64 for unsigned ones, float64,
// string, []byte (nil when empty), bool, []string and []int64 and []Pair
// (nil when empty), map[string]int64 (nil when empty), Inner.
func Canonical(k Kind, v any) any {
	switch x := v.(type) {
	case int:
		return Canonical(k, int64(x))
	case int32:
		return int64(x)
	case uint32:
		return uint64(x)
	case float32:
		return float64(x)
	case []byte:
		if len(x) == 0 {
			return []byte(nil)
		}
	case []string:
		if len(x) == 0 {
			return []string(nil)
		}
	case []int32:
		if len(x) == 0 {
			return []int64(nil)
		}
		out := make([]int64, len(x))
		for i, n := range x {
			out[i] = int64(n)
		}
		return out
	case []int64:
		if len(x) == 0 {
			return []int64(nil)
		}
	case []Pair:
		if len(x) == 0 {
			return []Pair(nil)
		}
	case map[string]int64:
		if len(x) == 0 {
			return map[string]int64(nil)
		}
	}
	if k == Uint32 {
		if n, ok := v.(int64); ok && n >= 0 {
			return uint64(n)
		}
	}
	return v
}

// Convert converts v, the canonical value of writer field g, to reader
// field f's kind, or says why f cannot hold it.
func Convert(v any, g, f Field) (any, string) {
	if g.Kind == f.Kind {
		// An enum's number carries over, named by the reader or not: the
		// reader can keep it and write it back (Protobuf 3's open enums).
		return v, ""
	}
	n, isInt := asInt(v)
	switch f.Kind {
	case Int32, Sint32, Enum:
		if isInt && n >= math.MinInt32 && n <= math.MaxInt32 {
			return int64(n), ""
		}
		if isInt {
			return nil, fmt.Sprintf("%d is out of the range of %s", n, f.Kind)
		}
	case Int64:
		if isInt && (n >= 0 || g.Kind != Uint32) {
			return int64(n), ""
		}
	case Uint32:
		if isInt && n >= 0 && n <= math.MaxUint32 {
			return uint64(n), ""
		}
		if isInt {
			return nil, fmt.Sprintf("%d is out of the range of uint32", n)
		}
	case Double:
		if isInt && n >= -1<<53 && n <= 1<<53 {
			return float64(n), ""
		}
	case Bytes:
		if s, ok := v.(string); ok {
			return Canonical(Bytes, []byte(s)), ""
		}
	case String:
		if b, ok := v.([]byte); ok {
			if !utf8.Valid(b) {
				return nil, fmt.Sprintf("%q is not UTF-8", b)
			}
			return string(b), ""
		}
	case Strings:
		if s, ok := v.(string); ok {
			return []string{s}, ""
		}
	case Int32s:
		if isInt {
			return []int64{n}, ""
		}
	case Map:
		if ps, ok := v.([]Pair); ok {
			m := map[string]int64{}
			for _, p := range ps {
				m[p.Key] = p.Value
			}
			return Canonical(Map, m), ""
		}
	case Pairs:
		if m, ok := v.(map[string]int64); ok {
			var ps []Pair
			for _, k := range sortedKeys(m) {
				ps = append(ps, Pair{k, m[k]})
			}
			return ps, ""
		}
	}
	switch g.Kind {
	case Strings, Int32s:
		return nil, fmt.Sprintf("a %s of several values does not fit one %s", g.Kind, f.Kind)
	}
	return nil, fmt.Sprintf("a %s (%s) is not a %s", g.Kind, Show(v), f.Kind)
}

// asInt returns v as an integer, if it is one.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), true
		}
	}
	return 0, false
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Show formats a canonical value for a cell's detail.
func Show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []byte:
		return fmt.Sprintf("bytes %q", x)
	case []string:
		return fmt.Sprintf("%q", x)
	case None:
		return "(none: " + x.Why + ")"
	case Inner:
		return fmt.Sprintf("{id %d, tag %q}", x.ID, x.Tag)
	case map[string]int64:
		var parts []string
		for _, k := range sortedKeys(x) {
			parts = append(parts, fmt.Sprintf("%s:%d", k, x[k]))
		}
		return "map[" + strings.Join(parts, " ") + "]"
	}
	return fmt.Sprint(v)
}

// IsZero reports whether the canonical value v is its kind's zero.
func IsZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case int64:
		return x == 0
	case uint64:
		return x == 0
	case float64:
		return x == 0
	case string:
		return x == ""
	case bool:
		return !x
	case []byte:
		return len(x) == 0
	case []string:
		return len(x) == 0
	case []int64:
		return len(x) == 0
	case []Pair:
		return len(x) == 0
	case map[string]int64:
		return len(x) == 0
	case Inner:
		return x == Inner{}
	}
	return false
}

// TypeName is the name of the record, message or table of a case in
// every schema: its name in CamelCase, "int32-int64" is Int32Int64.
func TypeName(c string) string { return CamelCase(strings.ReplaceAll(c, "-", "_")) }

// GoName is a field's name in a Go type: CamelCase, with the initialism
// ID as Go writes it ("id" is ID).
func GoName(s string) string {
	if s == "id" {
		return "ID"
	}
	return CamelCase(s)
}

// CamelCase returns a snake_case name as an exported Go name: "full_name"
// is FullName.
func CamelCase(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
