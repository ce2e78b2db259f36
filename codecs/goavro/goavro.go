// Package goavro adapts github.com/linkedin/goavro/v2, Apache Avro with
// values in goavro's native form (map[string]any records, []any arrays,
// unions as single-entry maps), on the schemas of codecs/avro's
// dataset.avsc, so both Avro codecs write the same bytes.
//
// goavro encodes and decodes native values, not Go structs: Prepare
// converts the dataset value to its native form once, outside the timer,
// and Value converts a decoded native value back, walking the schema.
package goavro

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/linkedin/goavro/v2"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/avro"
)

// Default is goavro's BinaryFromNative and NativeFromBinary.
var Default = codec.Declare(codec.Info{
	ReusesBuffer: true, // Encode writes into a buffer kept across calls
	Name:         "goavro", Family: "avro", Label: "linkedin/goavro", Module: "github.com/linkedin/goavro/v2",
	URL: "https://github.com/linkedin/goavro", API: codec.Schema,
	Losses: []codec.Loss{
		{Kind: codec.TimePrecision, Precision: time.Microsecond}, // timestamp-micros
		{Kind: codec.TimeZone}, // timestamps are UTC instants
		{Kind: codec.NilEmpty}, // arrays and maps have no null
	},
	Omits:         avro.Hamba.Omits,
	ValueConverts: true, // Value converts goavro's native maps and slices back to the dataset type
	Aliases:       true, // NativeFromBinary returns bytes values as slices of its input
	// Value reads those slices (an 8-byte fixed's uint64 among them), so
	// the input must outlive it: Value is timed with Decode.
	ValueReadsInput: true,
	Notes: "Schema-driven: codecs/avro's dataset.avsc, one goavro.Codec per schema. Encode is BinaryFromNative of the " +
		"value's native form (built when the case is prepared); Decode is NativeFromBinary, which returns native " +
		"values: converting them back to Go structs is the harness's Value. Times are timestamp-micros; uint64 an 8-byte fixed. " +
		"Decoded bytes values are slices of the input, not copies.",
	New: func() codec.Codec { return codec.Func(prepare) },
})

// named holds dataset.avsc's named types by full name.
var named = sync.OnceValues(func() (map[string]map[string]any, error) {
	var defs []map[string]any
	if err := json.Unmarshal(avro.AVSC, &defs); err != nil {
		return nil, fmt.Errorf("goavro: dataset.avsc: %w", err)
	}
	out := map[string]map[string]any{}
	for _, d := range defs {
		out[d["namespace"].(string)+"."+d["name"].(string)] = d
	}
	return out, nil
})

// fullName qualifies a type name with dataset.avsc's namespace.
func fullName(name string) string {
	if strings.Contains(name, ".") {
		return name
	}
	return "serbench." + name
}

// inline returns schema s with the first reference to each named type
// replaced by its definition, as goavro reads one self-contained schema.
func inline(s any, defs map[string]map[string]any, done map[string]bool) any {
	switch s := s.(type) {
	case string:
		if d, ok := defs[fullName(s)]; ok && !done[fullName(s)] {
			done[fullName(s)] = true
			return inline(d, defs, done)
		}
		return s
	case []any:
		out := make([]any, len(s))
		for i, b := range s {
			out[i] = inline(b, defs, done)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, v := range s {
			out[k] = v
		}
		switch s["type"] {
		case "record":
			fields := s["fields"].([]any)
			fs := make([]any, len(fields))
			for i, f := range fields {
				f := f.(map[string]any)
				fs[i] = map[string]any{"name": f["name"], "type": inline(f["type"], defs, done)}
			}
			out["fields"] = fs
		case "array":
			out["items"] = inline(s["items"], defs, done)
		case "map":
			out["values"] = inline(s["values"], defs, done)
		}
		return out
	}
	return s
}

// Schema returns the schema of v, a pointer to a dataset value, with
// dataset.avsc's named types inlined (self-contained), both as the value
// encoding/json reads and as goavro's codec of it. It returns a
// *codec.UnsupportedError when dataset.avsc has no schema for v's type.
func Schema(v any) (any, *goavro.Codec, error) {
	elem, err := codec.PointerElem(v)
	if err != nil {
		return nil, nil, err
	}
	text, ok := avro.SchemaFor(elem)
	if !ok {
		return nil, nil, codec.Unsupported(v, "no Avro schema for it in dataset.avsc")
	}
	defs, err := named()
	if err != nil {
		return nil, nil, err
	}
	var s any
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return nil, nil, fmt.Errorf("goavro: schema for %s: %w", elem, err)
	}
	s = inline(s, defs, map[string]bool{})
	full, err := json.Marshal(s)
	if err != nil {
		return nil, nil, err
	}
	c, err := goavro.NewCodec(string(full))
	if err != nil {
		return nil, nil, fmt.Errorf("goavro: schema for %s: %w", elem, err)
	}
	return s, c, nil
}

