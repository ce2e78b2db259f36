// Package segmentio adapts github.com/segmentio/encoding/json, a drop-in
// replacement for encoding/json with an append API.
package segmentio

import (
	"fmt"
	"io"

	"github.com/segmentio/encoding/json"

	"github.com/serbench/serbench/codec"
)

const (
	module = "github.com/segmentio/encoding"
	url    = "https://github.com/segmentio/encoding"
)

// Std is json.Marshal and json.Unmarshal: encoding/json's behaviour.
var Std = codec.Declare(codec.Info{
	Name: "segmentio-json", Family: "json", Label: "segmentio/encoding/json", Module: module, URL: url,
	API:    codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.IntegerFloat}},
	New: func() codec.Codec {
		return codec.WithStream(codec.Reflect(json.Marshal, json.Unmarshal),
			func(w io.Writer) codec.Encoder { return json.NewEncoder(w) },
			func(r io.Reader) codec.Decoder { return json.NewDecoder(r) })
	},
})

// Append is json.Append into a reused buffer without flags and json.Parse
// with zero-copy flags: the library's fast path.
var Append = codec.Declare(codec.Info{
	Name: "segmentio-json-append", Family: "json", Label: "segmentio/encoding/json (Append, Parse)", Module: module, URL: url,
	API:     codec.Reflection,
	Losses:  []codec.Loss{{Kind: codec.IntegerFloat}},
	Variant: "json.Append(buf[:0], v, 0) into a reused buffer; json.Parse(data, v, ZeroCopy|DontMatchCaseInsensitiveStructFields)",
	Notes:   "No HTML escaping, map keys unsorted; decoded strings point into the input.",
	Aliases: true, // ZeroCopy: decoded strings point into the input
	New:     func() codec.Codec { return codec.ReflectAppend(appendJSON, parse) },

	ReusesBuffer: true, // Encode writes into a buffer kept across calls
})

func appendJSON(dst []byte, v any) ([]byte, error) { return json.Append(dst, v, 0) }

func parse(data []byte, v any) error {
	rest, err := json.Parse(data, v, json.ZeroCopy|json.DontMatchCaseInsensitiveStructFields)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("segmentio: %d bytes left after the value", len(rest))
	}
	return err
}
