// Package pelletier adapts github.com/pelletier/go-toml/v2.
package pelletier

import (
	"github.com/pelletier/go-toml/v2"

	"github.com/serbench/serbench/codec"
)

// V2 is toml.Marshal and toml.Unmarshal.
var V2 = codec.Declare(codec.Info{
	Name: "go-toml", Family: "toml", Label: "pelletier/go-toml/v2", Module: "github.com/pelletier/go-toml/v2",
	URL: "https://github.com/pelletier/go-toml", API: codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.NilEmpty}},
	Notes: "TOML has no null: nil pointers, slices and maps are left out, and an empty map too, so it decodes nil; values holding a nil interface (null in generic data) are refused. " +
		"TOML's top level is a table: slices and scalars are wrapped in items = ... . " +
		"Integers are signed 64-bit: values holding a larger uint64 are refused. " +
		"Keys are Go field names (the datasets carry no toml tags).",
	New: func() codec.Codec {
		return codec.NoNull("TOML", codec.SignedInts("TOML", codec.Document("toml", "items", toml.Marshal, toml.Unmarshal)))
	},
})
