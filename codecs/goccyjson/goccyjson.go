// Package goccyjson adapts github.com/goccy/go-json, a drop-in
// replacement for encoding/json.
package goccyjson

import (
	"io"

	"github.com/goccy/go-json"

	"github.com/serbench/serbench/codec"
)

const (
	module = "github.com/goccy/go-json"
	url    = "https://github.com/goccy/go-json"
)

// Default is json.Marshal and json.Unmarshal: encoding/json's behaviour.
var Default = codec.Declare(codec.Info{
	Name: "goccy-json", Family: "json", Label: "goccy/go-json", Module: module, URL: url,
	API:    codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.IntegerFloat}},
	New: func() codec.Codec {
		return codec.WithStream(codec.Reflect(json.Marshal, json.Unmarshal),
			func(w io.Writer) codec.Encoder { return json.NewEncoder(w) },
			func(r io.Reader) codec.Decoder { return json.NewDecoder(r) })
	},
})

// Fast is go-json with every documented option that trades
// encoding/json's behaviour for speed.
var Fast = codec.Declare(codec.Info{
	Name: "goccy-json-fast", Family: "json", Label: "goccy/go-json (fast options)", Module: module, URL: url,
	API:    codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.IntegerFloat}},
	Variant: "MarshalWithOption(UnorderedMap, OptimizeFieldOrder, DisableHTMLEscape, DisableNormalizeUTF8); " +
		"UnmarshalWithOption(DecodeFieldPriorityFirstWin, DecodeNoCopyString)",
	Notes: "Output differs from encoding/json's: map keys unsorted, struct fields reordered, " +
		"no HTML escaping, invalid UTF-8 passed through. Decoded strings point into the input.",
	Aliases: true, // DecodeNoCopyString: decoded strings point into the input
	New:     func() codec.Codec { return codec.Reflect(marshalFast, unmarshalFast) },
})

func marshalFast(v any) ([]byte, error) {
	return json.MarshalWithOption(v, json.UnorderedMap(), json.OptimizeFieldOrder(),
		json.DisableHTMLEscape(), json.DisableNormalizeUTF8())
}

func unmarshalFast(data []byte, v any) error {
	return json.UnmarshalWithOption(data, v, json.DecodeFieldPriorityFirstWin(), json.DecodeNoCopyString())
}
