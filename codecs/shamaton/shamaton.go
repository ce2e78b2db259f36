// Package shamaton adapts github.com/shamaton/msgpack/v2, a MessagePack
// library that encodes structs as maps by default or, in its faster
// documented mode, as arrays.
package shamaton

import (
	"github.com/shamaton/msgpack/v2"

	"github.com/serbench/serbench/codec"
)

const (
	module = "github.com/shamaton/msgpack/v2"
	url    = "https://github.com/shamaton/msgpack"
)

// Map is msgpack.Marshal and msgpack.Unmarshal: structs as maps.
var Map = codec.Declare(codec.Info{
	Name: "shamaton-msgpack", Family: "msgpack", Label: "shamaton/msgpack/v2", Module: module, URL: url,
	API:    codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.TimeZone}},
	Notes: "Struct fields keyed by Go field name. Times decode in time.Local unless " +
		"SetDecodedTimeAsUTC is called (a process-wide switch, left alone here). Decoded []byte fields point into the input.",
	Aliases: true, // a decoded bin ([]byte) is a slice of the input, not a copy
	New:     func() codec.Codec { return codec.Reflect(msgpack.Marshal, msgpack.Unmarshal) },
})

// Array is msgpack.MarshalAsArray and msgpack.UnmarshalAsArray.
var Array = codec.Declare(codec.Info{
	Name: "shamaton-msgpack-array", Family: "msgpack", Label: "shamaton/msgpack/v2 (as array)", Module: module, URL: url,
	API:     codec.Reflection,
	Variant: "MarshalAsArray/UnmarshalAsArray: structs as arrays of field values, no field names",
	Losses:  []codec.Loss{{Kind: codec.TimeZone}},
	Notes: "Not interchangeable with map-encoded msgpack: the reader must know the field order. " +
		"Times decode in time.Local, as in shamaton-msgpack. Decoded []byte fields point into the input.",
	Aliases: true, // as shamaton-msgpack
	New:     func() codec.Codec { return codec.Reflect(msgpack.MarshalAsArray, msgpack.UnmarshalAsArray) },
})
