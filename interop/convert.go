package interop

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/fidelity"
)

// A Model says how a format carries the Go types it has no type of its
// own for, the way the format's Go codecs and its peers agree on: JSON
// has no time, no bytes, no map key but a string and no NaN, so a time is
// its RFC 3339 text, bytes their base64 text, a key its decimal text.
type Model struct {
	TimeText  bool // a time.Time is its RFC 3339 text (time.RFC3339Nano)
	BytesText bool // a []byte is its standard base64 text
	KeysText  bool // an int or bool map key is its text
	NoNaN     bool // NaN and the infinities cannot be written
	// LowerFields says a struct's field is keyed by its name in
	// lowercase, as the format's Go codecs key it by default (BSON's,
	// YAML's).
	LowerFields bool
	// NoNull says the format has no null: a nil field is left out, as
	// its Go codecs leave it (TOML).
	NoNull bool
	// TopTable says a document is a table: a value that is not a struct
	// or a map at the top cannot be written (TOML).
	TopTable bool
	// Schema names the project's schema of a format whose codecs read
	// their own types (generated, or led by a schema): a case crosses as
	// its type of that schema, which the peers read too (a header of the
	// peer carries it), and the datasets the schema has types for are
	// the cases that cross. SchemaProto: serbench.proto's messages, the
	// peers' types built from its descriptor; SchemaAvro: dataset.avsc.
	Schema string
	// Tags are the struct tags whose names key a field in the Go
	// codec's encoding, the first a field has winning ("cbor", then
	// "json"); none keys it by its name. A property of the codec, not of
	// the format: each column sets it from what its codec writes
	// (KeyTags).
	Tags []string
}

// tagKeys are the struct tags a Go codec may key a field by.
var tagKeys = []string{"json", "yaml", "msgpack", "cbor", "bson", "toml", "codec"}

// KeyTags returns the struct tags a codec keys a field by, in the order
// it prefers them, as its encodings show: a struct whose one field has a
// distinct name under each tag not yet found, encoded until the codec
// writes none of them (it keys the field by its name then, or cannot
// encode it).
func KeyTags(encode func(v any) ([]byte, error)) []string {
	var found []string
	for len(found) < len(tagKeys) {
		var tags []string
		for _, t := range tagKeys {
			if !slices.Contains(found, t) {
				tags = append(tags, fmt.Sprintf(`%s:"tag%s"`, t, t))
			}
		}
		typ := reflect.StructOf([]reflect.StructField{{Name: "FieldGoName", Type: reflect.TypeFor[int](), Tag: reflect.StructTag(strings.Join(tags, " "))}})
		v := reflect.New(typ)
		v.Elem().Field(0).SetInt(1)
		b, err := encode(v.Interface())
		if err != nil {
			break
		}
		i := slices.IndexFunc(tagKeys, func(t string) bool { return !slices.Contains(found, t) && bytes.Contains(b, []byte("tag"+t)) })
		if i < 0 {
			break
		}
		found = append(found, tagKeys[i])
	}
	return found
}

// tagName is the name f's tag of key t gives it, or "".
func tagName(f reflect.StructField, t string) string {
	name, _, _ := strings.Cut(f.Tag.Get(t), ",")
	if name == "-" {
		return ""
	}
	return name
}

// structKey is the key of a struct field in model m: its tag's name, or
// its name as the model keys it.
func (m Model) structKey(f reflect.StructField) string {
	for _, t := range m.Tags {
		if n := tagName(f, t); n != "" {
			return n
		}
	}
	return m.fieldKey(f.Name)
}

// fieldKey is the key of a struct field in model m.
func (m Model) fieldKey(name string) string {
	if m.LowerFields {
		return strings.ToLower(name)
	}
	return name
}

// goTypes are the packages whose named types a case may hold: the probes'
// own, the datasets' and package time. Any other named type is Go's alone (big.Int,
// json.Number), which no peer has.
var goTypes = []string{reflect.TypeFor[fidelity.Time]().PkgPath(), reflect.TypeFor[dataset.Tiny]().PkgPath(), "time"}

var timeType = reflect.TypeFor[time.Time]()

// A notExpressible error says a Go value has no neutral form: another
// language cannot hold it.
type notExpressible struct{ why string }

func (e notExpressible) Error() string { return e.why }

