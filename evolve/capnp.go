package evolve

import (
	"fmt"
	"reflect"

	capnp "capnproto.org/go/capnp/v3"

	"github.com/serbench/serbench/evolve/capnproto"
	cpv1 "github.com/serbench/serbench/evolve/capnproto/v1"
	cpv2 "github.com/serbench/serbench/evolve/capnproto/v2"
	"github.com/serbench/serbench/evolve/change"
)

// capnpFormat builds and reads a case's Cap'n Proto structs (package
// evolve/capnproto) through the methods capnpc-go generated, called by
// name. A Cap'n Proto reader reads lazily: a misread shows when a field is
// read, in record.
type capnpFormat struct{}

// capnpStructs returns the structs of version v.
func capnpStructs(v change.Version) map[string]capnproto.Struct {
	if v.Name == "v1" {
		return cpv1.Structs
	}
	return cpv2.Structs
}

// capnpName is a field's accessor name: "full_name" is FullName.
func capnpName(f change.Field) string { return change.CamelCase(f.Name) }

// returned returns what a generated method returned, without its error.
func returned(out []reflect.Value) (reflect.Value, error) {
	if len(out) == 2 {
		if err, _ := out[1].Interface().(error); err != nil {
			return out[0], err
		}
	}
	if len(out) == 0 {
		return reflect.Value{}, nil
	}
	return out[0], nil
}

// callMethod calls method name of v with args, and returns its value.
func callMethod(v reflect.Value, name string, args ...any) (reflect.Value, error) {
	m := v.MethodByName(name)
	if !m.IsValid() {
		return reflect.Value{}, fmt.Errorf("%s has no method %s", v.Type(), name)
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
		if pt := m.Type().In(i); in[i].Type() != pt {
			in[i] = in[i].Convert(pt)
		}
	}
	return returned(m.Call(in))
}

func (capnpFormat) encode(c *change.Case, w change.Version) ([]byte, error) {
	st, ok := capnpStructs(w)[change.TypeName(c.Name)]
	if !ok {
		return nil, fmt.Errorf("evolve: no generated struct %s; run go generate ./evolve/capnproto", change.TypeName(c.Name))
	}
	msg, seg, err := capnp.NewMessage(capnp.SingleSegment(nil))
	if err != nil {
		return nil, err
	}
	root, err := st.NewRoot(seg)
	if err != nil {
		return nil, err
	}
	r := reflect.ValueOf(root)
	for _, f := range w.Fields {
		v, ok := w.Data[f.Key()]
		if !ok {
			continue
		}
		name := capnpName(f)
		switch x := v.(type) {
		case []string:
			l, err := callMethod(r, "New"+name, int32(len(x)))
			if err != nil {
				return nil, err
			}
			for i, s := range x {
				if _, err := callMethod(l, "Set", i, s); err != nil {
					return nil, err
				}
			}
		case []int64:
			l, err := callMethod(r, "New"+name, int32(len(x)))
			if err != nil {
				return nil, err
			}
			for i, n := range x {
				if _, err := callMethod(l, "Set", i, int32(n)); err != nil {
					return nil, err
				}
			}
		case change.Inner:
			in, err := callMethod(r, "New"+name)
			if err != nil {
				return nil, err
			}
			callMethod(in, "SetId", x.ID)
			if _, err := callMethod(in, "SetTag", x.Tag); err != nil {
				return nil, err
			}
		default:
			if _, err := callMethod(r, "Set"+name, v); err != nil {
				return nil, err
			}
		}
	}
	return msg.Marshal()
}

func (capnpFormat) decode(c *change.Case, _, r change.Version, data []byte) (any, error) {
	st, ok := capnpStructs(r)[change.TypeName(c.Name)]
	if !ok {
		return nil, fmt.Errorf("evolve: no generated struct %s", change.TypeName(c.Name))
	}
	msg, err := capnp.Unmarshal(data)
	if err != nil {
		return nil, err
	}
	return st.ReadRoot(msg)
}

// reencode copies the struct read into a new message, as a program that
// forwards it does: Cap'n Proto copies a struct whole, the fields its
// reader does not know with it.
func (capnpFormat) reencode(_ *change.Case, _ change.Version, native any) ([]byte, error) {
	msg, _, err := capnp.NewMessage(capnp.SingleSegment(nil))
	if err != nil {
		return nil, err
	}
	p, ok := native.(interface{ ToPtr() capnp.Ptr })
	if !ok {
		return nil, fmt.Errorf("a %T is not a Cap'n Proto struct", native)
	}
	if err := msg.SetRoot(p.ToPtr()); err != nil {
		return nil, err
	}
	return msg.Marshal()
}

func (capnpFormat) record(_ *change.Case, r change.Version, native any) (change.Record, error) {
	root := reflect.ValueOf(native)
	rec := change.Record{}
	for _, f := range r.Fields {
		name := capnpName(f)
		v, err := callMethod(root, name)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f.Name, err)
		}
		var val any
		switch f.Kind {
		case change.Strings, change.Int32s:
			n, _ := callMethod(v, "Len")
			var ss []string
			var ns []int64
			for i := range int(n.Int()) {
				e, err := callMethod(v, "At", i)
				if err != nil {
					return nil, fmt.Errorf("reading %s[%d]: %w", f.Name, i, err)
				}
				if f.Kind == change.Strings {
					ss = append(ss, e.String())
				} else {
					ns = append(ns, e.Int())
				}
			}
			val = ss
			if f.Kind == change.Int32s {
				val = ns
			}
		case change.Nested:
			id, _ := callMethod(v, "Id")
			tag, err := callMethod(v, "Tag")
			if err != nil {
				return nil, fmt.Errorf("reading %s.tag: %w", f.Name, err)
			}
			val = change.Inner{ID: id.Int(), Tag: tag.String()}
		default:
			switch {
			case v.CanInt():
				val = v.Int()
			case v.CanUint() && f.Kind == change.Enum:
				val = int64(v.Uint())
			case v.CanUint():
				val = v.Uint()
			default:
				val = v.Interface()
			}
		}
		rec[f.Key()] = change.Canonical(f.Kind, val)
	}
	return rec, nil
}
