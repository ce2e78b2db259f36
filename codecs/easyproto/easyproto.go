// Package easyproto adapts github.com/VictoriaMetrics/easyproto, building
// blocks for hand-written Protobuf marshaling and unmarshaling without
// generated code: the dataset structs are written and read with the field
// numbers and types of the proto codec's serbench.proto, so both write
// messages of the same schema.
package easyproto

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/VictoriaMetrics/easyproto"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/dataset"
)

// Default is easyproto with hand-written marshal and unmarshal functions.
var Default = codec.Declare(codec.Info{
	ReusesBuffer: true, // Encode writes into a buffer kept across calls
	Name:         "easyproto", Family: "protobuf", Label: "VictoriaMetrics/easyproto",
	Module: "github.com/VictoriaMetrics/easyproto", URL: "https://github.com/VictoriaMetrics/easyproto",
	API:    codec.Manual,
	Losses: []codec.Loss{{Kind: codec.TimeZone}}, // a google.protobuf.Timestamp holds the UTC instant
	Notes: "Hand-written functions per dataset struct, as easyproto's docs show: MessageMarshaler from a MarshalerPool " +
		"to encode into a buffer kept across messages, FieldContext.NextField to decode. Strings and bytes are cloned " +
		"(easyproto's point into the input). Field numbers and types are serbench.proto's; times are Timestamp messages. " +
		"Covers the size ladder and the web records; the rest need functions of their own.",
	New: func() codec.Codec { return codec.Func(table.Build) },
})

var table = shapes.Table[codec.Case]{
	Types: []shapes.Type[codec.Case]{
		all(message[dataset.Tiny]{marshalTiny, unmarshalTiny}),
		all(message[dataset.Medium]{marshalMedium, unmarshalMedium}),
		all(message[dataset.Big]{marshalBig, unmarshalBig}),
		all(message[dataset.Huge]{marshalHuge, unmarshalHuge}),
		all(message[dataset.User]{marshalUser, unmarshalUser}),
		all(message[dataset.Metric]{marshalMetric, unmarshalMetric}),
	},
	Missing: "no easyproto functions for it here (the size ladder and the web records have them)",
}

// A message is the hand-written marshal and unmarshal functions of T.
type message[T any] struct {
	marshal   func(*T, *easyproto.MessageMarshaler)
	unmarshal func(*T, []byte) error
}

var pool easyproto.MarshalerPool

// all returns the Type of T in all three shapes: a top-level slice is a
// list message whose field 1 repeats T, as serbench.proto's TList.
func all[T any](m message[T]) shapes.Type[codec.Case] {
	return shapes.All(
		func(v *T) codec.Case {
			return &epCase[T]{marshal: func(mm *easyproto.MessageMarshaler) { m.marshal(v, mm) }, unmarshal: m.unmarshal}
		},
		func(v *[]T) codec.Case {
			return &epCase[[]T]{
				marshal: func(mm *easyproto.MessageMarshaler) {
					for i := range *v {
						m.marshal(&(*v)[i], mm.AppendMessage(1))
					}
				},
				unmarshal: list(m, func(s *[]T, t T) { *s = append(*s, t) }),
			}
		},
		func(v *[]*T) codec.Case {
			return &epCase[[]*T]{
				marshal: func(mm *easyproto.MessageMarshaler) {
					for _, p := range *v {
						sub := mm.AppendMessage(1)
						if p != nil {
							m.marshal(p, sub)
						}
					}
				},
				unmarshal: list(m, func(s *[]*T, t T) { *s = append(*s, &t) }),
			}
		})
}

// list returns the unmarshal function of a list message of T, which add
// appends each item to.
func list[T, S any](m message[T], add func(*S, T)) func(*S, []byte) error {
	return func(s *S, src []byte) error {
		return fields(src, func(fc *easyproto.FieldContext) error {
			if fc.FieldNum != 1 {
				return nil
			}
			var t T
			if err := sub(fc, &t, m.unmarshal); err != nil {
				return err
			}
			add(s, t)
			return nil
		})
	}
}

type epCase[T any] struct {
	marshal   func(*easyproto.MessageMarshaler)
	unmarshal func(*T, []byte) error
	buf       []byte
	out       *T
}

func (c *epCase[T]) Encode() ([]byte, error) {
	m := pool.Get()
	c.marshal(m.MessageMarshaler())
	c.buf = m.Marshal(c.buf[:0])
	pool.Put(m)
	return c.buf, nil
}

