// Package protoopaque adapts google.golang.org/protobuf's Opaque API: the
// proto codec's messages (codecs/proto/schema) generated again with
// default_api_level=API_OPAQUE, whose fields are hidden behind accessors
// and whose decoder can leave nested messages undecoded until first read
// ([lazy = true]). Both write the same bytes as the proto codec.
//
// The adapter is generic over the two schemas: it finds a dataset
// message's Opaque twin by name in the global registry and converts
// between the two outside Encode and Decode: by their bytes (the same
// wire format), and for the lazy codec's Value by protoreflect, field
// number for field number, which reads every lazily kept field.
package protoopaque

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/proto/schema"
	_ "github.com/serbench/serbench/codecs/protoopaque/lazyschema" // registers serbench.lazy
	_ "github.com/serbench/serbench/codecs/protoopaque/schema"     // registers serbench.opaque
)

// Opaque is proto.Marshal and proto.Unmarshal on Opaque API messages.
var Opaque = codec.Info{
	Name: "proto-opaque", Family: "protobuf", Label: "google.golang.org/protobuf (Opaque API)",
	Module: "google.golang.org/protobuf", URL: "https://go.dev/blog/protobuf-opaque",
	API:         codec.Codegen,
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
}

// Lazy is Opaque with [lazy = true] on every message-typed field.
var Lazy = codec.Info{
	Name: "proto-opaque-lazy", Family: "protobuf", Label: "google.golang.org/protobuf (Opaque API, lazy)",
	Module: "google.golang.org/protobuf", URL: "https://protobuf.dev/reference/go/opaque-faq/",
	API:         codec.Codegen,
	Variant:     "Opaque API with lazy decoding: [lazy = true] on every message field, decoded on first access",
	Unsupported: codec.TopLevelScalar,
	Losses:      schema.Losses,
	Omits:       schema.Omits,
	// Decode leaves nested messages undecoded; Value reads them all.
	Lazy: true,
	Notes: "proto.Unmarshal leaves each message field's bytes undecoded until first read; Value reads every field " +
		"(a protoreflect copy into the open message), and is timed with Decode, so the decode figure is an upper " +
		"bound that includes that copy. " + schema.Notes,
	New: func() codec.Codec {
		return codec.Func(func(v any) (codec.Case, error) { return prepare(v, "serbench.lazy", true) })
	},
}

// prepare binds v to its message in the Opaque schema pkg; reflect says
// whether Value reads the decoded message by protoreflect (forcing lazy
// fields) rather than by its bytes.
func prepare(v any, pkg protoreflect.FullName, reflect bool) (codec.Case, error) {
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
	return &opaqueCase{b: b, mt: mt, msg: msg, reflect: reflect}, nil
}

type opaqueCase struct {
	b       schema.Binding
	mt      protoreflect.MessageType
	msg     proto.Message
	out     proto.Message
	reflect bool
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
	m := c.b.New()
	if c.reflect {
		copyMessage(m.ProtoReflect(), c.out.ProtoReflect())
		return c.b.Value(m), nil
	}
	data, err := proto.Marshal(c.out)
	if err != nil {
		return nil, err
	}
	if err := proto.Unmarshal(data, m); err != nil {
		return nil, err
	}
	return c.b.Value(m), nil
}

// copyMessage sets every populated field of src in dst, a message of
// another type with the same fields by number and kind.
func copyMessage(dst, src protoreflect.Message) {
	fields := dst.Descriptor().Fields()
	src.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		dfd := fields.ByNumber(fd.Number())
		switch {
		case fd.IsList():
			dl, sl := dst.Mutable(dfd).List(), v.List()
			for i := range sl.Len() {
				if fd.Message() == nil {
					dl.Append(sl.Get(i))
					continue
				}
				e := dl.NewElement()
				copyMessage(e.Message(), sl.Get(i).Message())
				dl.Append(e)
			}
		case fd.IsMap():
			dm := dst.Mutable(dfd).Map()
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				if fd.MapValue().Message() == nil {
					dm.Set(k, mv)
					return true
				}
				e := dm.NewValue()
				copyMessage(e.Message(), mv.Message())
				dm.Set(k, e)
				return true
			})
		case fd.Message() != nil:
			copyMessage(dst.Mutable(dfd).Message(), v.Message())
		default:
			dst.Set(dfd, v)
		}
		return true
	})
}
