// Package jsonv2 adapts github.com/go-json-experiment/json, the module
// from which the standard library's encoding/json/v2 comes (that one needs
// GOEXPERIMENT=jsonv2 on Go 1.26).
package jsonv2

import (
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/serbench/serbench/codec"
)

// V2 is json.Marshal and json.Unmarshal with v2's default options.
var V2 = codec.Declare(codec.Info{
	Name: "jsonv2", Family: "json", Label: "go-json-experiment/json (v2)",
	Module: "github.com/go-json-experiment/json", URL: "https://github.com/go-json-experiment/json",
	API:    codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.NilEmpty}, {Kind: codec.IntegerFloat}},
	Notes: "v2 defaults: nil slices and maps encode as [] and {}, so they decode as empty; " +
		"field names match case-sensitively; invalid UTF-8 is an error; map keys unsorted.",
	New: func() codec.Codec { return codec.WithStream(codec.Reflect(marshal, unmarshal), newEncoder, newDecoder) },
})

func marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// A textEncoder writes each value as the next top-level value of a
// jsontext stream (json.MarshalEncode); textDecoder reads them back
// (json.UnmarshalDecode), token by token from the io.Reader.
type textEncoder struct{ enc *jsontext.Encoder }
type textDecoder struct{ dec *jsontext.Decoder }

func newEncoder(w io.Writer) codec.Encoder { return textEncoder{jsontext.NewEncoder(w)} }
func newDecoder(r io.Reader) codec.Decoder { return textDecoder{jsontext.NewDecoder(r)} }

func (e textEncoder) Encode(v any) error { return json.MarshalEncode(e.enc, v) }
func (d textDecoder) Decode(v any) error { return json.UnmarshalDecode(d.dec, v) }
