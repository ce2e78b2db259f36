// Package fastjson adapts github.com/valyala/fastjson, which parses a JSON
// document into a tree of values it owns and reads fields from the tree.
// It has no typed decode and no encoder of Go values, so it is registered
// as an in-place reader of encoding/json's encodings
// (codec.Info.ReadsOnly).
package fastjson

import (
	"encoding/json"
	"fmt"

	"github.com/valyala/fastjson"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/jsonread"
)

// Reader is one fastjson.Parser reused across messages (as its
// documentation recommends): ParseBytes, then Get per field.
var Reader = codec.Declare(jsonread.Info("fastjson", "valyala/fastjson", "github.com/valyala/fastjson", "https://github.com/valyala/fastjson",
	"Each message is parsed whole by one fastjson.Parser reused across messages (ParseBytes copies the input into the parser), "+
		"then each field is a Get on the tree; strings come back as slices of the parser's copy (StringBytes), not of the message; "+
		"a nested element is written back by MarshalTo and decoded by encoding/json. No generic values: the tree is fastjson's own type.",
	func() codec.Codec { return jsonread.New(reader, nil) }))

func reader(fields []codec.Field) (*codec.Reader, error) {
	keys := make([][]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Path.Keys()
	}
	var p fastjson.Parser
	var buf []byte
	return &codec.Reader{Via: "fastjson.Parser.ParseBytes, then Get per field", Read: func(data []byte, out []any) error {
		root, err := p.ParseBytes(data)
		if err != nil {
			return err
		}
		for i, f := range fields {
			v := root.Get(keys[i]...)
			if v == nil {
				return fmt.Errorf("fastjson: no value at %s", f.Path)
			}
			if out[i], err = convert(v, f, &buf); err != nil {
				return fmt.Errorf("fastjson: %s: %w", f.Path, err)
			}
		}
		return nil
	}}, nil
}

// convert reads v as the field's type, with fastjson's own conversions.
func convert(v *fastjson.Value, f codec.Field, buf *[]byte) (any, error) {
	var x any
	var err error
	switch jsonread.KindOf(f.Type) {
	case jsonread.Int:
		x, err = v.Int64()
	case jsonread.Uint:
		x, err = v.Uint64()
	case jsonread.Float:
		x, err = v.Float64()
	case jsonread.String:
		var b []byte
		if b, err = v.StringBytes(); err == nil {
			return b, nil // a slice of the parser's copy of the message, valid until the next parse
		}
	case jsonread.Bool:
		x, err = v.Bool()
	case jsonread.Bytes:
		var b []byte
		if b, err = v.StringBytes(); err == nil {
			return jsonread.DecodeBytes(b)
		}
	case jsonread.Time:
		var b []byte
		if b, err = v.StringBytes(); err == nil {
			return jsonread.ParseTime(string(b))
		}
	default:
		*buf = v.MarshalTo((*buf)[:0])
		return jsonread.Decode(*buf, f.Type, json.Unmarshal)
	}
	if err != nil {
		return nil, err
	}
	return jsonread.As(x, f.Type), nil
}
