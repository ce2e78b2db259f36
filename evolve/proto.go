package evolve

import (
	"fmt"

	"buf.build/go/hyperpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/serbench/serbench/evolve/change"
	_ "github.com/serbench/serbench/evolve/pb/v1" // the messages of version v1
	_ "github.com/serbench/serbench/evolve/pb/v2" // the messages of version v2
)

// protoFormat reads and writes a case's generated messages (package
// evolve/pb), fields set and read through protoreflect by name. vt uses
// vtprotobuf's generated MarshalVT and UnmarshalVT instead of
// proto.Marshal and proto.Unmarshal; hyper decodes into hyperpb's
// dynamic message, compiled at run time from the reader's descriptor (its
// encoding is proto.Marshal, hyperpb having no encoder).
type protoFormat struct{ vt, hyper bool }

// vtMessage is what vtprotobuf generates for a message.
type vtMessage interface {
	MarshalVT() ([]byte, error)
	UnmarshalVT([]byte) error
}

// newMessage returns an empty message of version v of case c.
func newMessage(c *change.Case, v change.Version) (protoreflect.Message, error) {
	name := protoreflect.FullName("serbench.evolve." + v.Name + "." + change.TypeName(c.Name))
	mt, err := protoregistry.GlobalTypes.FindMessageByName(name)
	if err != nil {
		return nil, fmt.Errorf("evolve: no generated message %s; run go generate ./evolve/pb", name)
	}
	return mt.New(), nil
}

func (f protoFormat) encode(c *change.Case, w change.Version) ([]byte, error) {
	m, err := newMessage(c, w)
	if err != nil {
		return nil, err
	}
	fields := m.Descriptor().Fields()
	for _, fd := range w.Fields {
		v, ok := w.Data[fd.Key()]
		if !ok {
			continue
		}
		setProto(m, fields.ByName(protoreflect.Name(fd.Name)), v)
	}
	return f.marshal(m.Interface())
}

func (f protoFormat) marshal(m proto.Message) ([]byte, error) {
	if f.vt {
		return m.(vtMessage).MarshalVT()
	}
	return proto.Marshal(m)
}

func (f protoFormat) decode(c *change.Case, _, r change.Version, data []byte) (any, error) {
	m, err := newMessage(c, r)
	if err != nil {
		return nil, err
	}
	msg := m.Interface()
	switch {
	case f.hyper:
		hm := hyperpb.NewMessage(hyperpb.CompileMessageDescriptor(m.Descriptor()))
		return hm, hm.Unmarshal(data)
	case f.vt:
		err = msg.(vtMessage).UnmarshalVT(data)
	default:
		err = proto.Unmarshal(data, msg)
	}
	return msg, err
}

func (f protoFormat) reencode(_ *change.Case, _ change.Version, native any) ([]byte, error) {
	return f.marshal(native.(proto.Message))
}

func (f protoFormat) record(_ *change.Case, r change.Version, native any) (change.Record, error) {
	m := native.(proto.Message).ProtoReflect()
	fields := m.Descriptor().Fields()
	rec := change.Record{}
	for _, fd := range r.Fields {
		d := fields.ByName(protoreflect.Name(fd.Name))
		if d == nil {
			return nil, fmt.Errorf("message %s has no field %s", m.Descriptor().FullName(), fd.Name)
		}
		rec[fd.Key()] = protoValue(fd.Kind, m, d)
	}
	return rec, nil
}

// setProto sets field d of m to the canonical value v.
func setProto(m protoreflect.Message, d protoreflect.FieldDescriptor, v any) {
	switch x := v.(type) {
	case int64:
		switch d.Kind() {
		case protoreflect.EnumKind:
			m.Set(d, protoreflect.ValueOfEnum(protoreflect.EnumNumber(x)))
		case protoreflect.Int32Kind, protoreflect.Sint32Kind:
			m.Set(d, protoreflect.ValueOfInt32(int32(x)))
		default:
			m.Set(d, protoreflect.ValueOfInt64(x))
		}
	case uint64:
		m.Set(d, protoreflect.ValueOfUint32(uint32(x)))
	case []string:
		l := m.Mutable(d).List()
		for _, s := range x {
			l.Append(protoreflect.ValueOfString(s))
		}
	case []int64:
		l := m.Mutable(d).List()
		for _, n := range x {
			l.Append(protoreflect.ValueOfInt32(int32(n)))
		}
	case map[string]int64:
		mp := m.Mutable(d).Map()
		for k, n := range x {
			mp.Set(protoreflect.ValueOfString(k).MapKey(), protoreflect.ValueOfInt64(n))
		}
	case []change.Pair:
		l := m.Mutable(d).List()
		for _, p := range x {
			e := l.NewElement().Message()
			e.Set(e.Descriptor().Fields().ByName("key"), protoreflect.ValueOfString(p.Key))
			e.Set(e.Descriptor().Fields().ByName("value"), protoreflect.ValueOfInt64(p.Value))
			l.Append(protoreflect.ValueOfMessage(e))
		}
	case change.Inner:
		e := m.Mutable(d).Message()
		e.Set(e.Descriptor().Fields().ByName("id"), protoreflect.ValueOfInt64(x.ID))
		e.Set(e.Descriptor().Fields().ByName("tag"), protoreflect.ValueOfString(x.Tag))
	default:
		m.Set(d, protoreflect.ValueOf(v))
	}
}

// protoValue returns field d of m as the canonical value of kind k: its
// default when it is not set.
func protoValue(k change.Kind, m protoreflect.Message, d protoreflect.FieldDescriptor) any {
	v := m.Get(d)
	switch {
	case d.IsList():
		l := v.List()
		switch k {
		case change.Pairs:
			var ps []change.Pair
			for i := range l.Len() {
				e := l.Get(i).Message()
				ps = append(ps, change.Pair{Key: e.Get(e.Descriptor().Fields().ByName("key")).String(), Value: e.Get(e.Descriptor().Fields().ByName("value")).Int()})
			}
			return change.Canonical(k, ps)
		case change.Strings:
			var ss []string
			for i := range l.Len() {
				ss = append(ss, l.Get(i).String())
			}
			return change.Canonical(k, ss)
		}
		var ns []int64
		for i := range l.Len() {
			ns = append(ns, l.Get(i).Int())
		}
		return change.Canonical(k, ns)
	case d.IsMap():
		out := map[string]int64{}
		v.Map().Range(func(mk protoreflect.MapKey, mv protoreflect.Value) bool {
			out[mk.String()] = mv.Int()
			return true
		})
		return change.Canonical(k, out)
	}
	switch d.Kind() {
	case protoreflect.MessageKind:
		e := v.Message()
		return change.Inner{ID: e.Get(e.Descriptor().Fields().ByName("id")).Int(), Tag: e.Get(e.Descriptor().Fields().ByName("tag")).String()}
	case protoreflect.EnumKind:
		return int64(v.Enum())
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind:
		return v.Uint()
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Int64Kind, protoreflect.Sint64Kind:
		return v.Int()
	case protoreflect.BytesKind:
		return change.Canonical(k, v.Bytes())
	}
	return v.Interface()
}
