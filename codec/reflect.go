package codec

import (
	"fmt"
	"reflect"
)

// Reflect returns a Codec for a reflection-based library given its
// Marshal and Unmarshal functions, used as the library's documentation
// shows: Marshal(&v) to encode, Unmarshal(data, &fresh) to decode into a new
// zero value each time.
func Reflect(marshal func(v any) ([]byte, error), unmarshal func(data []byte, v any) error) Codec {
	return Func(func(v any) (Case, error) {
		elem, err := PointerElem(v)
		if err != nil {
			return nil, err
		}
		return &reflectCase{v: v, elem: elem, marshal: marshal, unmarshal: unmarshal}, nil
	})
}

type reflectCase struct {
	v         any
	elem      reflect.Type
	out       any
	marshal   func(any) ([]byte, error)
	unmarshal func([]byte, any) error
}

func (c *reflectCase) Encode() ([]byte, error) { return c.marshal(c.v) }

func (c *reflectCase) Decode(data []byte) error {
	c.out = reflect.New(c.elem).Interface()
	return c.unmarshal(data, c.out)
}

func (c *reflectCase) Value() (any, error) { return c.out, nil }

// DecodeInto makes a reflectCase an Into: unmarshal(data, v).
func (c *reflectCase) DecodeInto(data []byte, v any) error { return c.unmarshal(data, v) }

// PointerElem returns the type v points to, or an error if v is not a
// non-nil pointer. Adapters call it first in Prepare.
func PointerElem(v any) (reflect.Type, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, fmt.Errorf("codec: Prepare needs a non-nil pointer, got %T", v)
	}
	return rv.Type().Elem(), nil
}

// AppendCase returns a Case for hand-written code that appends the encoding of
// *v to dst and decodes data into a zero T. The encode buffer is reused
// across calls, as hand-written encoders do.
func AppendCase[T any](v *T, appendTo func(dst []byte, v *T) []byte, decode func(data []byte, v *T) error) Case {
	return &manualCase[T]{v: v, appendTo: appendTo, decode: decode}
}

type manualCase[T any] struct {
	v        *T
	buf      []byte
	out      T
	appendTo func([]byte, *T) []byte
	decode   func([]byte, *T) error
}

func (c *manualCase[T]) Encode() ([]byte, error) {
	c.buf = c.appendTo(c.buf[:0], c.v)
	return c.buf, nil
}

func (c *manualCase[T]) Decode(data []byte) error {
	var zero T
	c.out = zero
	return c.decode(data, &c.out)
}

func (c *manualCase[T]) Value() (any, error) {
	out := c.out
	return &out, nil
}
