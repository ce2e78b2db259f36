// Package proto adapts google.golang.org/protobuf: proto.Marshal and
// proto.Unmarshal on the messages protoc-gen-go generates from
// schema/serbench.proto.
package proto

import (
	"google.golang.org/protobuf/proto"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/proto/schema"
)

// Default is protobuf-go's Marshal and Unmarshal.
var Default = codec.Declare(codec.Info{
	Name: "proto", Family: "protobuf", Label: "google.golang.org/protobuf",
	Module: "google.golang.org/protobuf", URL: "https://protobuf.dev/reference/go/go-generated/",
	API:         codec.Codegen,
	Adopt:       codec.Adoption{Generator: "protoc, protoc-gen-go (go tool)", Canonical: "proto.MarshalOptions{Deterministic: true}"},
	Unsupported: codec.TopLevelScalar,
	Losses:      schema.Losses,
	Omits:       schema.Omits,
	Notes:       schema.Notes,
	New:         func() codec.Codec { return forwarder{codec.Func(prepare)} },
})

func prepare(v any) (codec.Case, error) {
	return schema.NewCase(v,
		func(m schema.Message) ([]byte, error) { return proto.Marshal(m) },
		func(data []byte, m schema.Message) error { return proto.Unmarshal(data, m) })
}