func prepare(v any) (codec.Case, error) {
	s, c, err := Schema(v)
	if err != nil {
		return nil, err
	}
	elem := reflect.TypeOf(v).Elem()
	defs, err := named()
	if err != nil {
		return nil, err
	}
	ac := &avroCase{codec: c, v: reflect.ValueOf(v).Elem(), schema: s, elem: elem, w: walker{defs: defs}}
	if err := ac.Reload(); err != nil {
		return nil, err
	}
	return ac, nil
}

// An avroCase converts its value to goavro's native form when prepared,
// and again at Reload (codec.Reloader).
type avroCase struct {
	codec  *goavro.Codec
	v      reflect.Value // the value handed to Prepare
	native any           // v in goavro's native form
	schema any
	elem   reflect.Type
	w      walker
	buf    []byte
	out    any
}

// Reload converts the value handed to Prepare to goavro's native form
// again; the buffer Encode writes into is kept.
func (c *avroCase) Reload() error {
	native, err := c.w.to(c.schema, c.v)
	if err != nil {
		return err
	}
	c.native = native
	return nil
}

// Encode appends to one buffer kept across messages, as BinaryFromNative
// allows.
func (c *avroCase) Encode() ([]byte, error) {
	b, err := c.codec.BinaryFromNative(c.buf[:0], c.native)
	c.buf = b
	return b, err
}

func (c *avroCase) Decode(data []byte) error {
	n, rest, err := c.codec.NativeFromBinary(data)
	if err == nil && len(rest) != 0 {
		err = fmt.Errorf("goavro: %d bytes left after the value", len(rest))
	}
	c.out = n
	return err
}

func (c *avroCase) Value() (any, error) {
	p := reflect.New(c.elem)
	if err := c.w.from(c.schema, c.out, p.Elem()); err != nil {
		return nil, err
	}
	return p.Interface(), nil
}

// A walker converts between Go values and goavro's native form, led by
// the schema.
type walker struct{ defs map[string]map[string]any }

// resolve returns the definition of a named type, or s itself.
func (w walker) resolve(s any) any {
	if name, ok := s.(string); ok {
		if d, ok := w.defs[fullName(name)]; ok {
			return d
		}
	}
	return s
}

var timeType = reflect.TypeFor[time.Time]()

// branch returns the non-null branch of a ["null", X] union and its name.
func (w walker) branch(u []any) (any, string, error) {
	if len(u) != 2 || u[0] != "null" {
		return nil, "", fmt.Errorf("goavro: union %v is not [\"null\", T]", u)
	}
	b := u[1]
	switch b := b.(type) {
	case string:
		if _, ok := w.defs[fullName(b)]; ok {
			return b, fullName(b), nil
		}
		return b, b, nil
	case map[string]any:
		if name, ok := b["name"].(string); ok {
			return b, fullName(name), nil
		}
		return b, b["type"].(string), nil
	}
	return nil, "", fmt.Errorf("goavro: union branch %v", b)
}

// kindOf returns schema s as a map (nil for a primitive's name) and the
// name of its type.
func kindOf(s any) (map[string]any, string) {
	if m, ok := s.(map[string]any); ok {
		kind, _ := m["type"].(string)
		return m, kind
	}
	kind, _ := s.(string)
	return nil, kind
}

