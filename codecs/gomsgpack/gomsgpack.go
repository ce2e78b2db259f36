// Package gomsgpack adapts github.com/hashicorp/go-msgpack/v2, HashiCorp's
// fork of ugorji/go/codec that Raft, Serf and Nomad encode with, through its
// MsgpackHandle.
package gomsgpack

import (
	"reflect"

	"github.com/hashicorp/go-msgpack/v2/codec"

	sb "github.com/serbench/serbench/codec"
)

// handle is configured once and shared, as the library's docs say: the
// new spec's str8 and bin types (WriteExt), as HashiCorp's users set it.
var handle = codec.MsgpackHandle{WriteExt: true}

// Default is go-msgpack's MsgpackHandle.
var Default = sb.Declare(sb.Info{
	Name: "go-msgpack", Family: "msgpack", Label: "hashicorp/go-msgpack", Module: "github.com/hashicorp/go-msgpack/v2",
	URL: "https://github.com/hashicorp/go-msgpack", API: sb.Reflection,
	Adopt:  sb.Adoption{Canonical: "MsgpackHandle.Canonical = true"},
	Losses: []sb.Loss{{Kind: sb.TimeZone}}, // the timestamp extension holds the instant, decoded in UTC
	Notes: "MsgpackHandle{WriteExt: true}, a new Encoder and Decoder per message (NewEncoderBytes, NewDecoderBytes); " +
		"struct fields keyed by their json tags; times in the timestamp extension, decoded in UTC. " +
		"A map whose values are structs holding slices (complexmap5's map[string]Huge) is refused: the decoder " +
		"leaves every entry's slices sharing another entry's elements (with or without MapValueReset), " +
		"though the encoding is right and other MessagePack decoders read it back.",
	New: func() sb.Codec {
		return sb.Refuse(sb.Reflect(marshal, unmarshal), []reflect.Kind{reflect.Map}, mapOfSlices)
	},
})

func marshal(v any) ([]byte, error) {
	var b []byte
	err := codec.NewEncoderBytes(&b, &handle).Encode(v)
	return b, err
}

func unmarshal(data []byte, v any) error { return codec.NewDecoderBytes(data, &handle).Decode(v) }

// mapOfSlices says why a map whose values are structs holding slices is
// refused, or "" for any other map.
func mapOfSlices(m reflect.Value) string {
	t := m.Type().Elem()
	if t.Kind() != reflect.Struct {
		return ""
	}
	for i := range t.NumField() {
		if t.Field(i).Type.Kind() == reflect.Slice {
			return "go-msgpack decodes a map of structs holding slices with the entries' slices sharing elements"
		}
	}
	return ""
}
