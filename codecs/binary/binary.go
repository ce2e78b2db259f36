// Package binary adapts encoding/binary's Write and Read, which take only
// fixed-size values: numbers, and structs, arrays and top-level slices of
// them.
package binary

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
)

// Std is binary.Write into a bytes.Buffer and binary.Read from a
// bytes.Reader, little-endian.
var Std = codec.Declare(codec.Info{
	Name: "binary", Family: "binary", Label: "encoding/binary (Write/Read)", Module: "std",
	URL: "https://pkg.go.dev/encoding/binary", API: codec.Reflection,
	Unsupported: codec.VariableSize,
	New:         func() codec.Codec { return codec.Func(prepare) },
})

func prepare(v any) (codec.Case, error) {
	elem, err := codec.PointerElem(v)
	if err != nil {
		return nil, err
	}
	c := &binCase{v: v, elem: elem}
	if elem.Kind() == reflect.Slice {
		c.itemSize = binary.Size(reflect.New(elem.Elem()).Interface())
		if c.itemSize <= 0 {
			return nil, codec.Unsupported(v, "elements are not fixed-size")
		}
	}
	return c, nil
}

type binCase struct {
	v        any
	elem     reflect.Type
	itemSize int // for a top-level slice: the size of one element
	out      any
}

func (c *binCase) Encode() ([]byte, error) {
	var buf bytes.Buffer
	if err := binary.Write(&buf, binary.LittleEndian, c.v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (c *binCase) Decode(data []byte) error {
	p := reflect.New(c.elem)
	if c.itemSize > 0 {
		// binary.Read fills a slice of the length it is given; the
		// length comes from the data's size, as a framing layer would.
		if len(data)%c.itemSize != 0 {
			return fmt.Errorf("binary: %d bytes is not a whole number of %d-byte elements", len(data), c.itemSize)
		}
		p.Elem().Set(reflect.MakeSlice(c.elem, len(data)/c.itemSize, len(data)/c.itemSize))
	}
	c.out = p.Interface()
	return binary.Read(bytes.NewReader(data), binary.LittleEndian, c.out)
}

func (c *binCase) Value() (any, error) { return c.out, nil }
