// Package gjson adapts github.com/tidwall/gjson, which finds a value in a
// JSON document by its path without decoding the rest. It reads; it does
// not encode or decode typed values, so it is registered as an in-place
// reader of encoding/json's encodings (codec.Info.ReadsOnly).
package gjson

import (
	"encoding/json"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/jsonread"
)

// Reader is gjson.GetBytes, one call per field read, each scanning the
// document from its start; gjson.ParseBytes(...).Value() into generic
// values.
var Reader = codec.Declare(jsonread.Info("gjson", "tidwall/gjson", "github.com/tidwall/gjson", "https://github.com/tidwall/gjson",
	"Each field is one gjson.GetBytes call with the field's path (\"the_biggest_slice.999.big_id\"), which scans the document "+
		"up to the value; strings are copied out (GetBytes' safe mode); a nested element is located by gjson and decoded by encoding/json. "+
		"Generic values: numbers as float64.",
	func() codec.Codec { return jsonread.New(reader, decodeAny) }))

func decodeAny(data []byte) (any, error) {
	if !gjson.ValidBytes(data) {
		return nil, fmt.Errorf("gjson: invalid JSON")
	}
	return gjson.ParseBytes(data).Value(), nil
}

func reader(fields []codec.Field) (*codec.Reader, error) {
	paths := make([]string, len(fields))
	for i, f := range fields {
		paths[i] = f.Path.String()
	}
	return &codec.Reader{Via: "gjson.GetBytes per field", Read: func(data []byte, out []any) error {
		for i, f := range fields {
			r := gjson.GetBytes(data, paths[i])
			if !r.Exists() {
				return fmt.Errorf("gjson: no value at %s", paths[i])
			}
			v, err := convert(r, f)
			if err != nil {
				return fmt.Errorf("gjson: %s: %w", paths[i], err)
			}
			out[i] = v
		}
		return nil
	}}, nil
}

// convert reads r as the field's type, with gjson's own conversions.
func convert(r gjson.Result, f codec.Field) (any, error) {
	switch jsonread.KindOf(f.Type) {
	case jsonread.Int:
		return jsonread.As(r.Int(), f.Type), nil
	case jsonread.Uint:
		return jsonread.As(r.Uint(), f.Type), nil
	case jsonread.Float:
		return jsonread.As(r.Float(), f.Type), nil
	case jsonread.String:
		return jsonread.As(r.Str, f.Type), nil
	case jsonread.Bool:
		return jsonread.As(r.Bool(), f.Type), nil
	case jsonread.Bytes:
		return jsonread.DecodeBytes([]byte(r.Str))
	case jsonread.Time:
		return jsonread.ParseTime(r.Str)
	}
	return jsonread.Decode([]byte(r.Raw), f.Type, json.Unmarshal)
}
