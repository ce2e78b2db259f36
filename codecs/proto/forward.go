package proto

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/serbench/serbench/codec"
)

// forwarder is the proto codec: it prepares dataset values and, as a
// codec.Forwarder, shows what protobuf does with fields a reader's schema
// does not know.
type forwarder struct{ codec.Func }

// Forward encodes Newer{a, b}, decodes it as Older{a} (which has no field 2),
// encodes that and decodes the result as Newer. proto.Unmarshal keeps
// unknown fields and proto.Marshal writes them again, unless
// UnmarshalOptions.DiscardUnknown is set.
func (forwarder) Forward(a string, b int64, discard bool) (string, int64, error) {
	newer, older, err := evolution()
	if err != nil {
		return "", 0, err
	}
	m := dynamicpb.NewMessage(newer)
	m.Set(newer.Fields().ByNumber(1), protoreflect.ValueOfString(a))
	m.Set(newer.Fields().ByNumber(2), protoreflect.ValueOfInt64(b))
	data, err := proto.Marshal(m)
	if err != nil {
		return "", 0, err
	}
	old := dynamicpb.NewMessage(older)
	if err := (proto.UnmarshalOptions{DiscardUnknown: discard}).Unmarshal(data, old); err != nil {
		return "", 0, err
	}
	if data, err = proto.Marshal(old); err != nil {
		return "", 0, err
	}
	back := dynamicpb.NewMessage(newer)
	if err := proto.Unmarshal(data, back); err != nil {
		return "", 0, err
	}
	return back.Get(newer.Fields().ByNumber(1)).String(), back.Get(newer.Fields().ByNumber(2)).Int(), nil
}

// evolution returns two versions of one message, built at run time:
// Newer {string a = 1; int64 b = 2;} and Older {string a = 1;}.
func evolution() (newer, older protoreflect.MessageDescriptor, err error) {
	str := descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum()
	i64 := descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
	field := func(name string, n int32, t *descriptorpb.FieldDescriptorProto_Type) *descriptorpb.FieldDescriptorProto {
		return &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(n), Type: t, Label: opt, JsonName: proto.String(name)}
	}
	fd := &descriptorpb.FileDescriptorProto{
		Name:    proto.String("serbench_forward.proto"),
		Package: proto.String("serbench.forward"),
		Syntax:  proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{
			{Name: proto.String("Newer"), Field: []*descriptorpb.FieldDescriptorProto{field("a", 1, str), field("b", 2, i64)}},
			{Name: proto.String("Older"), Field: []*descriptorpb.FieldDescriptorProto{field("a", 1, str)}},
		},
	}
	file, err := protodesc.NewFile(fd, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("proto: building the forward-compatibility schema: %w", err)
	}
	return file.Messages().ByName("Newer"), file.Messages().ByName("Older"), nil
}