// Neutral returns the neutral form of the Go value v as format model m
// carries it: a struct as a map of its field names, a pointer as what it
// points at, nil slices, maps and pointers as nil. It returns a
// notExpressible error for a value other languages cannot hold: a type
// named outside the probes' package and time, an embedded or unexported
// field, a non-empty interface, a map keyed by anything but a string, an
// integer or a bool, a cycle, a NaN where m has none.
func Neutral(v any, m Model) (Value, error) {
	n, err := neutral(reflect.ValueOf(v), m, 0)
	if err == nil && m.TopTable && n.Kind != Map {
		return Value{}, notExpressible{"a document of the format is a table, not a " + string(n.Kind)}
	}
	return n, err
}

// maxDepth bounds the walk, so that a cycle is not expressible rather
// than endless.
const maxDepth = 1000

func neutral(v reflect.Value, m Model, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, notExpressible{"nested deeper than " + strconv.Itoa(maxDepth) + " levels, or a cycle"}
	}
	if !v.IsValid() {
		return Value{Kind: Nil}, nil
	}
	t := v.Type()
	if t.Name() != "" && t.PkgPath() != "" && !slices.Contains(goTypes, t.PkgPath()) {
		return Value{}, notExpressible{"a Go type of its own, " + t.String()}
	}
	if t == timeType {
		tm := v.Interface().(time.Time)
		if m.TimeText {
			return Value{Kind: Str, Bytes: []byte(tm.Format(time.RFC3339Nano))}, nil
		}
		_, off := tm.Zone()
		return Value{Kind: Time, Sec: tm.Unix(), Nsec: tm.Nanosecond(), Offset: &off}, nil
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if t.Kind() == reflect.Interface && t.NumMethod() > 0 {
			return Value{}, notExpressible{"an interface with methods, " + t.String()}
		}
		if v.IsNil() {
			return Value{Kind: Nil}, nil
		}
		return neutral(v.Elem(), m, depth+1)
	case reflect.Struct:
		out := Value{Kind: Map, Pairs: []Pair{}}
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous || !f.IsExported() {
				return Value{}, notExpressible{"a struct with an embedded or unexported field, " + t.String()}
			}
			fv, err := neutral(v.Field(i), m, depth+1)
			if err != nil {
				return Value{}, err
			}
			if fv.Kind == Nil && m.NoNull {
				continue
			}
			out.Pairs = append(out.Pairs, Pair{Value{Kind: Str, Bytes: []byte(m.structKey(f))}, fv})
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return Value{Kind: Nil}, nil
		}
		out := Value{Kind: Map, Pairs: []Pair{}}
		for _, k := range v.MapKeys() {
			kv, err := key(k, m)
			if err != nil {
				return Value{}, err
			}
			ev, err := neutral(v.MapIndex(k), m, depth+1)
			if err != nil {
				return Value{}, err
			}
			out.Pairs = append(out.Pairs, Pair{kv, ev})
		}
		slices.SortFunc(out.Pairs, func(a, b Pair) int { return cmpText(a.Key.String(), b.Key.String()) })
		return out, nil
	case reflect.Slice:
		if v.IsNil() {
			return Value{Kind: Nil}, nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			b := v.Bytes()
			if m.BytesText {
				return Value{Kind: Str, Bytes: []byte(base64.StdEncoding.EncodeToString(b))}, nil
			}
			return Value{Kind: Bytes, Bytes: slices.Clone(b)}, nil
		}
		fallthrough
	case reflect.Array:
		out := Value{Kind: Array, Elems: []Value{}}
		for i := range v.Len() {
			ev, err := neutral(v.Index(i), m, depth+1)
			if err != nil {
				return Value{}, err
			}
			out.Elems = append(out.Elems, ev)
		}
		return out, nil
	case reflect.String:
		return Value{Kind: Str, Bytes: []byte(v.String())}, nil
	case reflect.Bool:
		return Value{Kind: Bool, Bool: v.Bool()}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Value{Kind: Int, Int: big.NewInt(v.Int())}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Value{Kind: Int, Int: new(big.Int).SetUint64(v.Uint())}, nil
	case reflect.Float64:
		f := v.Float()
		if m.NoNaN && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return Value{}, notExpressible{"the format has no NaN or infinity"}
		}
		return Value{Kind: Float, Bits: math.Float64bits(f)}, nil
	case reflect.Float32:
		f := float32(v.Float())
		if m.NoNaN && (math.IsNaN(float64(f)) || math.IsInf(float64(f), 0)) {
			return Value{}, notExpressible{"the format has no NaN or infinity"}
		}
		return Value{Kind: Float32, Bits: uint64(math.Float32bits(f))}, nil
	}
	return Value{}, notExpressible{"a Go " + t.Kind().String()}
}

