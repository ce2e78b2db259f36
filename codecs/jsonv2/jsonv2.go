// Package jsonv2 adapts github.com/go-json-experiment/json, the module
// from which the standard library's encoding/json/v2 comes (that one needs
// GOEXPERIMENT=jsonv2 on Go 1.26).
package jsonv2

import (
	"github.com/go-json-experiment/json"

	"github.com/serbench/serbench/codec"
)

// V2 is json.Marshal and json.Unmarshal with v2's default options.
var V2 = codec.Info{
	Name: "jsonv2", Family: "json", Label: "go-json-experiment/json (v2)",
	Module: "github.com/go-json-experiment/json", URL: "https://github.com/go-json-experiment/json",
	API:    codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.NilEmpty}},
	Notes: "v2 defaults: nil slices and maps encode as [] and {}, so they decode as empty; " +
		"field names match case-sensitively; invalid UTF-8 is an error; map keys unsorted.",
	New: func() codec.Codec { return codec.Reflect(marshal, unmarshal) },
}

func marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
