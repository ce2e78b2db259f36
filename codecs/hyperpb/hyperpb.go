// Package hyperpb adapts buf.build/go/hyperpb, a table-driven Protobuf
// parser compiled at run time from a message descriptor: it decodes the
// proto codec's messages (codecs/proto/schema) into its own read-only
// dynamic messages. It has no encoder: encoding is protobuf-go's
// proto.Marshal on the generated messages, so both codecs read the same
// bytes.
package hyperpb

import (
	"errors"
	"sync"

	"buf.build/go/hyperpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/proto/schema"
)

// Default is hyperpb's Unmarshal, with proto.Marshal to encode.
var Default = codec.Declare(codec.Info{
	Name: "hyperpb", Family: "protobuf", Label: "hyperpb", Module: "buf.build/go/hyperpb",
	URL: "https://github.com/bufbuild/hyperpb-go", API: codec.Schema,
	Adopt:       codec.Adoption{Generator: "protoc, protoc-gen-go (go tool): the descriptors it compiles come from the generated code"},
	Variant:     "decode only: encoding is protobuf-go's proto.Marshal of the generated messages",
	Unsupported: codec.TopLevelScalar,
	Losses:      schema.Losses,
	Omits:       schema.Omits,
	// Value merges the decoded hyperpb message into a generated one, then
	// converts that to the dataset type: what it costs is the harness's.
	ValueConverts: true,
	Notes: "The message types are compiled once per descriptor (CompileMessageDescriptor, cached as the docs advise); " +
		"Decode is (*hyperpb.Message).Unmarshal into a new message. " +
		"Encode is proto.Marshal, hyperpb having no encoder. " + schema.Notes,
	New: func() codec.Codec { return codec.Func(prepare) },
})

// types caches the compiled type of each message descriptor.
var types sync.Map // protoreflect.FullName -> *hyperpb.MessageType

func compiled(d protoreflect.MessageDescriptor) *hyperpb.MessageType {
	if t, ok := types.Load(d.FullName()); ok {
		return t.(*hyperpb.MessageType)
	}
	t, _ := types.LoadOrStore(d.FullName(), hyperpb.CompileMessageDescriptor(d))
	return t.(*hyperpb.MessageType)
}

func prepare(v any) (codec.Case, error) {
	b, err := schema.Bind(v)
	if err != nil {
		return nil, err
	}
	return &hyperCase{b: b, ty: compiled(b.Msg.ProtoReflect().Descriptor())}, nil
}

type hyperCase struct {
	b   schema.Binding
	ty  *hyperpb.MessageType
	out *hyperpb.Message
}

func (c *hyperCase) Encode() ([]byte, error) { return proto.Marshal(c.b.Msg) }

func (c *hyperCase) Decode(data []byte) error {
	c.out = hyperpb.NewMessage(c.ty)
	return c.out.Unmarshal(data)
}

func (c *hyperCase) Value() (any, error) {
	if c.out == nil {
		return nil, errors.New("hyperpb: Value called before Decode")
	}
	m := c.b.New()
	proto.Merge(m, c.out)
	return c.b.Value(m), nil
}
