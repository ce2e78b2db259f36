// Package kelindar adapts github.com/kelindar/binary, a compact
// schema-less binary format for Go-to-Go messages: values are written in
// field order with varint lengths, no field names.
package kelindar

import (
	"github.com/kelindar/binary"

	"github.com/serbench/serbench/codec"
)

// Default is binary.Marshal and binary.Unmarshal.
var Default = codec.Declare(codec.Info{
	Name: "kelindar-binary", Family: "kelindar", Label: "kelindar/binary", Module: "github.com/kelindar/binary",
	URL: "https://github.com/kelindar/binary", API: codec.Reflection,
	// "binary: unsupported type interface {}"; a type that contains
	// itself overflows the stack in its type scanner.
	Unsupported: codec.Interface | codec.Recursive,
	Losses:      []codec.Loss{{Kind: codec.NilEmpty}},
	Notes:       "Positional: the reader must have the same Go types. Times via time.Time's MarshalBinary. Slices and maps carry only a length: an empty slice decodes nil and a nil map empty.",
	New:         func() codec.Codec { return codec.Reflect(binary.Marshal, binary.Unmarshal) },
})
