// Package benc adapts github.com/deneonet/benc, the benc standard's raw
// serialization (bstd): hand-written size, marshal and unmarshal functions
// per dataset struct, composed from bstd's functions as its docs show.
// The benc standard has no pointers and no times: a pointer is a bool
// then the value, a time its Unix seconds and nanoseconds.
package benc

import (
	"errors"
	"fmt"
	"time"

	bstd "github.com/deneonet/benc/std"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/dataset"
)

// Std is bstd's raw serialization.
var Std = codec.Declare(codec.Info{
	ReusesBuffer: true, // Encode writes into a buffer kept across calls
	Name:         "benc", Family: "benc", Label: "deneonet/benc (bstd)", Module: "github.com/deneonet/benc",
	URL: "https://github.com/deneonet/benc", API: codec.Manual,
	Losses: []codec.Loss{{Kind: codec.TimeZone}}, // a time travels as its UTC instant
	Notes: "Hand-written functions per dataset struct from bstd (the benc standard): varint ints, fixed-size " +
		"integers and floats, length-prefixed strings (copied on decode), bytes (UnmarshalBytesCopied) and slices. " +
		"A pointer is a bool then the value; a time is Unix seconds and nanoseconds, decoded in UTC. " +
		"A buffer is sized with the Size functions and kept across messages. " +
		"Covers the size ladder and the web records; the rest need functions of their own.",
	New: func() codec.Codec { return codec.Func(table.Build) },
})

var table = shapes.Table[codec.Case]{
	Types: []shapes.Type[codec.Case]{
		all(funcs[dataset.Tiny]{sizeTiny, marshalTiny, unmarshalTiny}),
		all(funcs[dataset.Medium]{sizeMedium, marshalMedium, unmarshalMedium}),
		all(funcs[dataset.Big]{sizeBig, marshalBig, unmarshalBig}),
		all(funcs[dataset.Huge]{sizeHuge, marshalHuge, unmarshalHuge}),
		all(funcs[dataset.User]{sizeUser, marshalUser, unmarshalUser}),
		all(funcs[dataset.Metric]{sizeMetric, marshalMetric, unmarshalMetric}),
	},
	Missing: "no benc functions for it here (the size ladder and the web records have them)",
}

// funcs are the size, marshal and unmarshal functions of T, in bstd's
// forms.
type funcs[T any] struct {
	size      func(T) int
	marshal   func(n int, b []byte, v T) int
	unmarshal func(n int, b []byte, v *T) (int, error)
}

// sliceOf returns the functions of []T, bstd's slices of f's T.
func sliceOf[T any](f funcs[T]) funcs[[]T] {
	return funcs[[]T]{
		size:    func(s []T) int { return bstd.SizeSlice(s, f.size) },
		marshal: func(n int, b []byte, s []T) int { return bstd.MarshalSlice(n, b, s, f.marshal) },
		unmarshal: func(n int, b []byte, s *[]T) (int, error) {
			n, v, err := bstd.UnmarshalSlice[T](n, b, f.unmarshal)
			*s = v
			return n, err
		},
	}
}

// ptrOf returns the functions of *T: a bool, then the value if it is set.
func ptrOf[T any](f funcs[T]) funcs[*T] {
	return funcs[*T]{
		size: func(p *T) int {
			if p == nil {
				return bstd.SizeBool()
			}
			return bstd.SizeBool() + f.size(*p)
		},
		marshal: func(n int, b []byte, p *T) int {
			n = bstd.MarshalBool(n, b, p != nil)
			if p != nil {
				n = f.marshal(n, b, *p)
			}
			return n
		},
		unmarshal: func(n int, b []byte, p **T) (int, error) {
			n, set, err := bstd.UnmarshalBool(n, b)
			if err != nil || !set {
				*p = nil
				return n, err
			}
			*p = new(T)
			return f.unmarshal(n, b, *p)
		},
	}
}

// all returns the Type of T in all three shapes.
func all[T any](f funcs[T]) shapes.Type[codec.Case] {
	return shapes.All(
		func(v *T) codec.Case { return &bencCase[T]{v: v, f: f} },
		func(v *[]T) codec.Case { return &bencCase[[]T]{v: v, f: sliceOf(f)} },
		func(v *[]*T) codec.Case { return &bencCase[[]*T]{v: v, f: sliceOf(ptrOf(f))} })
}

type bencCase[T any] struct {
	v   *T
	f   funcs[T]
	buf []byte
	out *T
}

func (c *bencCase[T]) Encode() ([]byte, error) {
	s := c.f.size(*c.v)
	if cap(c.buf) < s {
		c.buf = make([]byte, s)
	}
	c.buf = c.buf[:s]
	if n := c.f.marshal(0, c.buf, *c.v); n != s {
		return nil, fmt.Errorf("benc: marshalled %d bytes, sized %d", n, s)
	}
	return c.buf, nil
}

