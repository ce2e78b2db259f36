// Package vtproto adapts vtprotobuf: the MarshalVT and UnmarshalVT methods
// protoc-gen-go-vtproto generates, on the same messages as the proto codec
// (codecs/proto/schema), so both encode identical bytes.
package vtproto

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/proto/schema"
)

// Default is vtprotobuf's MarshalVT and UnmarshalVT.
var Default = codec.Info{
	Name: "vtproto", Family: "protobuf", Label: "vtprotobuf",
	Module: "github.com/planetscale/vtprotobuf", URL: "https://github.com/planetscale/vtprotobuf",
	API:         codec.Codegen,
	Unsupported: codec.TopLevelScalar,
	Losses:      schema.Losses,
	Omits:       schema.Omits,
	Notes:       "Generated MarshalVT/UnmarshalVT (features marshal+unmarshal+size), no reflection. " + schema.Notes,
	New:         func() codec.Codec { return codec.Func(prepare) },
}

func prepare(v any) (codec.Case, error) {
	return schema.NewCase(v,
		schema.Message.MarshalVT,
		func(data []byte, m schema.Message) error { return m.UnmarshalVT(data) })
}