func (c *epCase[T]) Decode(data []byte) error {
	c.out = new(T)
	return c.unmarshal(c.out, data)
}

func (c *epCase[T]) Value() (any, error) {
	if c.out == nil {
		return nil, errors.New("easyproto: Value called before Decode")
	}
	return c.out, nil
}

// fields calls f with each field of the message in src.
func fields(src []byte, f func(*easyproto.FieldContext) error) error {
	var fc easyproto.FieldContext
	for len(src) > 0 {
		var err error
		if src, err = fc.NextField(src); err != nil {
			return err
		}
		if err := f(&fc); err != nil {
			return err
		}
	}
	return nil
}

// errField reports a field of the wrong wire type.
func errField(msg string, n uint32) error {
	return fmt.Errorf("easyproto: %s field %d has the wrong wire type", msg, n)
}

// sub unmarshals the message field fc holds into t.
func sub[T any](fc *easyproto.FieldContext, t *T, unmarshal func(*T, []byte) error) error {
	data, ok := fc.MessageData()
	if !ok {
		return errField("message", fc.FieldNum)
	}
	return unmarshal(t, data)
}

func str(fc *easyproto.FieldContext, dst *string) error {
	s, ok := fc.String()
	if !ok {
		return errField("string", fc.FieldNum)
	}
	*dst = strings.Clone(s)
	return nil
}

func i64(fc *easyproto.FieldContext, dst *int64) error {
	v, ok := fc.Int64()
	if !ok {
		return errField("int64", fc.FieldNum)
	}
	*dst = v
	return nil
}

func u64(fc *easyproto.FieldContext, dst *uint64) error {
	v, ok := fc.Uint64()
	if !ok {
		return errField("uint64", fc.FieldNum)
	}
	*dst = v
	return nil
}

func f64(fc *easyproto.FieldContext, dst *float64) error {
	v, ok := fc.Double()
	if !ok {
		return errField("double", fc.FieldNum)
	}
	*dst = v
	return nil
}

// Times are google.protobuf.Timestamp: seconds = 1, nanos = 2.

func marshalTime(t time.Time, mm *easyproto.MessageMarshaler) {
	mm.AppendInt64(1, t.Unix())
	mm.AppendInt32(2, int32(t.Nanosecond()))
}

func unmarshalTime(t *time.Time, src []byte) error {
	var sec, nsec int64
	err := fields(src, func(fc *easyproto.FieldContext) error {
		switch fc.FieldNum {
		case 1:
			return i64(fc, &sec)
		case 2:
			v, ok := fc.Int32()
			if !ok {
				return errField("int32", fc.FieldNum)
			}
			nsec = int64(v)
		}
		return nil
	})
	*t = time.Unix(sec, nsec).UTC()
	return err
}

func marshalTiny(v *dataset.Tiny, mm *easyproto.MessageMarshaler) {
	mm.AppendInt64(1, v.ID)
	mm.AppendString(2, v.SomeStr)
}

func unmarshalTiny(v *dataset.Tiny, src []byte) error {
	return fields(src, func(fc *easyproto.FieldContext) error {
		switch fc.FieldNum {
		case 1:
			return i64(fc, &v.ID)
		case 2:
			return str(fc, &v.SomeStr)
		}
		return nil
	})
}

func marshalMedium(v *dataset.Medium, mm *easyproto.MessageMarshaler) {
	mm.AppendInt64(1, v.ID)
	mm.AppendString(2, v.FirstName)
	if v.LastName != nil {
		mm.AppendString(3, *v.LastName)
	}
	if v.MoneyBalance != nil {
		mm.AppendDouble(4, *v.MoneyBalance)
	}
	marshalTime(v.CreatedAt, mm.AppendMessage(5))
	marshalTiny(&v.Tiny, mm.AppendMessage(6))
}

func unmarshalMedium(v *dataset.Medium, src []byte) error {
	return fields(src, func(fc *easyproto.FieldContext) error {
		switch fc.FieldNum {
		case 1:
			return i64(fc, &v.ID)
		case 2:
			return str(fc, &v.FirstName)
		case 3:
			v.LastName = new(string)
			return str(fc, v.LastName)
		case 4:
			v.MoneyBalance = new(float64)
			return f64(fc, v.MoneyBalance)
		case 5:
			return sub(fc, &v.CreatedAt, unmarshalTime)
		case 6:
			return sub(fc, &v.Tiny, unmarshalTiny)
		}
		return nil
	})
}

