package interop

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/serbench/serbench/codecs/proto/schema"
)

// Protobuf's cases cross as messages of the project's schema
// (Model.Schema SchemaProto): serbench.proto, whose descriptor the
// generated Go code holds. The peers build their message types from that
// descriptor at run time (a FileDescriptorSet in the peer's header), so
// no generated code of theirs is committed and none can drift from the Go
// side's.

// protoSchema returns serbench.proto and its imports as a serialized
// FileDescriptorSet, imports first.
var protoSchema = sync.OnceValue(func() []byte {
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := range fd.Imports().Len() {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	add(schema.File_serbench_proto)
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(set)
	if err != nil {
		panic(err) // a descriptor the Go code was generated from
	}
	return b
})

// bindMessage binds v, a pointer to a dataset value, to its message of
// serbench.proto, or says why the schema has none: a peer's reading is
// set into a new message, which converts back to the case's type as Go's
// codecs convert theirs.
func bindMessage(v any) (binding, error) {
	b, err := schema.Bind(v)
	if err != nil {
		return binding{}, err
	}
	pr := b.Msg.ProtoReflect()
	return binding{
		typ:  string(pr.Descriptor().FullName()),
		want: messageNeutral(pr),
		into: func(read Value) (any, error) {
			m := b.New()
			if err := intoMessage(read, m.ProtoReflect()); err != nil {
				return nil, err
			}
			return reflect.ValueOf(b.Value(m)).Elem().Interface(), nil
		},
	}, nil
}

// messageNeutral returns a message's neutral form, as the peers read
// theirs: a map of its fields by their names in the schema, in field
// order; a field with presence left out when unset, any other given its
// value (a scalar's default when unset); a repeated field an array, a map
// field a map sorted by key; 64-bit integers as integers, a float field
// as a float32, an enum as its number.
func messageNeutral(m protoreflect.Message) Value {
	out := Value{Kind: Map, Pairs: []Pair{}}
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		f := fields.Get(i)
		if f.HasPresence() && !m.Has(f) {
			continue
		}
		var v Value
		switch {
		case f.IsMap():
			v = Value{Kind: Map, Pairs: []Pair{}}
			m.Get(f).Map().Range(func(k protoreflect.MapKey, e protoreflect.Value) bool {
				v.Pairs = append(v.Pairs, Pair{scalarNeutral(f.MapKey(), k.Value()), fieldNeutral(f.MapValue(), e)})
				return true
			})
			slices.SortFunc(v.Pairs, func(a, b Pair) int { return strings.Compare(a.Key.String(), b.Key.String()) })
		case f.IsList():
			v = Value{Kind: Array, Elems: []Value{}}
			l := m.Get(f).List()
			for j := range l.Len() {
				v.Elems = append(v.Elems, fieldNeutral(f, l.Get(j)))
			}
		default:
			v = fieldNeutral(f, m.Get(f))
		}
		out.Pairs = append(out.Pairs, Pair{Value{Kind: Str, Bytes: []byte(f.Name())}, v})
	}
	return out
}

func fieldNeutral(f protoreflect.FieldDescriptor, v protoreflect.Value) Value {
	if f.Kind() == protoreflect.MessageKind || f.Kind() == protoreflect.GroupKind {
		return messageNeutral(v.Message())
	}
	return scalarNeutral(f, v)
}

func scalarNeutral(f protoreflect.FieldDescriptor, v protoreflect.Value) Value {
	switch f.Kind() {
	case protoreflect.BoolKind:
		return Value{Kind: Bool, Bool: v.Bool()}
	case protoreflect.StringKind:
		return Value{Kind: Str, Bytes: []byte(v.String())}
	case protoreflect.BytesKind:
		return Value{Kind: Bytes, Bytes: slices.Clone(v.Bytes())}
	case protoreflect.DoubleKind:
		return Value{Kind: Float, Bits: math.Float64bits(v.Float())}
	case protoreflect.FloatKind:
		return Value{Kind: Float32, Bits: uint64(math.Float32bits(float32(v.Float())))}
	case protoreflect.EnumKind:
		return Value{Kind: Int, Int: big.NewInt(int64(v.Enum()))}
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return Value{Kind: Int, Int: new(big.Int).SetUint64(v.Uint())}
	}
	return Value{Kind: Int, Int: big.NewInt(v.Int())}
}

