package evolve

import (
	"fmt"
	"reflect"
	"slices"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/serbench/serbench/evolve/change"
	"github.com/serbench/serbench/evolve/fb"
	fbv1 "github.com/serbench/serbench/evolve/fb/v1"
	fbv2 "github.com/serbench/serbench/evolve/fb/v2"
)

// fbFormat builds and reads a case's FlatBuffers tables (package
// evolve/fb) with the functions flatc generated: a builder function per
// field, found in fb.Table, and the reader's accessor methods, called by
// name. A FlatBuffers reader reads lazily: a misread shows when a field
// is read, in record.
type fbFormat struct{}

// fbTables returns the tables of version v.
func fbTables(v change.Version) map[string]fb.Table {
	if v.Name == "v1" {
		return fbv1.Tables
	}
	return fbv2.Tables
}

func (fbFormat) encode(c *change.Case, w change.Version) ([]byte, error) {
	tables := fbTables(w)
	name := change.TypeName(c.Name)
	t, ok := tables[name]
	if !ok {
		return nil, fmt.Errorf("evolve: no generated table %s; run go generate ./evolve/fb", name)
	}
	b := flatbuffers.NewBuilder(64)
	// Strings, vectors and tables are built before the table that holds
	// them.
	vals := map[string]any{}
	for _, f := range w.Fields {
		v, ok := w.Data[f.Key()]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case string:
			vals[f.Name] = b.CreateString(x)
		case []byte:
			vals[f.Name] = b.CreateByteVector(x)
		case []string:
			offs := make([]flatbuffers.UOffsetT, len(x))
			for i, s := range x {
				offs[i] = b.CreateString(s)
			}
			b.StartVector(4, len(x), 4)
			for _, o := range slices.Backward(offs) {
				b.PrependUOffsetT(o)
			}
			vals[f.Name] = b.EndVector(len(x))
		case []int64:
			b.StartVector(4, len(x), 4)
			for _, n := range slices.Backward(x) {
				b.PrependInt32(int32(n))
			}
			vals[f.Name] = b.EndVector(len(x))
		case change.Inner:
			it := tables[name+"Inner"]
			tag := b.CreateString(x.Tag)
			it.Start(b)
			call(it.Add["id"], b, x.ID)
			call(it.Add["tag"], b, tag)
			vals[f.Name] = it.End(b)
		default:
			vals[f.Name] = v
		}
	}
	t.Start(b)
	for _, f := range w.Fields {
		if v, ok := vals[f.Name]; ok {
			call(t.Add[f.Name], b, v)
		}
	}
	b.Finish(t.End(b))
	return b.FinishedBytes(), nil
}

// call calls a generated function with a builder and a value, converted
// to the function's parameter type.
func call(fn any, b *flatbuffers.Builder, v any) {
	f := reflect.ValueOf(fn)
	arg := reflect.ValueOf(v)
	if pt := f.Type().In(1); arg.Type() != pt {
		arg = arg.Convert(pt)
	}
	f.Call([]reflect.Value{reflect.ValueOf(b), arg})
}

func (fbFormat) decode(c *change.Case, _, r change.Version, data []byte) (any, error) {
	t, ok := fbTables(r)[change.TypeName(c.Name)]
	if !ok {
		return nil, fmt.Errorf("evolve: no generated table %s", change.TypeName(c.Name))
	}
	return t.Root(data), nil
}

func (fbFormat) reencode(*change.Case, change.Version, any) ([]byte, error) {
	return nil, notExpressible{"the FlatBuffers Go API cannot re-encode a table it read: its builder writes only the fields the program names"}
}

func (fbFormat) record(_ *change.Case, r change.Version, native any) (change.Record, error) {
	root := reflect.ValueOf(native)
	rec := change.Record{}
	for _, f := range r.Fields {
		name := change.CamelCase(f.Name)
		m := root.MethodByName(name)
		if !m.IsValid() {
			return nil, fmt.Errorf("table %s has no accessor %s", root.Type(), name)
		}
		var v any
		switch f.Kind {
		case change.String:
			v = string(m.Call(nil)[0].Bytes())
		case change.Bytes:
			v = root.MethodByName(name + "Bytes").Call(nil)[0].Interface()
		case change.Strings, change.Int32s:
			n := int(root.MethodByName(name + "Length").Call(nil)[0].Int())
			var ss []string
			var ns []int64
			for j := range n {
				e := m.Call([]reflect.Value{reflect.ValueOf(j)})[0]
				if f.Kind == change.Strings {
					ss = append(ss, string(e.Bytes()))
				} else {
					ns = append(ns, e.Int())
				}
			}
			if f.Kind == change.Strings {
				v = ss
			} else {
				v = ns
			}
		case change.Nested:
			in := m.Call([]reflect.Value{reflect.Zero(m.Type().In(0))})[0]
			if in.IsNil() {
				v = change.Inner{}
				break
			}
			v = change.Inner{ID: in.MethodByName("Id").Call(nil)[0].Int(), Tag: string(in.MethodByName("Tag").Call(nil)[0].Bytes())}
		default:
			v = m.Call(nil)[0].Interface()
			switch x := reflect.ValueOf(v); {
			case x.CanInt():
				v = x.Int()
			case x.CanUint():
				v = x.Uint()
			}
		}
		rec[f.Key()] = change.Canonical(f.Kind, v)
	}
	return rec, nil
}