// to converts Go value v to the native form of schema s.
func (w walker) to(s any, v reflect.Value) (any, error) {
	s = w.resolve(s)
	if u, ok := s.([]any); ok {
		if v.IsNil() {
			return nil, nil
		}
		b, name, err := w.branch(u)
		if err != nil {
			return nil, err
		}
		n, err := w.to(b, v.Elem())
		return goavro.Union(name, n), err
	}
	if v.Type() == timeType {
		return v.Interface(), nil
	}
	m, kind := kindOf(s)
	switch kind {
	case "record":
		out := map[string]any{}
		for _, f := range m["fields"].([]any) {
			f := f.(map[string]any)
			fv, err := field(v, f["name"].(string))
			if err != nil {
				return nil, err
			}
			if out[f["name"].(string)], err = w.to(f["type"], fv); err != nil {
				return nil, err
			}
		}
		return out, nil
	case "array":
		out := make([]any, v.Len())
		for i := range out {
			var err error
			if out[i], err = w.to(m["items"], v.Index(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case "map":
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			var err error
			if out[it.Key().String()], err = w.to(m["values"], it.Value()); err != nil {
				return nil, err
			}
		}
		return out, nil
	case "fixed":
		return binary.BigEndian.AppendUint64(nil, v.Uint()), nil
	case "long":
		return v.Int(), nil
	case "int":
		return int32(v.Int()), nil
	}
	return v.Interface(), nil // string, bytes, double, boolean
}

// from sets Go value v from n, the native form of schema s.
func (w walker) from(s any, n any, v reflect.Value) error {
	s = w.resolve(s)
	if u, ok := s.([]any); ok {
		if n == nil {
			return nil
		}
		b, name, err := w.branch(u)
		if err != nil {
			return err
		}
		p := reflect.New(v.Type().Elem())
		v.Set(p)
		return w.from(b, n.(map[string]any)[name], p.Elem())
	}
	m, kind := kindOf(s)
	switch {
	case v.Type() == timeType:
		v.Set(reflect.ValueOf(n))
	case kind == "record":
		rec := n.(map[string]any)
		for _, f := range m["fields"].([]any) {
			f := f.(map[string]any)
			fv, err := field(v, f["name"].(string))
			if err != nil {
				return err
			}
			if err := w.from(f["type"], rec[f["name"].(string)], fv); err != nil {
				return err
			}
		}
	case kind == "array":
		items := n.([]any)
		v.Set(reflect.MakeSlice(v.Type(), len(items), len(items)))
		for i, it := range items {
			if err := w.from(m["items"], it, v.Index(i)); err != nil {
				return err
			}
		}
	case kind == "map":
		entries := n.(map[string]any)
		v.Set(reflect.MakeMapWithSize(v.Type(), len(entries)))
		for k, e := range entries {
			ev := reflect.New(v.Type().Elem()).Elem()
			if err := w.from(m["values"], e, ev); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), ev)
		}
	case kind == "fixed":
		v.SetUint(binary.BigEndian.Uint64(n.([]byte)))
	case kind == "long" || kind == "int":
		v.SetInt(reflect.ValueOf(n).Int())
	default:
		v.Set(reflect.ValueOf(n).Convert(v.Type()))
	}
	return nil
}

// A fieldKey names a struct field by its json tag.
type fieldKey struct {
	t    reflect.Type
	name string
}

// fields caches the index of each struct field looked up by field.
var fields sync.Map // fieldKey -> int

// field returns the field of struct v whose json tag is name.
func field(v reflect.Value, name string) (reflect.Value, error) {
	t := v.Type()
	key := fieldKey{t, name}
	if i, ok := fields.Load(key); ok {
		return v.Field(i.(int)), nil
	}
	for i := range t.NumField() {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); tag == name {
			fields.Store(key, i)
			return v.Field(i), nil
		}
	}
	return reflect.Value{}, fmt.Errorf("goavro: %s has no field tagged %q", t, name)
}
