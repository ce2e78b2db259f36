// Package json adapts encoding/json.
package json

import (
	"encoding/json"
	"io"

	"github.com/serbench/serbench/codec"
)

// Std is encoding/json used as documented: Marshal and Unmarshal.
var Std = codec.Declare(codec.Info{
	Name: "json", Family: "json", Label: "encoding/json", Module: "std",
	URL: "https://pkg.go.dev/encoding/json", API: codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.IntegerFloat}}, // a number into any is a float64
	New: func() codec.Codec {
		return codec.WithStream(codec.Reflect(json.Marshal, json.Unmarshal),
			func(w io.Writer) codec.Encoder { return json.NewEncoder(w) },
			func(r io.Reader) codec.Decoder { return json.NewDecoder(r) })
	},
})
