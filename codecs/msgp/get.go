package msgp

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/mirror"
)

// getCase is a msgp case that reads fields in place (codec.Getter): msgp
// writes a struct as a map keyed by its fields' JSON names (gen.go runs
// it with -d "tag json"), which msgp.Locate
// finds without decoding the rest; a slice element is reached by skipping
// the elements before it (msgp.Skip); a scalar is read with msgp's
// zero-copy readers, a string as a raw slice of the message.
type getCase struct {
	mirror.Case
	mirror reflect.Type // the generated mirror type the case encodes
}

// A msgpStep is one step of a located path: a map key, or (key empty) an
// array index.
type msgpStep struct {
	key   string
	index uint32
}

func (c *getCase) Reader(fields []codec.Field) (*codec.Reader, error) {
	type field struct {
		steps []msgpStep
		read  func(b []byte) (any, error)
	}
	fs := make([]field, len(fields))
	for i, f := range fields {
		steps, leaf, err := msgpPath(c.mirror, f.Path)
		if err != nil {
			return nil, &codec.UnsupportedError{Type: f.Type.String(), Reason: fmt.Sprintf("field %s: %v", f.Path, err)}
		}
		read, err := leafReader(leaf, f.Type)
		if err != nil {
			return nil, &codec.UnsupportedError{Type: f.Type.String(), Reason: fmt.Sprintf("field %s: %v", f.Path, err)}
		}
		fs[i] = field{steps, read}
	}
	return &codec.Reader{Via: "msgp.Locate and msgp.Skip, zero-copy reads", Read: func(data []byte, out []any) error {
		for i, f := range fs {
			b, err := locate(data, f.steps)
			if err == nil {
				out[i], err = f.read(b)
			}
			if err != nil {
				return fmt.Errorf("msgp: %s: %w", fields[i].Path, err)
			}
		}
		return nil
	}}, nil
}

// locate returns the encoding of the value steps lead to in b.
func locate(b []byte, steps []msgpStep) ([]byte, error) {
	for _, s := range steps {
		if msgp.IsNil(b) {
			return nil, fmt.Errorf("nil before %q", s.key)
		}
		if s.key != "" {
			if b = msgp.Locate(s.key, b); len(b) == 0 {
				return nil, fmt.Errorf("no key %q", s.key)
			}
			continue
		}
		n, rest, err := msgp.ReadArrayHeaderBytes(b)
		if err != nil {
			return nil, err
		}
		if s.index >= n {
			return nil, fmt.Errorf("index %d of %d elements", s.index, n)
		}
		for range s.index {
			if rest, err = msgp.Skip(rest); err != nil {
				return nil, err
			}
		}
		b = rest
	}
	return b, nil
}

// msgpPath returns the steps of path p in the mirror type t, and the
// mirror type at its end (pointers followed).
func msgpPath(t reflect.Type, p codec.Path) ([]msgpStep, reflect.Type, error) {
	var steps []msgpStep
	for _, s := range p {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Struct:
			f, ok := fieldOf(t, codec.Path{s}.String())
			if !ok {
				return nil, nil, fmt.Errorf("%s has no field %s", t, codec.Path{s})
			}
			steps = append(steps, msgpStep{key: codec.Path{s}.String()}) // msgp runs with -d "tag json"
			t = f.Type
		case reflect.Slice, reflect.Array:
			if s.Field != "" {
				return nil, nil, fmt.Errorf("%s is indexed by numbers", t)
			}
			steps = append(steps, msgpStep{index: uint32(s.Index)})
			t = t.Elem()
		default:
			return nil, nil, fmt.Errorf("no raw reading of %s into %s", codec.Path{s}, t)
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return steps, t, nil
}

// fieldOf returns t's field of JSON name name.
func fieldOf(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

var timeType = reflect.TypeFor[time.Time]()

// leafReader returns the reader of a value of mirror type m as the
// dataset's type t.
func leafReader(m, t reflect.Type) (func(b []byte) (any, error), error) {
	conv := func(x any) any {
		if reflect.TypeOf(x) == t {
			return x
		}
		return reflect.ValueOf(x).Convert(t).Interface()
	}
	switch {
	case m == timeType:
		return func(b []byte) (any, error) { v, _, err := msgp.ReadTimeBytes(b); return v, err }, nil
	case m.Kind() == reflect.Slice && m.Elem().Kind() == reflect.Uint8:
		return func(b []byte) (any, error) { v, _, err := msgp.ReadBytesZC(b); return v, err }, nil
	}
	switch m.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte) (any, error) { v, _, err := msgp.ReadInt64Bytes(b); return conv(v), err }, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(b []byte) (any, error) { v, _, err := msgp.ReadUint64Bytes(b); return conv(v), err }, nil
	case reflect.Float64:
		return func(b []byte) (any, error) { v, _, err := msgp.ReadFloat64Bytes(b); return conv(v), err }, nil
	case reflect.Float32:
		return func(b []byte) (any, error) { v, _, err := msgp.ReadFloat32Bytes(b); return conv(v), err }, nil
	case reflect.Bool:
		return func(b []byte) (any, error) { v, _, err := msgp.ReadBoolBytes(b); return conv(v), err }, nil
	case reflect.String:
		if t != reflect.TypeFor[string]() { // a named string type: materialised
			return func(b []byte) (any, error) { v, _, err := msgp.ReadStringBytes(b); return conv(v), err }, nil
		}
		return func(b []byte) (any, error) { v, _, err := msgp.ReadStringZC(b); return v, err }, nil
	case reflect.Struct:
		if _, ok := reflect.New(m).Interface().(msgp.Unmarshaler); !ok {
			break
		}
		return func(b []byte) (any, error) {
			v := reflect.New(m)
			if _, err := v.Interface().(msgp.Unmarshaler).UnmarshalMsg(b); err != nil {
				return nil, err
			}
			out := reflect.New(t).Elem()
			if err := mirror.CopyValue(out, v.Elem()); err != nil {
				return nil, err
			}
			return out.Interface(), nil
		}, nil
	}
	return nil, fmt.Errorf("no raw reading of a %s", m)
}

// DecodeAny makes a getCase a codec.AnyDecoder: msgp.ReadIntfBytes, msgp's
// own decoding into generic values.
func (c *getCase) DecodeAny(data []byte) (any, error) {
	v, rest, err := msgp.ReadIntfBytes(data)
	if err == nil && len(rest) != 0 {
		err = fmt.Errorf("msgp: %d bytes left over after the value", len(rest))
	}
	return v, err
}
