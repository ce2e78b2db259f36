// Package mus adapts github.com/mus-format/mus-go, the MUS format's
// serializers: hand-written serializers for the dataset structs, composed
// from mus-go's primitives (varint integers, raw floats and times,
// length-prefixed strings, slices and pointers) as its docs describe,
// with the standard strings and byte slices (mus) or the unsafe package's,
// which alias the input (mus-unsafe).
package mus

import (
	"errors"
	"fmt"

	musgo "github.com/mus-format/mus-go"
	"github.com/mus-format/mus-go/ord"
	"github.com/mus-format/mus-go/unsafe"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/dataset"
)

// Std is mus-go with ord's strings and byte slices, copied on decode.
var Std = codec.Declare(info("mus", "", kit{str: ord.String, bytes: ord.ByteSlice}))

// Unsafe is mus-go with the unsafe package's strings and byte slices,
// which point into the input.
var Unsafe = codec.Declare(func() codec.Info {
	i := info("mus-unsafe", "zero-copy decode: unsafe.String and unsafe.ByteSlice alias the input",
		kit{str: unsafe.String, bytes: unsafe.ByteSlice})
	i.Aliases = true
	return i
}())

func info(name, variant string, k kit) codec.Info {
	table := k.table()
	return codec.Info{
		ReusesBuffer: true, // Encode writes into a buffer kept across calls
		Name:         name, Family: "mus", Label: "mus-go", Module: "github.com/mus-format/mus-go",
		URL: "https://github.com/mus-format/mus-go", API: codec.Manual,
		Variant: variant,
		Losses: []codec.Loss{
			{Kind: codec.TimeZone}, // raw.TimeUnixNanoUTC holds the instant
		},
		Notes: "Hand-written serializers per dataset struct (mus-go has no reflection; musgen-go generates the same calls): " +
			"varint (zigzag) integers, raw float64s, times as raw Unix nanoseconds decoded in UTC, " +
			"length-prefixed strings, byte slices and slices, pointers as a presence byte. " +
			"Covers the size ladder and the web records; the rest need serializers of their own.",
		New: func() codec.Codec { return codec.Func(table.Build) },
	}
}

// A kit is the string and byte-slice serializers a variant uses.
type kit struct {
	str   musgo.Serializer[string]
	bytes musgo.Serializer[[]byte]
}

// table returns the dataset types k's serializers cover.
func (k kit) table() shapes.Table[codec.Case] {
	tiny := tinySer{k}
	medium := mediumSer{k, tiny, ord.NewPtrSer[string](k.str), ord.NewPtrSer[float64](float64Ser)}
	big := bigSer{k, tiny, medium, ord.NewPtrSer[dataset.Medium](medium)}
	bigs := ord.NewSliceSer[dataset.Big](big)
	huge := hugeSer{bigs, ord.NewSliceSer[*dataset.Big](ord.NewPtrSer[dataset.Big](big))}
	return shapes.Table[codec.Case]{
		Types: []shapes.Type[codec.Case]{
			all[dataset.Tiny](tiny),
			all[dataset.Medium](medium),
			all[dataset.Big](big),
			all[dataset.Huge](huge),
			all[dataset.User](userSer{k}),
			all[dataset.Metric](metricSer{}),
		},
		Missing: "no mus-go serializer for it here (the size ladder and the web records have one)",
	}
}

// all returns the Type of T in all three shapes, from T's serializer.
func all[T any](s musgo.Serializer[T]) shapes.Type[codec.Case] {
	slice := ord.NewSliceSer[T](s)
	ptrSlice := ord.NewSliceSer[*T](ord.NewPtrSer[T](s))
	return shapes.All(
		func(v *T) codec.Case { return newCase(v, s) },
		func(v *[]T) codec.Case { return newCase(v, slice) },
		func(v *[]*T) codec.Case { return newCase(v, ptrSlice) })
}

// newCase returns the case of *v, whose serializer is s.
func newCase[T any](v *T, s musgo.Serializer[T]) codec.Case {
	return &musCase[T]{v: v, s: s}
}

type musCase[T any] struct {
	v   *T
	s   musgo.Serializer[T]
	buf []byte
	out *T
}

// Encode sizes the value, then fills a buffer kept across messages.
func (c *musCase[T]) Encode() ([]byte, error) {
	n := c.s.Size(*c.v)
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	c.buf = c.buf[:n]
	c.s.Marshal(*c.v, c.buf)
	return c.buf, nil
}

func (c *musCase[T]) Decode(data []byte) error {
	v, n, err := c.s.Unmarshal(data)
	if err == nil && n != len(data) {
		err = fmt.Errorf("mus: %d bytes left after the value", len(data)-n)
	}
	c.out = &v
	return err
}

func (c *musCase[T]) Value() (any, error) {
	if c.out == nil {
		return nil, errors.New("mus: Value called before Decode")
	}
	return c.out, nil
}

// skip is a Skip that decodes and drops a value: the adapter never skips.
func skip[T any](s musgo.Serializer[T], bs []byte) (int, error) {
	_, n, err := s.Unmarshal(bs)
	return n, err
}
