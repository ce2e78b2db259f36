// Package jsonread is what the in-place JSON readers (gjson, fastjson,
// jsonparser, sonic's ast) share: their cases, which read the encodings
// of encoding/json, and the conversion of a located JSON value to the Go
// type of the field read.
package jsonread

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/serbench/serbench/codec"
)

// Base is the codec whose encodings the readers read.
const Base = "json"

// A Kind is how a reader reads a field of a Go type.
type Kind int

// The kinds.
const (
	Int    Kind = iota // a JSON number into a signed integer
	Uint               // a JSON number into an unsigned integer
	Float              // a JSON number into a float
	String             // a JSON string
	Bool               // true or false
	Bytes              // a base64 JSON string into []byte
	Time               // an RFC 3339 JSON string into a time.Time
	Value              // anything else: the raw JSON decoded by a decoder
)

var timeType = reflect.TypeFor[time.Time]()

// KindOf returns how a field of type t is read.
func KindOf(t reflect.Type) Kind {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Uint
	case reflect.Float32, reflect.Float64:
		return Float
	case reflect.String:
		return String
	case reflect.Bool:
		return Bool
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return Bytes
		}
	}
	if t == timeType {
		return Time
	}
	return Value
}

// As returns x, a value of the kind's own type (int64, uint64, float64,
// string, bool), converted to t when t is another type of that kind.
func As(x any, t reflect.Type) any {
	if reflect.TypeOf(x) == t {
		return x
	}
	return reflect.ValueOf(x).Convert(t).Interface()
}

// DecodeBytes decodes a base64 JSON string's contents.
func DecodeBytes(s []byte) ([]byte, error) {
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(out, s)
	return out[:n], err
}

// ParseTime parses an RFC 3339 JSON string's contents, as encoding/json
// reads a time.Time.
func ParseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// Decode decodes raw, a located JSON value, into a new value of type t
// with unmarshal.
func Decode(raw []byte, t reflect.Type, unmarshal func([]byte, any) error) (any, error) {
	v := reflect.New(t)
	if err := unmarshal(raw, v.Interface()); err != nil {
		return nil, err
	}
	return v.Elem().Interface(), nil
}

// A Case is an in-place reader's case: encoding/json's case (Encode,
// Decode and Value, for the checks) with the reader's Getter, and, where
// the reader has one, its decoding into generic values.
type Case struct {
	codec.Case
	reader    func(fields []codec.Field) (*codec.Reader, error)
	decodeAny func(data []byte) (any, error)
}

// Reader makes a Case a codec.Getter.
func (c *Case) Reader(fields []codec.Field) (*codec.Reader, error) { return c.reader(fields) }

// AnyCase is a Case that also decodes into generic values.
type AnyCase struct{ *Case }

// DecodeAny makes an AnyCase a codec.AnyDecoder.
func (c AnyCase) DecodeAny(data []byte) (any, error) { return c.decodeAny(data) }

// New returns the Codec of a reader: reader builds its field reader,
// decodeAny, if not nil, decodes into generic values.
func New(reader func(fields []codec.Field) (*codec.Reader, error), decodeAny func([]byte) (any, error)) codec.Codec {
	base := codec.Reflect(json.Marshal, json.Unmarshal)
	return codec.Func(func(v any) (codec.Case, error) {
		bc, err := base.Prepare(v)
		if err != nil {
			return nil, err
		}
		c := &Case{Case: plain{bc}, reader: reader, decodeAny: decodeAny}
		if decodeAny != nil {
			return AnyCase{c}, nil
		}
		return c, nil
	})
}

// plain hides every method of a case but Encode, Decode and Value: the
// reader is not encoding/json, and does not take its optional ways.
type plain struct{ c codec.Case }

func (p plain) Encode() ([]byte, error)  { return p.c.Encode() }
func (p plain) Decode(data []byte) error { return p.c.Decode(data) }
func (p plain) Value() (any, error)      { return p.c.Value() }

// Unsupported returns the error of a reader that cannot read field f.
func Unsupported(f codec.Field, why string) error {
	return &codec.UnsupportedError{Type: f.Type.String(), Reason: fmt.Sprintf("field %s: %s", f.Path, why)}
}

// Info returns the registry entry of a reader named name.
func Info(name, label, module, url, notes string, c func() codec.Codec) codec.Info {
	return codec.Info{
		Name: name, Family: "json", Label: label, Module: module, URL: url, API: codec.Manual,
		ReadsOnly: Base,
		Losses:    []codec.Loss{{Kind: codec.IntegerFloat}}, // a number read into any is a float64
		Variant:   "in-place reader of encoding/json's encodings, not a codec",
		Notes:     notes,
		New:       c,
	}
}
