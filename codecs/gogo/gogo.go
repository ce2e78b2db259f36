// Package gogo adapts github.com/gogo/protobuf, the fork of golang/protobuf
// with generated fast-path Marshal and Unmarshal methods
// (protoc-gen-gogofast) on messages generated from the proto codec's
// serbench.proto. gogo/protobuf is deprecated: it is no longer maintained
// and predates protobuf-go's APIv2; it is measured because long-lived code
// still uses it.
//
// The adapter is generic over the messages: a dataset value becomes the
// proto codec's message, whose bytes are decoded into the gogo message of
// the same name when the case is prepared; Value does the reverse. Both
// conversions are outside Encode and Decode.
package gogo

import (
	"errors"
	"fmt"
	"reflect"

	gogoproto "github.com/gogo/protobuf/proto"
	"google.golang.org/protobuf/proto"

	"github.com/serbench/serbench/codec"
	_ "github.com/serbench/serbench/codecs/gogo/schema" // registers serbench.gogo
	"github.com/serbench/serbench/codecs/proto/schema"
)

// Fast is gogo/protobuf's generated Marshal and Unmarshal.
var Fast = codec.Declare(codec.Info{
	Name: "gogoproto", Family: "protobuf", Label: "gogo/protobuf (gogofast, deprecated)",
	Module: "github.com/gogo/protobuf", URL: "https://github.com/gogo/protobuf",
	API:         codec.Codegen,
	Adopt:       codec.Adoption{Generator: "protoc, protoc-gen-gogofast (go tool)"},
	Variant:     "deprecated library: no longer maintained, and older than protobuf-go's APIv2",
	Unsupported: codec.TopLevelScalar,
	Losses: append([]codec.Loss{
		// Without proto3 optional, a pointer to a zero scalar is not sent.
		{Kind: codec.NilPointerZero},
	}, schema.Losses...),
	Omits: schema.Omits,
	// Value converts the decoded gogo message back through the proto
	// codec's message (by its bytes): the harness's cost.
	ValueConverts: true,
	Notes: "Deprecated: gogo/protobuf is unmaintained. Generated Marshal and Unmarshal (protoc-gen-gogofast) on " +
		"serbench.proto without its optional labels, which gogo's plugins refuse: a pointer to a zero value comes back nil. " +
		"Times are gogo's types.Timestamp. " + schema.Notes,
	New: func() codec.Codec { return codec.Func(prepare) },
})

// A message is a gogofast message.
type message interface {
	gogoproto.Message
	Marshal() ([]byte, error)
	Unmarshal(data []byte) error
}

func prepare(v any) (codec.Case, error) {
	b, err := schema.Bind(v)
	if err != nil {
		return nil, err
	}
	name := "serbench.gogo." + string(b.Msg.ProtoReflect().Descriptor().Name())
	t := gogoproto.MessageType(name)
	if t == nil {
		return nil, fmt.Errorf("gogo: no message %s", name)
	}
	data, err := proto.Marshal(b.Msg)
	if err != nil {
		return nil, err
	}
	c := &gogoCase{b: b, typ: t.Elem()}
	c.msg = c.new()
	if err := c.msg.Unmarshal(data); err != nil {
		return nil, fmt.Errorf("gogo: converting to %s: %w", name, err)
	}
	return c, nil
}

type gogoCase struct {
	b   schema.Binding
	typ reflect.Type
	msg message
	out message
}

func (c *gogoCase) new() message { return reflect.New(c.typ).Interface().(message) }

func (c *gogoCase) Encode() ([]byte, error) { return c.msg.Marshal() }

func (c *gogoCase) Decode(data []byte) error {
	c.out = c.new()
	return c.out.Unmarshal(data)
}

func (c *gogoCase) Value() (any, error) {
	if c.out == nil {
		return nil, errors.New("gogo: Value called before Decode")
	}
	data, err := c.out.Marshal()
	if err != nil {
		return nil, err
	}
	m := c.b.New()
	if err := proto.Unmarshal(data, m); err != nil {
		return nil, err
	}
	return c.b.Value(m), nil
}
