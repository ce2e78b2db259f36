// Package msgpack adapts github.com/vmihailenco/msgpack/v5, the most used
// MessagePack library for Go.
package msgpack

import (
	"io"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/serbench/serbench/codec"
)

const (
	module = "github.com/vmihailenco/msgpack/v5"
	url    = "https://github.com/vmihailenco/msgpack"
)

// Default is msgpack.Marshal and msgpack.Unmarshal.
var Default = codec.Declare(codec.Info{
	Name: "msgpack", Family: "msgpack", Label: "vmihailenco/msgpack/v5", Module: module, URL: url,
	API:    codec.Reflection,
	Adopt:  codec.Adoption{Canonical: "Encoder.SetSortMapKeys(true)"},
	Losses: []codec.Loss{{Kind: codec.TimeZone}},
	Notes: "Struct fields keyed by Go field name (the datasets carry no msgpack tags). " +
		"Times as the msgpack timestamp extension, which holds no offset: decoded in time.Local.",
	New: func() codec.Codec {
		return codec.WithStream(codec.Reflect(msgpack.Marshal, msgpack.Unmarshal), newEncoder, newDecoder)
	},
})

// Reuse keeps one Encoder and one Decoder for all messages.
var Reuse = codec.Declare(codec.Info{
	Name: "msgpack-reuse", Family: "msgpack", Label: "vmihailenco/msgpack/v5 (reused Encoder, Decoder)", Module: module, URL: url,
	API:     codec.Reflection,
	Adopt:   codec.Adoption{Canonical: "Encoder.SetSortMapKeys(true)"},
	Variant: "one Encoder writing into a reused bytes.Buffer and one Decoder reset to each message, kept across messages",
	Losses:  []codec.Loss{{Kind: codec.TimeZone}},
	Notes:   "Same bytes as msgpack; Marshal allocates a new buffer per message, this does not.",
	New:     func() codec.Codec { return codec.Stream(newEncoder, newDecoder, nil) },

	ReusesBuffer: true, // Encode writes into a buffer kept across calls
})

func newEncoder(w io.Writer) codec.Encoder { return msgpack.NewEncoder(w) }
func newDecoder(r io.Reader) codec.Decoder { return msgpack.NewDecoder(r) }
