// Package burntsushi adapts github.com/BurntSushi/toml.
package burntsushi

import (
	"github.com/BurntSushi/toml"

	"github.com/serbench/serbench/codec"
)

// Default is toml.Marshal and toml.Unmarshal.
var Default = codec.Declare(codec.Info{
	Name: "burntsushi-toml", Family: "toml", Label: "BurntSushi/toml", Module: "github.com/BurntSushi/toml",
	URL: "https://github.com/BurntSushi/toml", API: codec.Reflection,
	Unsupported: codec.NonStringKey, // "toml: cannot encode a map with non-string key type"
	Notes: "TOML has no null: nil pointers, slices and maps are left out, and values holding a nil interface (null in generic data) are refused. " +
		"TOML's top level is a table: slices and scalars are wrapped in items = ... . " +
		"Integers are signed 64-bit: values holding a larger uint64 are refused. " +
		"Keys are Go field names (the datasets carry no toml tags).",
	New: func() codec.Codec {
		return codec.NoNull("TOML", codec.SignedInts("TOML", codec.Document("toml", "items", toml.Marshal, toml.Unmarshal)))
	},
})
