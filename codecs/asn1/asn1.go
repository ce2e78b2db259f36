// Package asn1 adapts encoding/asn1, the standard library's DER encoder of
// Go values (X.509's), which holds structs, slices, signed integers,
// booleans, strings, byte strings and times, and nothing else.
package asn1

import (
	"encoding/asn1"
	"reflect"
	"time"

	"github.com/serbench/serbench/codec"
)

// Std is encoding/asn1's Marshal and Unmarshal.
var Std = codec.Declare(codec.Info{
	Name: "asn1", Family: "asn1", Label: "encoding/asn1", Module: "std",
	URL: "https://pkg.go.dev/encoding/asn1", API: codec.Reflection,
	// DER has no map type, and encoding/asn1 takes no pointer and no
	// array (fidelity's array probe); floats and unsigned integers are
	// refused as values below.
	Unsupported: codec.Map | codec.Pointer | codec.Array,
	// UTCTime and GeneralizedTime as encoding/asn1 writes them hold
	// seconds; a nil and an empty slice are both an empty SEQUENCE.
	Losses: []codec.Loss{{Kind: codec.TimePrecision, Precision: time.Second}, {Kind: codec.NilEmpty}},
	Notes: "DER as X.509 uses it: a struct is a SEQUENCE, a slice a SEQUENCE OF, a string a PrintableString or UTF8String, " +
		"a []byte an OCTET STRING. encoding/asn1 has no REAL and no unsigned integer: values holding a float or an " +
		"unsigned integer are refused, with maps, pointers and arrays. Times are UTCTime or GeneralizedTime, to the second; " +
		"a nil slice comes back empty. Of the datasets it takes Tiny, User and int64.",
	New: func() codec.Codec {
		return codec.Refuse(codec.Reflect(marshal, unmarshal), []reflect.Kind{
			reflect.Float32, reflect.Float64, reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		}, func(v reflect.Value) string { return "encoding/asn1 cannot marshal a " + v.Kind().String() })
	},
})

// marshal encodes the value v points to: encoding/asn1 takes no pointer.
func marshal(v any) ([]byte, error) { return asn1.Marshal(reflect.ValueOf(v).Elem().Interface()) }

func unmarshal(data []byte, v any) error {
	rest, err := asn1.Unmarshal(data, v)
	if err == nil && len(rest) != 0 {
		err = asn1.SyntaxError{Msg: "trailing data"}
	}
	return err
}