func (c *bencCase[T]) Decode(data []byte) error {
	c.out = new(T)
	n, err := c.f.unmarshal(0, data, c.out)
	if err == nil && n != len(data) {
		err = fmt.Errorf("benc: %d bytes left after the value", len(data)-n)
	}
	return err
}

func (c *bencCase[T]) Value() (any, error) {
	if c.out == nil {
		return nil, errors.New("benc: Value called before Decode")
	}
	return c.out, nil
}

// A reader unmarshals fields in order, stopping at the first error.
type reader struct {
	b   []byte
	n   int
	err error
}

// get unmarshals one value with a bstd function into *dst.
func get[T any](r *reader, f func(int, []byte) (int, T, error), dst *T) {
	if r.err != nil {
		return
	}
	r.n, *dst, r.err = f(r.n, r.b)
}

// into unmarshals one value with an adapter function into *dst.
func into[T any](r *reader, f func(int, []byte, *T) (int, error), dst *T) {
	if r.err != nil {
		return
	}
	r.n, r.err = f(r.n, r.b, dst)
}

// Times are Unix seconds (int64) and nanoseconds (int32).

func sizeTime(time.Time) int { return bstd.SizeInt64() + bstd.SizeInt32() }

func marshalTime(n int, b []byte, t time.Time) int {
	n = bstd.MarshalInt64(n, b, t.Unix())
	return bstd.MarshalInt32(n, b, int32(t.Nanosecond()))
}

func unmarshalTime(n int, b []byte, t *time.Time) (int, error) {
	r := reader{b: b, n: n}
	var sec int64
	var nsec int32
	get(&r, bstd.UnmarshalInt64, &sec)
	get(&r, bstd.UnmarshalInt32, &nsec)
	*t = time.Unix(sec, int64(nsec)).UTC()
	return r.n, r.err
}

var (
	strPtr = ptrOf(funcs[string]{bstd.SizeString, bstd.MarshalString, func(n int, b []byte, s *string) (int, error) {
		r := reader{b: b, n: n}
		get(&r, bstd.UnmarshalString, s)
		return r.n, r.err
	}})
	floatPtr = ptrOf(funcs[float64]{func(float64) int { return bstd.SizeFloat64() }, bstd.MarshalFloat64, func(n int, b []byte, f *float64) (int, error) {
		r := reader{b: b, n: n}
		get(&r, bstd.UnmarshalFloat64, f)
		return r.n, r.err
	}})
	mediumPtr = ptrOf(funcs[dataset.Medium]{sizeMedium, marshalMedium, unmarshalMedium})
	bigs      = sliceOf(funcs[dataset.Big]{sizeBig, marshalBig, unmarshalBig})
	bigPtrs   = sliceOf(ptrOf(funcs[dataset.Big]{sizeBig, marshalBig, unmarshalBig}))
)

func sizeTiny(v dataset.Tiny) int { return bstd.SizeInt64() + bstd.SizeString(v.SomeStr) }

func marshalTiny(n int, b []byte, v dataset.Tiny) int {
	n = bstd.MarshalInt64(n, b, v.ID)
	return bstd.MarshalString(n, b, v.SomeStr)
}

func unmarshalTiny(n int, b []byte, v *dataset.Tiny) (int, error) {
	r := reader{b: b, n: n}
	get(&r, bstd.UnmarshalInt64, &v.ID)
	get(&r, bstd.UnmarshalString, &v.SomeStr)
	return r.n, r.err
}

func sizeMedium(v dataset.Medium) int {
	return bstd.SizeInt64() + bstd.SizeString(v.FirstName) + strPtr.size(v.LastName) +
		floatPtr.size(v.MoneyBalance) + sizeTime(v.CreatedAt) + sizeTiny(v.Tiny)
}

func marshalMedium(n int, b []byte, v dataset.Medium) int {
	n = bstd.MarshalInt64(n, b, v.ID)
	n = bstd.MarshalString(n, b, v.FirstName)
	n = strPtr.marshal(n, b, v.LastName)
	n = floatPtr.marshal(n, b, v.MoneyBalance)
	n = marshalTime(n, b, v.CreatedAt)
	return marshalTiny(n, b, v.Tiny)
}

func unmarshalMedium(n int, b []byte, v *dataset.Medium) (int, error) {
	r := reader{b: b, n: n}
	get(&r, bstd.UnmarshalInt64, &v.ID)
	get(&r, bstd.UnmarshalString, &v.FirstName)
	into(&r, strPtr.unmarshal, &v.LastName)
	into(&r, floatPtr.unmarshal, &v.MoneyBalance)
	into(&r, unmarshalTime, &v.CreatedAt)
	into(&r, unmarshalTiny, &v.Tiny)
	return r.n, r.err
}

