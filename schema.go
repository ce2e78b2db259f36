package serbench

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/mailru/easyjson"
	"github.com/tinylib/msgp/msgp"
	"google.golang.org/protobuf/proto"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/registry"
)

// A library is how Schema calls a schema-compiled library on a generated
// type: what the type must implement, and its marshal and unmarshal. m is
// a pointer to the generated type.
type library struct {
	iface     reflect.Type
	needs     string // iface in words
	marshal   func(m any, buf []byte) ([]byte, error)
	unmarshal func(data []byte, m any) error
}

// vtMessage is what vtprotobuf generates.
type vtMessage interface {
	MarshalVT() ([]byte, error)
	UnmarshalVT(data []byte) error
}

// libraries are the libraries Schema knows, by registry name, used as
// serbench's own adapters use them.
var libraries = map[string]library{
	"proto": {
		iface:     reflect.TypeFor[proto.Message](),
		needs:     "proto.Message",
		marshal:   func(m any, _ []byte) ([]byte, error) { return proto.Marshal(m.(proto.Message)) },
		unmarshal: func(data []byte, m any) error { return proto.Unmarshal(data, m.(proto.Message)) },
	},
	"vtproto": {
		iface:     reflect.TypeFor[vtMessage](),
		needs:     "MarshalVT and UnmarshalVT",
		marshal:   func(m any, _ []byte) ([]byte, error) { return m.(vtMessage).MarshalVT() },
		unmarshal: func(data []byte, m any) error { return m.(vtMessage).UnmarshalVT(data) },
	},
	"msgp": {
		iface: reflect.TypeFor[interface {
			msgp.Marshaler
			msgp.Unmarshaler
		}](),
		needs:   "msgp.Marshaler and msgp.Unmarshaler",
		marshal: func(m any, buf []byte) ([]byte, error) { return m.(msgp.Marshaler).MarshalMsg(buf) },
		unmarshal: func(data []byte, m any) error {
			rest, err := m.(msgp.Unmarshaler).UnmarshalMsg(data)
			if err == nil && len(rest) != 0 {
				err = fmt.Errorf("msgp: %d bytes left over after the value", len(rest))
			}
			return err
		},
	},
	"easyjson": {
		iface:     reflect.TypeFor[easyjson.MarshalerUnmarshaler](),
		needs:     "easyjson.Marshaler and easyjson.Unmarshaler",
		marshal:   func(m any, _ []byte) ([]byte, error) { return easyjson.Marshal(m.(easyjson.Marshaler)) },
		unmarshal: func(data []byte, m any) error { return easyjson.Unmarshal(data, m.(easyjson.Unmarshaler)) },
	},
}

// Schema has the schema-compiled library name ("proto", "vtproto",
// "msgp" or "easyjson") take part on values of type T through X, the
// type its generator made for T (a Protobuf message, a type msgp or
// easyjson generated methods for): to converts a value into an X when the
// case is prepared, outside the timer, and from converts a decoded X back
// for verification. The codec replaces the registered one of its name,
// whose declared losses it keeps (Protobuf cannot tell a nil list or map
// from an empty one, and its Timestamp keeps no zone).
//
// Other schema-compiled codecs (FlatBuffers, Cap'n Proto, Avro) build
// their messages by hand: give such a codec with WithCodec.
func Schema[T, X any](name string, to func(*T) *X, from func(*X) *T) Option {
	return func(c *config) {
		lib, ok := libraries[name]
		if !ok {
			known := make([]string, 0, len(libraries))
			for n := range libraries {
				known = append(known, n)
			}
			sort.Strings(known)
			c.fail(fmt.Errorf("serbench: Schema: unknown library %q; known: %s (others through WithCodec)", name, strings.Join(known, ", ")))
			return
		}
		if pt := reflect.TypeFor[*X](); !pt.Implements(lib.iface) {
			c.fail(fmt.Errorf("serbench: Schema(%q): %v does not implement %s: give the type %s generated", name, pt, lib.needs, name))
			return
		}
		info, err := registry.Lookup(name)
		if err != nil {
			c.fail(err)
			return
		}
		info.Unsupported = 0
		info.Notes = fmt.Sprintf("%T converted to the generated %T when the case is prepared, outside the timer, and back for verification.", (*T)(nil), (*X)(nil))
		info.New = func() codec.Codec {
			return codec.Func(func(v any) (codec.Case, error) {
				t, ok := v.(*T)
				if !ok {
					return nil, codec.Unsupported(v, "Schema(%q) converts %T only", name, (*T)(nil))
				}
				return &schemaCase[T, X]{msg: to(t), lib: lib, from: from}, nil
			})
		}
		c.added = append(c.added, info)
	}
}

// A schemaCase encodes a value converted to its generated type X.
type schemaCase[T, X any] struct {
	msg  *X
	buf  []byte
	out  *X
	lib  library
	from func(*X) *T
}

func (c *schemaCase[T, X]) Encode() ([]byte, error) {
	var err error
	c.buf, err = c.lib.marshal(c.msg, c.buf[:0])
	return c.buf, err
}

func (c *schemaCase[T, X]) Decode(data []byte) error {
	c.out = new(X)
	return c.lib.unmarshal(data, c.out)
}

func (c *schemaCase[T, X]) Value() (any, error) {
	if c.out == nil {
		return nil, fmt.Errorf("serbench: Value called before Decode")
	}
	return c.from(c.out), nil
}