func marshalBig(v *dataset.Big, mm *easyproto.MessageMarshaler) {
	mm.AppendInt64(1, v.ID)
	mm.AppendUint64(2, v.Age)
	if v.Country != nil {
		mm.AppendString(3, *v.Country)
	}
	mm.AppendBytes(4, v.CountryBytes)
	marshalTime(v.CreatedAt, mm.AppendMessage(5))
	marshalTime(v.UpdatedAt, mm.AppendMessage(6))
	marshalTime(v.DeletedAt, mm.AppendMessage(7))
	marshalTiny(&v.Tiny, mm.AppendMessage(8))
	marshalMedium(&v.Medium, mm.AppendMessage(9))
	if v.MediumPtr != nil {
		marshalMedium(v.MediumPtr, mm.AppendMessage(10))
	}
}

func unmarshalBig(v *dataset.Big, src []byte) error {
	return fields(src, func(fc *easyproto.FieldContext) error {
		switch fc.FieldNum {
		case 1:
			return i64(fc, &v.ID)
		case 2:
			return u64(fc, &v.Age)
		case 3:
			v.Country = new(string)
			return str(fc, v.Country)
		case 4:
			b, ok := fc.Bytes()
			if !ok {
				return errField("bytes", fc.FieldNum)
			}
			v.CountryBytes = append([]byte(nil), b...)
		case 5:
			return sub(fc, &v.CreatedAt, unmarshalTime)
		case 6:
			return sub(fc, &v.UpdatedAt, unmarshalTime)
		case 7:
			return sub(fc, &v.DeletedAt, unmarshalTime)
		case 8:
			return sub(fc, &v.Tiny, unmarshalTiny)
		case 9:
			return sub(fc, &v.Medium, unmarshalMedium)
		case 10:
			v.MediumPtr = new(dataset.Medium)
			return sub(fc, v.MediumPtr, unmarshalMedium)
		}
		return nil
	})
}

func marshalHuge(v *dataset.Huge, mm *easyproto.MessageMarshaler) {
	for i := range v.BigSlice {
		marshalBig(&v.BigSlice[i], mm.AppendMessage(1))
	}
	for _, b := range v.BigPtrSlice {
		sub := mm.AppendMessage(2)
		if b != nil {
			marshalBig(b, sub)
		}
	}
	for i := range v.BiggerSlice {
		marshalBig(&v.BiggerSlice[i], mm.AppendMessage(3))
	}
	for i := range v.TheBiggestSlice {
		marshalBig(&v.TheBiggestSlice[i], mm.AppendMessage(4))
	}
}

func unmarshalHuge(v *dataset.Huge, src []byte) error {
	return fields(src, func(fc *easyproto.FieldContext) error {
		var b dataset.Big
		var dst *[]dataset.Big
		switch fc.FieldNum {
		case 1:
			dst = &v.BigSlice
		case 2:
			if err := sub(fc, &b, unmarshalBig); err != nil {
				return err
			}
			v.BigPtrSlice = append(v.BigPtrSlice, &b)
			return nil
		case 3:
			dst = &v.BiggerSlice
		case 4:
			dst = &v.TheBiggestSlice
		default:
			return nil
		}
		if err := sub(fc, &b, unmarshalBig); err != nil {
			return err
		}
		*dst = append(*dst, b)
		return nil
	})
}

func marshalUser(v *dataset.User, mm *easyproto.MessageMarshaler) {
	mm.AppendInt64(1, int64(v.ID))
	mm.AppendString(2, v.Name)
	mm.AppendString(3, v.Email)
}

func unmarshalUser(v *dataset.User, src []byte) error {
	return fields(src, func(fc *easyproto.FieldContext) error {
		switch fc.FieldNum {
		case 1:
			var id int64
			err := i64(fc, &id)
			v.ID = int(id)
			return err
		case 2:
			return str(fc, &v.Name)
		case 3:
			return str(fc, &v.Email)
		}
		return nil
	})
}

func marshalMetric(v *dataset.Metric, mm *easyproto.MessageMarshaler) {
	mm.AppendDouble(1, v.Timestamp)
	mm.AppendUint64(2, v.NameHash)
	mm.AppendDouble(3, v.Value)
}

func unmarshalMetric(v *dataset.Metric, src []byte) error {
	return fields(src, func(fc *easyproto.FieldContext) error {
		switch fc.FieldNum {
		case 1:
			return f64(fc, &v.Timestamp)
		case 2:
			return u64(fc, &v.NameHash)
		case 3:
			return f64(fc, &v.Value)
		}
		return nil
	})
}
