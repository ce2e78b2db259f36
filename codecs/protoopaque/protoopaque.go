// Package protoopaque adapts google.golang.org/protobuf's Opaque API: the
// proto codec's messages (codecs/proto/schema) generated again with
// default_api_level=API_OPAQUE, whose fields are hidden behind accessors
// and whose decoder can leave nested messages undecoded until first read
// ([lazy = true]). Both write the same bytes as the proto codec.
//
// The adapter finds a dataset message's Opaque twin by name in the global
// registry and converts between the two by their bytes (the same wire
// format), outside Encode and Decode; the lazy codec's Value reads the
// decoded message through its getters instead (lazy.go), which decodes
// every lazily kept field.
package protoopaque

import (
	"errors"
	"fmt"
	"reflect"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/proto/schema"
	_ "github.com/serbench/serbench/codecs/protoopaque/lazyschema" // registers serbench.lazy
	_ "github.com/serbench/serbench/codecs/protoopaque/schema"     // registers serbench.opaque
)

// Opaque is proto.Marshal and proto.Unmarshal on Opaque API messages.
var Opaque = codec.Declare(codec.Info{
	Name: "proto-opaque", Family: "protobuf", Label: "google.golang.org/protobuf (Opaque API)",
	Module: "google.golang.org/protobuf", URL: "https://go.dev/blog/protobuf-opaque",
	API:         codec.Codegen,
	Adopt:       codec.Adoption{Generator: "protoc, protoc-gen-go (go tool)", Canonical: "proto.MarshalOptions{Deterministic: true}"},
	Variant:     "Opaque API: generated with default_api_level=API_OPAQUE (hidden fields, presence bits)",
	Unsupported: codec.TopLevelScalar,
	Losses:      schema.Losses,
	Omits:       schema.Omits,
	// Value converts the decoded Opaque message into the proto codec's
	// open one by its bytes, then to the dataset type: the harness's cost.
	ValueConverts: true,
	Notes:         "proto.Marshal and proto.Unmarshal into a new message. " + schema.Notes,
	New: func() codec.Codec {
		return codec.Func(func(v any) (codec.Case, error) { return prepare(v, "serbench.opaque", false) })
	},
})

// Lazy is Opaque with [lazy = true] on every message-typed field.
var Lazy = codec.Declare(codec.Info{
	Name: "proto-opaque-lazy", Family: "protobuf", Label: "google.golang.org/protobuf (Opaque API, lazy)",
	Module: "google.golang.org/protobuf", URL: "https://protobuf.dev/reference/go/opaque-faq/",
	API:         codec.Codegen,
	Adopt:       codec.Adoption{Generator: "protoc, protoc-gen-go (go tool)", Canonical: "proto.MarshalOptions{Deterministic: true}"},
	Variant:     "Opaque API with lazy decoding: [lazy = true] on every message field, decoded on first access",
	Unsupported: codec.TopLevelScalar,
	Losses:      schema.Losses,
	Omits:       schema.Omits,
	// Decode leaves nested messages undecoded; Value reads them all.
	Lazy: true,
	Notes: "proto.Unmarshal leaves each message field's bytes undecoded until first read; Value reads every field " +
		"through the generated getters into the dataset type, and is timed with Decode: the decode figure is a full " +
		"read, what lazy decoding costs a program that reads everything. " + schema.Notes,
	New: func() codec.Codec {
		return codec.Func(func(v any) (codec.Case, error) { return prepare(v, "serbench.lazy", true) })
	},
})

// prepare binds v to its message in the Opaque schema pkg; lazy says
// whether Value reads the decoded message through its getters (forcing
// lazy fields, lazyValues) rather than converting it by its bytes.
func prepare(v any, pkg protoreflect.FullName, lazy bool) (codec.Case, error) {
	b, err := schema.Bind(v)
	if err != nil {
		return nil, err
	}
	name := pkg.Append(b.Msg.ProtoReflect().Descriptor().Name())
	mt, err := protoregistry.GlobalTypes.FindMessageByName(name)
	if err != nil {
		return nil, fmt.Errorf("protoopaque: no message %s: %w", name, err)
	}
	data, err := proto.Marshal(b.Msg)
	if err != nil {
		return nil, err
	}
	msg := mt.New().Interface()
	if err := proto.Unmarshal(data, msg); err != nil {
		return nil, fmt.Errorf("protoopaque: converting to %s: %w", name, err)
	}
	c := &opaqueCase{b: b, mt: mt, msg: msg}
	if lazy {
		if c.read = lazyValues[reflect.TypeOf(v)]; c.read == nil {
			return nil, fmt.Errorf("protoopaque: no lazy conversion for %T", v)
		}
	}
	return c, nil
}

type opaqueCase struct {
	b    schema.Binding
	mt   protoreflect.MessageType
	msg  proto.Message
	out  proto.Message
	read func(proto.Message) any // lazy: the dataset value, read through the getters
}

func (c *opaqueCase) Encode() ([]byte, error) { return proto.Marshal(c.msg) }

func (c *opaqueCase) Decode(data []byte) error {
	c.out = c.mt.New().Interface()
	return proto.Unmarshal(data, c.out)
}

func (c *opaqueCase) Value() (any, error) {
	if c.out == nil {
		return nil, errors.New("protoopaque: Value called before Decode")
	}
	if c.read != nil {
		return c.read(c.out), nil
	}
	m := c.b.New()
	data, err := proto.Marshal(c.out)
	if err != nil {
		return nil, err
	}
	if err := proto.Unmarshal(data, m); err != nil {
		return nil, err
	}
	return c.b.Value(m), nil
}
