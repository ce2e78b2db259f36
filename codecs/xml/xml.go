// Package xml adapts encoding/xml.
//
// XML needs one root element, so a top-level slice is wrapped in
// <items><item>...</item></items>, the way Go code marshals a list. A bare
// slice marshals as sibling elements and xml.Unmarshal then reads only the
// first: the silent loss behind one seed article's "XML decodes slices
// fastest". encoding/xml cannot marshal maps, and leaves an interface
// field nil when it decodes (the fidelity probe any-string shows both).
package xml

import (
	"encoding/xml"
	"reflect"

	"github.com/serbench/serbench/codec"
)

// Std is encoding/xml's Marshal and Unmarshal.
var Std = codec.Declare(codec.Info{
	Name: "xml", Family: "xml", Label: "encoding/xml", Module: "std",
	URL: "https://pkg.go.dev/encoding/xml", API: codec.Reflection,
	// An interface field decodes as nil; an array is refused at decode
	// ("unknown type [2]float64").
	Unsupported: codec.Map | codec.Interface | codec.Array,
	Losses:      []codec.Loss{{Kind: codec.NilEmpty}, {Kind: codec.BinaryText}},
	Notes:       "Top-level slices are wrapped in one <items> root element.",
	New:         func() codec.Codec { return codec.Func(prepare) },
})

func prepare(v any) (codec.Case, error) {
	elem, err := codec.PointerElem(v)
	if err != nil {
		return nil, err
	}
	if elem.Kind() != reflect.Slice {
		return codec.Reflect(xml.Marshal, xml.Unmarshal).Prepare(v)
	}
	wrapper := reflect.StructOf([]reflect.StructField{
		{Name: "XMLName", Type: reflect.TypeFor[xml.Name](), Tag: `xml:"items"`},
		{Name: "Items", Type: elem, Tag: `xml:"item"`},
	})
	w := reflect.New(wrapper)
	w.Elem().Field(1).Set(reflect.ValueOf(v).Elem())
	return &listCase{w: w.Interface(), wrapper: wrapper, elem: elem}, nil
}

// listCase encodes a slice inside a wrapper struct.
type listCase struct {
	w       any
	wrapper reflect.Type
	elem    reflect.Type
	out     reflect.Value
}

func (c *listCase) Encode() ([]byte, error) { return xml.Marshal(c.w) }

func (c *listCase) Decode(data []byte) error {
	c.out = reflect.New(c.wrapper)
	return xml.Unmarshal(data, c.out.Interface())
}

func (c *listCase) Value() (any, error) {
	p := reflect.New(c.elem)
	p.Elem().Set(c.out.Elem().Field(1))
	return p.Interface(), nil
}

// DecodeInto makes a listCase a codec.Into: v's slice goes into the
// wrapper, the wrapper is decoded into, and the slice comes back to v.
func (c *listCase) DecodeInto(data []byte, v any) error {
	w := reflect.New(c.wrapper)
	pv := reflect.ValueOf(v).Elem()
	w.Elem().Field(1).Set(pv)
	err := xml.Unmarshal(data, w.Interface())
	pv.Set(w.Elem().Field(1))
	return err
}