// intoMessage sets m's fields from n, a peer's reading in the form
// messageNeutral gives: the message a Go program gets from it. An error
// says how the reading differs in kind from what the schema holds.
func intoMessage(n Value, m protoreflect.Message) error {
	if n.Kind != Map {
		return &mismatch{n, "a message"}
	}
	fields := m.Descriptor().Fields()
	for _, p := range n.Pairs {
		if p.Key.Kind != Str {
			return &mismatch{p.Key, "a field name"}
		}
		f := fields.ByName(protoreflect.Name(p.Key.Bytes))
		if f == nil {
			return fmt.Errorf("read a field %s that %s does not have", p.Key.String(), m.Descriptor().FullName())
		}
		if err := intoField(p.Value, m, f); err != nil {
			return fmt.Errorf("%s: %w", f.Name(), err)
		}
	}
	return nil
}

func intoField(n Value, m protoreflect.Message, f protoreflect.FieldDescriptor) error {
	switch {
	case f.IsMap():
		if n.Kind != Map {
			return &mismatch{n, "a map"}
		}
		mm := m.Mutable(f).Map()
		for _, p := range n.Pairs {
			k, err := intoScalar(p.Key, f.MapKey())
			if err != nil {
				return fmt.Errorf("a key: %w", err)
			}
			var e protoreflect.Value
			if vf := f.MapValue(); vf.Message() != nil {
				e = mm.NewValue()
				if err := intoMessage(p.Value, e.Message()); err != nil {
					return fmt.Errorf("[%s]: %w", p.Key.String(), err)
				}
			} else if e, err = intoScalar(p.Value, vf); err != nil {
				return fmt.Errorf("[%s]: %w", p.Key.String(), err)
			}
			mm.Set(k.MapKey(), e)
		}
	case f.IsList():
		if n.Kind != Array {
			return &mismatch{n, "a list"}
		}
		l := m.Mutable(f).List()
		for i, e := range n.Elems {
			var v protoreflect.Value
			if f.Message() != nil {
				v = l.NewElement()
				if err := intoMessage(e, v.Message()); err != nil {
					return fmt.Errorf("[%d]: %w", i, err)
				}
			} else {
				var err error
				if v, err = intoScalar(e, f); err != nil {
					return fmt.Errorf("[%d]: %w", i, err)
				}
			}
			l.Append(v)
		}
	case f.Message() != nil:
		return intoMessage(n, m.Mutable(f).Message())
	default:
		v, err := intoScalar(n, f)
		if err != nil {
			return err
		}
		m.Set(f, v)
	}
	return nil
}

func intoScalar(n Value, f protoreflect.FieldDescriptor) (protoreflect.Value, error) {
	bad := func(what string) (protoreflect.Value, error) { return protoreflect.Value{}, &mismatch{n, what} }
	switch f.Kind() {
	case protoreflect.BoolKind:
		if n.Kind != Bool {
			return bad("a bool")
		}
		return protoreflect.ValueOfBool(n.Bool), nil
	case protoreflect.StringKind:
		if n.Kind != Str {
			return bad("a string")
		}
		return protoreflect.ValueOfString(string(n.Bytes)), nil
	case protoreflect.BytesKind:
		if n.Kind != Bytes {
			return bad("bytes")
		}
		return protoreflect.ValueOfBytes(slices.Clone(n.Bytes)), nil
	case protoreflect.DoubleKind, protoreflect.FloatKind:
		switch n.Kind {
		case Float, Float32, Num:
			if f.Kind() == protoreflect.FloatKind {
				return protoreflect.ValueOfFloat32(float32(n.Float64())), nil
			}
			return protoreflect.ValueOfFloat64(n.Float64()), nil
		}
		return bad("a float")
	}
	i, err := integer(n)
	if err != nil {
		return bad("an integer")
	}
	var v protoreflect.Value
	switch f.Kind() {
	case protoreflect.EnumKind, protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		if !i.IsInt64() || i.Int64() != int64(int32(i.Int64())) {
			return protoreflect.Value{}, fmt.Errorf("read %s, past an int32", i)
		}
		v = protoreflect.ValueOfInt32(int32(i.Int64()))
		if f.Kind() == protoreflect.EnumKind {
			v = protoreflect.ValueOfEnum(protoreflect.EnumNumber(i.Int64()))
		}
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		if !i.IsUint64() || i.Uint64() > math.MaxUint32 {
			return protoreflect.Value{}, fmt.Errorf("read %s, past a uint32", i)
		}
		v = protoreflect.ValueOfUint32(uint32(i.Uint64()))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		if !i.IsUint64() {
			return protoreflect.Value{}, fmt.Errorf("read %s, past a uint64", i)
		}
		v = protoreflect.ValueOfUint64(i.Uint64())
	default:
		if !i.IsInt64() {
			return protoreflect.Value{}, fmt.Errorf("read %s, past an int64", i)
		}
		v = protoreflect.ValueOfInt64(i.Int64())
	}
	return v, nil
}
