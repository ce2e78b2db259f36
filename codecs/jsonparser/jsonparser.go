// Package jsonparser adapts github.com/buger/jsonparser, which finds
// values in a JSON document without allocating and hands back slices of
// it. It reads; it does not encode or decode typed values, so it is
// registered as an in-place reader of encoding/json's encodings
// (codec.Info.ReadsOnly).
package jsonparser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/buger/jsonparser"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/jsonread"
)

// Reader is jsonparser.Get for one field, jsonparser.EachKey for several
// (one pass over the document).
var Reader = codec.Declare(jsonread.Info("jsonparser", "buger/jsonparser", "github.com/buger/jsonparser", "https://github.com/buger/jsonparser",
	"One field is a jsonparser.Get; several are one jsonparser.EachKey pass over the document. A string without escapes comes back "+
		"as a raw slice of the message (no copy); one with escapes is unescaped by ParseString. A nested element is located by "+
		"jsonparser and decoded by encoding/json. No generic values.",
	func() codec.Codec { return jsonread.New(reader, nil) }))

// keys returns p's keys as jsonparser takes them: array indices in
// brackets.
func keys(p codec.Path) []string {
	out := make([]string, len(p))
	for i, s := range p {
		if s.Field == "" {
			out[i] = "[" + strconv.Itoa(s.Index) + "]"
		} else {
			out[i] = s.Field
		}
	}
	return out
}

func reader(fields []codec.Field) (*codec.Reader, error) {
	paths := make([][]string, len(fields))
	for i, f := range fields {
		paths[i] = keys(f.Path)
	}
	if len(fields) == 1 {
		f := fields[0]
		return &codec.Reader{Via: "jsonparser.Get", Read: func(data []byte, out []any) error {
			v, typ, _, err := jsonparser.Get(data, paths[0]...)
			if err != nil {
				return fmt.Errorf("jsonparser: %s: %w", f.Path, err)
			}
			out[0], err = convert(v, typ, f)
			return err
		}}, nil
	}
	return &codec.Reader{Via: "jsonparser.EachKey", Read: func(data []byte, out []any) error {
		found := 0
		var first error
		jsonparser.EachKey(data, func(i int, v []byte, typ jsonparser.ValueType, err error) {
			if err == nil {
				out[i], err = convert(v, typ, fields[i])
			}
			if err != nil && first == nil {
				first = fmt.Errorf("jsonparser: %s: %w", fields[i].Path, err)
			}
			found++
		}, paths...)
		if first == nil && found != len(fields) {
			first = fmt.Errorf("jsonparser: %d of %d fields found", found, len(fields))
		}
		return first
	}}, nil
}

// convert reads v, of JSON type typ, as the field's type, with
// jsonparser's own conversions.
func convert(v []byte, typ jsonparser.ValueType, f codec.Field) (any, error) {
	var x any
	var err error
	switch jsonread.KindOf(f.Type) {
	case jsonread.Int:
		x, err = jsonparser.ParseInt(v)
	case jsonread.Uint:
		x, err = strconv.ParseUint(string(v), 10, 64)
	case jsonread.Float:
		x, err = jsonparser.ParseFloat(v)
	case jsonread.String:
		if typ != jsonparser.String {
			return nil, fmt.Errorf("a %s where a string was expected", typ)
		}
		if bytes.IndexByte(v, '\\') < 0 {
			return v, nil // a raw slice of the message
		}
		x, err = jsonparser.ParseString(v)
	case jsonread.Bool:
		x, err = jsonparser.ParseBoolean(v)
	case jsonread.Bytes:
		return jsonread.DecodeBytes(v)
	case jsonread.Time:
		s, err := jsonparser.ParseString(v)
		if err != nil {
			return nil, err
		}
		return jsonread.ParseTime(s)
	default:
		if typ == jsonparser.String { // Get strips a string's quotes
			v = strconv.AppendQuote(nil, string(v))
		}
		return jsonread.Decode(v, f.Type, json.Unmarshal)
	}
	if err != nil {
		return nil, err
	}
	return jsonread.As(x, f.Type), nil
}
