// Package ojg adapts github.com/ohler55/ojg, Optimized JSON for Go: oj's
// writer encodes Go values, and oj's parser and alt's Recomposer decode.
package ojg

import (
	"time"

	"github.com/ohler55/ojg"
	"github.com/ohler55/ojg/alt"
	"github.com/ohler55/ojg/oj"

	"github.com/serbench/serbench/codec"
)

// Default is oj.Marshal with the options closest to encoding/json, and
// oj.Parser with alt.Recompose.
var Default = codec.Info{
	Name: "ojg", Family: "json", Label: "ohler55/ojg", Module: "github.com/ohler55/ojg",
	URL: "https://github.com/ohler55/ojg", API: codec.Reflection,
	// alt.Recompose cannot turn an object's string keys into ints.
	Unsupported: codec.NonStringKey,
	// A nil slice or map is written as null, which Recompose fills as an
	// empty one.
	Losses: []codec.Loss{{Kind: codec.NilEmpty}},
	Notes: "oj.Marshal with ojg.GoOptions (json tags, base64 bytes) and RFC 3339 times with nanoseconds. " +
		"Decoding parses to generic values with oj.Parser, then alt.Recompose fills the typed value: " +
		"oj.Unmarshal would parse every number as a float64 and lose integers above 2^53. " +
		"The parser reads integers as int64: a uint64 above MaxInt64 is refused.",
	New: func() codec.Codec { return codec.SignedInts("oj.Parser's", codec.Reflect(marshal, unmarshal)) },
}

// options are ojg.GoOptions, writing times as RFC 3339 with nanoseconds.
var options = func() ojg.Options {
	o := ojg.GoOptions
	o.TimeFormat = time.RFC3339Nano
	return o
}()

func marshal(v any) ([]byte, error) { return oj.Marshal(v, &options) }

func unmarshal(data []byte, v any) error {
	var p oj.Parser
	generic, err := p.Parse(data)
	if err != nil {
		return err
	}
	_, err = alt.Recompose(generic, v)
	return err
}
