// Package sonic adapts github.com/bytedance/sonic, a JSON library that
// compiles encoders and decoders to machine code at run time (amd64 and
// arm64; elsewhere, and on Go versions it does not know, it falls back to
// encoding/json). It is registered in its three documented configs.
package sonic

import (
	"io"
	"reflect"

	"github.com/bytedance/sonic"

	"github.com/serbench/serbench/codec"
)

const (
	// jit is how sonic generates code at run time (codec.Adoption.JIT).
	jit    = "encoders and decoders compiled to machine code per type on first use (amd64, arm64)"
	module = "github.com/bytedance/sonic"
	url    = "https://github.com/bytedance/sonic"
)

// Default is sonic.Marshal and sonic.Unmarshal (sonic.ConfigDefault).
var Default = codec.Declare(codec.Info{
	Name: "sonic", Family: "json", Label: "bytedance/sonic", Module: module, URL: url,
	API:    codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.IntegerFloat}},
	Adopt:  codec.Adoption{JIT: jit, Canonical: "sonic.Config{SortMapKeys: true}"},
	Notes: "ConfigDefault: unlike encoding/json, no HTML escaping, map keys unsorted, " +
		"decoded strings point into the input instead of being copied.",
	New: func() codec.Codec {
		return codec.WithStreamRefusing(codec.Reflect(sonic.Marshal, sonic.Unmarshal),
			func(w io.Writer) codec.Encoder { return sonic.ConfigDefault.NewEncoder(w) },
			func(r io.Reader) codec.Decoder { return sonic.ConfigDefault.NewDecoder(r) }, topLevelNumber)
	},
})

// Std is sonic.ConfigStd, its encoding/json-compatible config.
var Std = codec.Declare(codec.Info{
	Name: "sonic-std", Family: "json", Label: "bytedance/sonic (ConfigStd)", Module: module, URL: url,
	API:     codec.Reflection,
	Losses:  []codec.Loss{{Kind: codec.IntegerFloat}},
	Adopt:   codec.Adoption{JIT: jit},
	Variant: "sonic.ConfigStd: HTML escaping, sorted map keys, copied and validated strings, as encoding/json",
	New: func() codec.Codec {
		return codec.Reflect(sonic.ConfigStd.Marshal, sonic.ConfigStd.Unmarshal)
	},
})

// Fastest is sonic.ConfigFastest.
var Fastest = codec.Declare(codec.Info{
	Name: "sonic-fastest", Family: "json", Label: "bytedance/sonic (ConfigFastest)", Module: module, URL: url,
	API:     codec.Reflection,
	Losses:  []codec.Loss{{Kind: codec.IntegerFloat}},
	Adopt:   codec.Adoption{JIT: jit, Canonical: "sonic.Config{SortMapKeys: true}"},
	Variant: "sonic.ConfigFastest: ConfigDefault without validating MarshalJSON output or skipped values",
	Notes: "As ConfigDefault, plus: the output of MarshalJSON methods (time.Time's among them) " +
		"is copied unchecked, and unknown fields are skipped unvalidated.",
	New: func() codec.Codec {
		return codec.Reflect(sonic.ConfigFastest.Marshal, sonic.ConfigFastest.Unmarshal)
	},
})

// topLevelNumber refuses a stream of top-level numbers: sonic's stream
// Decoder loses them (of "23422\n23423\n23422\n23423\n" it decodes two,
// then returns io.EOF).
func topLevelNumber(v any) string {
	switch reflect.TypeOf(v).Elem().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "its Decoder loses top-level numbers (of 23422, 23423, 23422, 23423, one per line, it decodes two, then returns io.EOF)"
	}
	return ""
}
