package codec

import (
	"fmt"
	"reflect"
)

// Document returns a Codec for a format whose top level must be a
// document (a BSON document, a TOML table). A struct or a map is encoded
// as it is, with Reflect. Any other value (a slice, a scalar) is encoded as
// the one field of a document, the way Go code hands a list to such a
// library: struct{ Items T } with the struct tag tagKey:"key", e.g.
// `toml:"items"`. The wrapper is built once, in Prepare, outside the timer.
func Document(tagKey, key string, marshal func(v any) ([]byte, error), unmarshal func(data []byte, v any) error) Codec {
	return Func(func(v any) (Case, error) {
		elem, err := PointerElem(v)
		if err != nil {
			return nil, err
		}
		if k := elem.Kind(); k == reflect.Struct || k == reflect.Map {
			return Reflect(marshal, unmarshal).Prepare(v)
		}
		wrapper := reflect.StructOf([]reflect.StructField{{
			Name: "Items", Type: elem, Tag: reflect.StructTag(fmt.Sprintf("%s:%q", tagKey, key)),
		}})
		w := reflect.New(wrapper)
		w.Elem().Field(0).Set(reflect.ValueOf(v).Elem())
		return &documentCase{w: w.Interface(), wrapper: wrapper, elem: elem, marshal: marshal, unmarshal: unmarshal}, nil
	})
}

// documentCase encodes a value inside a one-field wrapper struct.
type documentCase struct {
	w         any
	wrapper   reflect.Type
	elem      reflect.Type
	out       reflect.Value
	marshal   func(any) ([]byte, error)
	unmarshal func([]byte, any) error
}

func (c *documentCase) Encode() ([]byte, error) { return c.marshal(c.w) }

func (c *documentCase) Decode(data []byte) error {
	c.out = reflect.New(c.wrapper)
	return c.unmarshal(data, c.out.Interface())
}

func (c *documentCase) Value() (any, error) {
	p := reflect.New(c.elem)
	p.Elem().Set(c.out.Elem().Field(0))
	return p.Interface(), nil
}

// DecodeInto makes a documentCase an Into: v's content goes into a
// wrapper, the wrapper is decoded into, and its field comes back to v.
func (c *documentCase) DecodeInto(data []byte, v any) error {
	w := reflect.New(c.wrapper)
	pv := reflect.ValueOf(v).Elem()
	w.Elem().Field(0).Set(pv)
	err := c.unmarshal(data, w.Interface())
	pv.Set(w.Elem().Field(0))
	return err
}