// key returns the neutral form of a map key.
func key(k reflect.Value, m Model) (Value, error) {
	switch k.Kind() {
	case reflect.String:
		return Value{Kind: Str, Bytes: []byte(k.String())}, nil
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v, err := neutral(k, m, 0)
		if err == nil && m.KeysText {
			v = Value{Kind: Str, Bytes: []byte(v.String())}
		}
		return v, err
	}
	return Value{}, notExpressible{"a map keyed by a " + k.Type().String()}
}

func cmpText(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Into returns the Go value of type t that a peer's reading n stands for,
// as format model m carries it: what a Go program gets from the peer's
// value, to be compared with the value written. An error says how the
// reading differs in kind from what t holds ("a string where a time was
// written"): the value changed.
func Into(n Value, t reflect.Type, m Model) (any, error) {
	v := reflect.New(t).Elem()
	if err := into(n, v, m, 0); err != nil {
		return nil, err
	}
	return v.Interface(), nil
}

// A mismatch says what a peer read in place of what was written.
type mismatch struct {
	read  Value
	wrote string
}

func (e *mismatch) Error() string {
	return fmt.Sprintf("read %s (%s) where %s was written", e.read.String(), e.read.Kind, e.wrote)
}

func into(n Value, v reflect.Value, m Model, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	t := v.Type()
	bad := func(what string) error { return &mismatch{n, what} }
	if t == timeType {
		switch {
		case n.Kind == Time && !m.TimeText:
			v.Set(reflect.ValueOf(n.goTime()))
			return nil
		case n.Kind == Str && m.TimeText:
			tm, err := time.Parse(time.RFC3339Nano, string(n.Bytes))
			if err != nil {
				return bad("an RFC 3339 time")
			}
			v.Set(reflect.ValueOf(tm))
			return nil
		}
		return bad("a time")
	}
	switch t.Kind() {
	case reflect.Pointer:
		if n.Kind == Nil {
			return nil
		}
		p := reflect.New(t.Elem())
		if err := into(n, p.Elem(), m, depth+1); err != nil {
			return err
		}
		v.Set(p)
		return nil
	case reflect.Interface:
		g, err := generic(n)
		if err != nil {
			return err
		}
		if g != nil {
			v.Set(reflect.ValueOf(g))
		}
		return nil
	case reflect.Struct:
		if n.Kind != Map {
			return bad("a struct's map")
		}
		for _, p := range n.Pairs {
			if p.Key.Kind != Str {
				return &mismatch{p.Key, "a field name"}
			}
			// A field is read by its name or the model's key for it: a
			// codec of the format may key it either way (sigs.k8s.io/yaml
			// writes YAML with JSON's keys).
			var f reflect.Value
			for i := range t.NumField() {
				if k := string(p.Key.Bytes); k == t.Field(i).Name || k == m.fieldKey(t.Field(i).Name) || k == m.structKey(t.Field(i)) {
					f = v.Field(i)
				}
			}
			if !f.IsValid() {
				return fmt.Errorf("read a field %s that was not written", p.Key.String())
			}
			if err := into(p.Value, f, m, depth+1); err != nil {
				return fmt.Errorf("%s: %w", p.Key.Bytes, err)
			}
		}
		return nil
	case reflect.Map:
		if n.Kind == Nil {
			return nil
		}
		if n.Kind != Map {
			return bad("a map")
		}
		mv := reflect.MakeMapWithSize(t, len(n.Pairs))
		for _, p := range n.Pairs {
			k := reflect.New(t.Key()).Elem()
			kn := p.Key
			if m.KeysText && kn.Kind == Str && t.Key().Kind() != reflect.String {
				var err error
				if kn, err = textKey(kn, t.Key()); err != nil {
					return err
				}
			}
			if err := into(kn, k, m, depth+1); err != nil {
				return fmt.Errorf("a key: %w", err)
			}
			e := reflect.New(t.Elem()).Elem()
			if err := into(p.Value, e, m, depth+1); err != nil {
				return fmt.Errorf("[%v]: %w", k.Interface(), err)
			}
			mv.SetMapIndex(k, e)
		}
		v.Set(mv)
		return nil
	case reflect.Slice:
		if n.Kind == Nil {
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			switch {
			case n.Kind == Bytes && !m.BytesText:
				v.SetBytes(slices.Clone(n.Bytes))
				return nil
			case n.Kind == Str && m.BytesText:
				b, err := base64.StdEncoding.DecodeString(string(n.Bytes))
				if err != nil {
					return bad("base64 bytes")
				}
				v.SetBytes(b)
				return nil
			}
			return bad("bytes")
		}
		if n.Kind != Array {
			return bad("a list")
		}
		s := reflect.MakeSlice(t, len(n.Elems), len(n.Elems))
		for i, e := range n.Elems {
			if err := into(e, s.Index(i), m, depth+1); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		v.Set(s)
		return nil
	case reflect.Array:
		if n.Kind != Array || len(n.Elems) != t.Len() {
			return bad(fmt.Sprintf("a list of %d", t.Len()))
		}
		for i, e := range n.Elems {
			if err := into(e, v.Index(i), m, depth+1); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return nil
	case reflect.String:
		if n.Kind != Str {
			return bad("a string")
		}
		v.SetString(string(n.Bytes))
		return nil
	case reflect.Bool:
		if n.Kind != Bool {
			return bad("a bool")
		}
		v.SetBool(n.Bool)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		i, err := integer(n)
		if err != nil {
			return bad("an integer")
		}
		if t.Kind() >= reflect.Uint {
			if i.Sign() < 0 || !i.IsUint64() || v.OverflowUint(i.Uint64()) {
				return fmt.Errorf("read %s, past a %s", i, t)
			}
			v.SetUint(i.Uint64())
			return nil
		}
		if !i.IsInt64() || v.OverflowInt(i.Int64()) {
			return fmt.Errorf("read %s, past a %s", i, t)
		}
		v.SetInt(i.Int64())
		return nil
	case reflect.Float32, reflect.Float64:
		switch n.Kind {
		case Float, Float32, Num:
			v.SetFloat(n.Float64())
			return nil
		case Int:
			f, _ := new(big.Float).SetInt(n.Int).Float64()
			v.SetFloat(f)
			return nil
		}
		return bad("a float")
	}
	return fmt.Errorf("interop: no neutral value goes into a Go %s", t)
}

// integer returns the integer n stands for: an Int, or a Num or Float
// holding a whole number (a JavaScript number is the only number there).
func integer(n Value) (*big.Int, error) {
	switch n.Kind {
	case Int:
		return n.Int, nil
	case Num, Float:
		f := n.Float64()
		if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
			return nil, fmt.Errorf("not whole")
		}
		i, _ := big.NewFloat(f).Int(nil)
		return i, nil
	}
	return nil, fmt.Errorf("not a number")
}

// textKey returns the int or bool a map key's text stands for.
func textKey(n Value, t reflect.Type) (Value, error) {
	s := string(n.Bytes)
	if t.Kind() == reflect.Bool {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return Value{}, &mismatch{n, "a bool key's text"}
		}
		return Value{Kind: Bool, Bool: b}, nil
	}
	i, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return Value{}, &mismatch{n, "an integer key's text"}
	}
	return Value{Kind: Int, Int: i}, nil
}

