// Package jsoniter adapts github.com/json-iterator/go.
package jsoniter

import (
	"io"

	jsoniter "github.com/json-iterator/go"

	"github.com/serbench/serbench/codec"
)

const (
	module = "github.com/json-iterator/go"
	url    = "https://github.com/json-iterator/go"
)

// Std is jsoniter.ConfigCompatibleWithStandardLibrary, the drop-in
// replacement its README shows.
var Std = codec.Declare(codec.Info{
	Name: "jsoniter", Family: "json", Label: "json-iterator/go", Module: module, URL: url,
	API:    codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.IntegerFloat}},
	Notes:  "ConfigCompatibleWithStandardLibrary: HTML escaping, sorted map keys, as encoding/json.",
	New: func() codec.Codec {
		api := jsoniter.ConfigCompatibleWithStandardLibrary
		return codec.WithStream(codec.Reflect(api.Marshal, api.Unmarshal),
			func(w io.Writer) codec.Encoder { return api.NewEncoder(w) },
			func(r io.Reader) codec.Decoder { return api.NewDecoder(r) })
	},
})

// Fastest is jsoniter.ConfigFastest.
var Fastest = codec.Declare(codec.Info{
	Name: "jsoniter-fastest", Family: "json", Label: "json-iterator/go (ConfigFastest)", Module: module, URL: url,
	API:     codec.Reflection,
	Adopt:   codec.Adoption{Canonical: "jsoniter.Config{SortMapKeys: true}"},
	Variant: "jsoniter.ConfigFastest: no HTML escaping, floats written with at most 6 decimals, field names assumed unescaped",
	// WriteFloat64Lossy and WriteFloat32Lossy round to 6 decimals below
	// 0x4ffffff: 6 significant digits from 0.1 up, 6 decimals below.
	Losses: []codec.Loss{{Kind: codec.FloatPrecision, Digits: 6}, {Kind: codec.IntegerFloat}},
	Notes:  "Map keys unsorted; no HTML escaping.",
	New: func() codec.Codec {
		api := jsoniter.ConfigFastest
		return codec.Reflect(api.Marshal, api.Unmarshal)
	},
})
