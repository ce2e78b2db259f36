// Package vtproto adapts vtprotobuf: the MarshalVT and UnmarshalVT methods
// protoc-gen-go-vtproto generates, on the same messages as the proto codec
// (codecs/proto/schema), so both encode identical bytes; and its two
// faster ways to decode, a pooled target and unsafe strings.
package vtproto

import (
	"errors"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/proto/schema"
)

// Default is vtprotobuf's MarshalVT and UnmarshalVT.
var Default = codec.Declare(info("vtproto", "", "Generated MarshalVT/UnmarshalVT, no reflection, decoding into a fresh message.",
	func() codec.Codec { return codec.Func(prepare) }))

// Pool decodes into one target reset with ResetVT: the pool feature keeps
// the repeated fields' capacity and takes nested messages from vtprotobuf's
// pools, so a decoded value lives until the next Decode.
var Pool = codec.Declare(func() codec.Info {
	i := info("vtproto-pool", "decode target reused: ResetVT before each UnmarshalVT (the pool feature recycles nested messages)",
		"Generated UnmarshalVT into one message per case, reset with ResetVT, which returns nested messages "+
			"to their sync.Pools and keeps repeated fields' capacity for the next decode.",
		func() codec.Codec { return codec.Func(preparePool) })
	i.ReusesTarget = true
	return i
}())

// Unsafe decodes with UnmarshalVTUnsafe: strings and bytes point into the
// input instead of being copied.
var Unsafe = codec.Declare(func() codec.Info {
	i := info("vtproto-unsafe", "zero-copy decode: UnmarshalVTUnsafe, strings and bytes alias the input",
		"Generated UnmarshalVTUnsafe (feature unmarshal_unsafe): decoded strings and bytes share the input's memory, "+
			"which must outlive the value.",
		func() codec.Codec { return codec.Func(prepareUnsafe) })
	i.Aliases = true
	return i
}())

func info(name, variant, notes string, newCodec func() codec.Codec) codec.Info {
	return codec.Info{
		Name: name, Family: "protobuf", Label: "vtprotobuf",
		Module: "github.com/planetscale/vtprotobuf", URL: "https://github.com/planetscale/vtprotobuf",
		API:         codec.Codegen,
		Adopt:       codec.Adoption{Generator: "protoc, protoc-gen-go, protoc-gen-go-vtproto (go tool)"},
		Variant:     variant,
		Unsupported: codec.TopLevelScalar,
		Losses:      schema.Losses,
		Omits:       schema.Omits,
		Notes:       notes + " " + schema.Notes,
		New:         newCodec,
	}
}

func prepare(v any) (codec.Case, error) {
	return schema.NewCase(v,
		schema.Message.MarshalVT,
		func(data []byte, m schema.Message) error { return m.UnmarshalVT(data) })
}

func prepareUnsafe(v any) (codec.Case, error) {
	return schema.NewCase(v,
		schema.Message.MarshalVT,
		func(data []byte, m schema.Message) error { return m.UnmarshalVTUnsafe(data) })
}

func preparePool(v any) (codec.Case, error) {
	b, err := schema.Bind(v)
	if err != nil {
		return nil, err
	}
	return &poolCase{b: b, out: b.New()}, nil
}

// A poolCase decodes into one message, reset before each decode.
type poolCase struct {
	b       schema.Binding
	out     schema.Message
	decoded bool
}

func (c *poolCase) Encode() ([]byte, error) { return c.b.Msg.MarshalVT() }

func (c *poolCase) Decode(data []byte) error {
	c.out.ResetVT()
	c.decoded = true
	return c.out.UnmarshalVT(data)
}

func (c *poolCase) Value() (any, error) {
	if !c.decoded {
		return nil, errors.New("vtproto: Value called before Decode")
	}
	return c.b.Value(c.out), nil
}