func sizeBig(v dataset.Big) int {
	return bstd.SizeInt64() + bstd.SizeUint64() + strPtr.size(v.Country) + bstd.SizeBytes(v.CountryBytes) +
		3*sizeTime(time.Time{}) + sizeTiny(v.Tiny) + sizeMedium(v.Medium) + mediumPtr.size(v.MediumPtr)
}

func marshalBig(n int, b []byte, v dataset.Big) int {
	n = bstd.MarshalInt64(n, b, v.ID)
	n = bstd.MarshalUint64(n, b, v.Age)
	n = strPtr.marshal(n, b, v.Country)
	n = bstd.MarshalBytes(n, b, v.CountryBytes)
	n = marshalTime(n, b, v.CreatedAt)
	n = marshalTime(n, b, v.UpdatedAt)
	n = marshalTime(n, b, v.DeletedAt)
	n = marshalTiny(n, b, v.Tiny)
	n = marshalMedium(n, b, v.Medium)
	return mediumPtr.marshal(n, b, v.MediumPtr)
}

func unmarshalBig(n int, b []byte, v *dataset.Big) (int, error) {
	r := reader{b: b, n: n}
	get(&r, bstd.UnmarshalInt64, &v.ID)
	get(&r, bstd.UnmarshalUint64, &v.Age)
	into(&r, strPtr.unmarshal, &v.Country)
	get(&r, bstd.UnmarshalBytesCopied, &v.CountryBytes)
	into(&r, unmarshalTime, &v.CreatedAt)
	into(&r, unmarshalTime, &v.UpdatedAt)
	into(&r, unmarshalTime, &v.DeletedAt)
	into(&r, unmarshalTiny, &v.Tiny)
	into(&r, unmarshalMedium, &v.Medium)
	into(&r, mediumPtr.unmarshal, &v.MediumPtr)
	return r.n, r.err
}

func sizeHuge(v dataset.Huge) int {
	return bigs.size(v.BigSlice) + bigPtrs.size(v.BigPtrSlice) + bigs.size(v.BiggerSlice) + bigs.size(v.TheBiggestSlice)
}

func marshalHuge(n int, b []byte, v dataset.Huge) int {
	n = bigs.marshal(n, b, v.BigSlice)
	n = bigPtrs.marshal(n, b, v.BigPtrSlice)
	n = bigs.marshal(n, b, v.BiggerSlice)
	return bigs.marshal(n, b, v.TheBiggestSlice)
}

func unmarshalHuge(n int, b []byte, v *dataset.Huge) (int, error) {
	r := reader{b: b, n: n}
	into(&r, bigs.unmarshal, &v.BigSlice)
	into(&r, bigPtrs.unmarshal, &v.BigPtrSlice)
	into(&r, bigs.unmarshal, &v.BiggerSlice)
	into(&r, bigs.unmarshal, &v.TheBiggestSlice)
	return r.n, r.err
}

func sizeUser(v dataset.User) int {
	return bstd.SizeInt(v.ID) + bstd.SizeString(v.Name) + bstd.SizeString(v.Email)
}

func marshalUser(n int, b []byte, v dataset.User) int {
	n = bstd.MarshalInt(n, b, v.ID)
	n = bstd.MarshalString(n, b, v.Name)
	return bstd.MarshalString(n, b, v.Email)
}

func unmarshalUser(n int, b []byte, v *dataset.User) (int, error) {
	r := reader{b: b, n: n}
	get(&r, bstd.UnmarshalInt, &v.ID)
	get(&r, bstd.UnmarshalString, &v.Name)
	get(&r, bstd.UnmarshalString, &v.Email)
	return r.n, r.err
}

func sizeMetric(dataset.Metric) int { return 2*bstd.SizeFloat64() + bstd.SizeUint64() }

func marshalMetric(n int, b []byte, v dataset.Metric) int {
	n = bstd.MarshalFloat64(n, b, v.Timestamp)
	n = bstd.MarshalUint64(n, b, v.NameHash)
	return bstd.MarshalFloat64(n, b, v.Value)
}

func unmarshalMetric(n int, b []byte, v *dataset.Metric) (int, error) {
	r := reader{b: b, n: n}
	get(&r, bstd.UnmarshalFloat64, &v.Timestamp)
	get(&r, bstd.UnmarshalUint64, &v.NameHash)
	get(&r, bstd.UnmarshalFloat64, &v.Value)
	return r.n, r.err
}