// generic returns the Go value a decoder into any gives for n: an int64
// (a uint64 or a *big.Int past it), a float64, a float32, a string,
// []byte, []any, a map[string]any (map[any]any when a key is not a
// string), a time.Time.
func generic(n Value) (any, error) {
	switch n.Kind {
	case Nil:
		return nil, nil
	case Bool:
		return n.Bool, nil
	case Int:
		switch {
		case n.Int.IsInt64():
			return n.Int.Int64(), nil
		case n.Int.IsUint64():
			return n.Int.Uint64(), nil
		}
		return new(big.Int).Set(n.Int), nil
	case Float, Num:
		return n.Float64(), nil
	case Float32:
		return float32(n.Float64()), nil
	case Str:
		return string(n.Bytes), nil
	case Bytes:
		return slices.Clone(n.Bytes), nil
	case Array:
		out := make([]any, len(n.Elems))
		for i, e := range n.Elems {
			g, err := generic(e)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case Map:
		strs := map[string]any{}
		anys := map[any]any{}
		for _, p := range n.Pairs {
			k, err := generic(p.Key)
			if err != nil {
				return nil, err
			}
			if !reflect.TypeOf(k).Comparable() {
				return nil, &mismatch{p.Key, "a map key"}
			}
			e, err := generic(p.Value)
			if err != nil {
				return nil, err
			}
			anys[k] = e
			if s, ok := k.(string); ok {
				strs[s] = e
			}
		}
		if len(strs) == len(anys) {
			return strs, nil
		}
		return anys, nil
	case Time:
		return n.goTime(), nil
	}
	return nil, &mismatch{n, "a value Go reads"}
}

// goTime returns the time a Time holds, at its offset (UTC without one).
func (v Value) goTime() time.Time {
	t := time.Unix(v.Sec, int64(v.Nsec))
	if v.Offset == nil || *v.Offset == 0 {
		return t.UTC()
	}
	return t.In(time.FixedZone("", *v.Offset))
}
