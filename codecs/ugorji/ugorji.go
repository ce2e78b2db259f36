// Package ugorji adapts github.com/ugorji/go/codec, one reflection engine
// behind several formats, through three of its handles: MessagePack, CBOR
// and Binc (its author's own binary format). Each handle is configured once
// (here: left at its zero value) and shared, as the library's docs say.
package ugorji

import (
	"reflect"
	"time"

	"github.com/ugorji/go/codec"

	sb "github.com/serbench/serbench/codec"
)

const (
	module = "github.com/ugorji/go/codec"
	url    = "https://github.com/ugorji/go"
)

var (
	msgpackHandle codec.MsgpackHandle
	cborHandle    codec.CborHandle
	bincHandle    codec.BincHandle
)

// Msgpack is ugorji's MsgpackHandle.
var Msgpack = sb.Declare(sb.Info{
	Name: "ugorji-msgpack", Family: "msgpack", Label: "ugorji/go/codec (MsgpackHandle)", Module: module, URL: url,
	API:         sb.Reflection,
	Adopt:       sb.Adoption{Canonical: "Handle.Canonical = true"},
	Unsupported: sb.Interface, // a string held in an interface decodes as []byte
	Losses:      []sb.Loss{{Kind: sb.TimeZone}},
	Notes: "Zero-value MsgpackHandle (WriteExt false: the old spec without str8 and bin types, so a string held in an interface comes back as []byte); " +
		"times in the timestamp format, which holds no offset, decoded in UTC. " + common,
	New: func() sb.Codec { return oneShot(&msgpackHandle) },
})

// MsgpackReuse is ugorji's MsgpackHandle with one Encoder and one Decoder
// kept across messages, as the library's docs recommend for performance.
var MsgpackReuse = sb.Declare(sb.Info{
	Name: "ugorji-msgpack-reuse", Family: "msgpack", Label: "ugorji/go/codec (MsgpackHandle, reused)", Module: module, URL: url,
	API:         sb.Reflection,
	Adopt:       sb.Adoption{Canonical: "Handle.Canonical = true"},
	Variant:     "one Encoder and one Decoder kept across messages, reset with ResetBytes to a reused buffer and to each message",
	Unsupported: sb.Interface, // as Msgpack
	Losses:      []sb.Loss{{Kind: sb.TimeZone}},
	Notes:       "Same bytes as ugorji-msgpack.",
	New:         func() sb.Codec { return reuse(&msgpackHandle) },

	ReusesBuffer: true, // Encode writes into a buffer kept across calls
})

// CBOR is ugorji's CborHandle.
var CBOR = sb.Declare(sb.Info{
	Name: "ugorji-cbor", Family: "cbor", Label: "ugorji/go/codec (CborHandle)", Module: module, URL: url,
	API:    sb.Reflection,
	Adopt:  sb.Adoption{Canonical: "Handle.Canonical = true"},
	Losses: []sb.Loss{{Kind: sb.TimePrecision, Precision: time.Microsecond}, {Kind: sb.TimeZone}},
	Notes: "The CborHandle decoder rounds every time to the microsecond and converts it to UTC " +
		"(whether written as epoch seconds or, with TimeRFC3339, as text). " + common,
	New: func() sb.Codec { return oneShot(&cborHandle) },
})

// Binc is ugorji's BincHandle.
var Binc = sb.Declare(sb.Info{
	Name: "ugorji-binc", Family: "binc", Label: "ugorji/go/codec (BincHandle)", Module: module, URL: url,
	API:   sb.Reflection,
	Adopt: sb.Adoption{Canonical: "Handle.Canonical = true"},
	Notes: "Zero-value BincHandle. " + common,
	New:   func() sb.Codec { return oneShot(&bincHandle) },
})

const common = "A new Encoder and Decoder per message, as NewEncoderBytes(&b, h).Encode(v) is used; struct fields keyed by their json tags."

// oneShot returns the codec of handle h used one message at a time.
func oneShot(h codec.Handle) sb.Codec {
	marshal := func(v any) ([]byte, error) {
		var b []byte
		err := codec.NewEncoderBytes(&b, h).Encode(v)
		return b, err
	}
	unmarshal := func(data []byte, v any) error {
		return codec.NewDecoderBytes(data, h).Decode(v)
	}
	return sb.Reflect(marshal, unmarshal)
}

// reuse returns the codec of handle h with one Encoder and one Decoder
// per Case, reset to each message's bytes as the library's docs recommend.
func reuse(h codec.Handle) sb.Codec {
	return sb.Func(func(v any) (sb.Case, error) {
		elem, err := sb.PointerElem(v)
		if err != nil {
			return nil, err
		}
		c := &reuseCase{v: v, elem: elem}
		c.enc = codec.NewEncoderBytes(&c.buf, h)
		c.dec = codec.NewDecoderBytes(nil, h)
		return c, nil
	})
}

type reuseCase struct {
	v    any
	elem reflect.Type
	out  any
	buf  []byte
	enc  *codec.Encoder
	dec  *codec.Decoder
}

func (c *reuseCase) Encode() ([]byte, error) {
	c.buf = c.buf[:0]
	c.enc.ResetBytes(&c.buf)
	err := c.enc.Encode(c.v)
	return c.buf, err
}

func (c *reuseCase) Decode(data []byte) error {
	c.out = reflect.New(c.elem).Interface()
	c.dec.ResetBytes(data)
	return c.dec.Decode(c.out)
}

func (c *reuseCase) Value() (any, error) { return c.out, nil }

// DecodeInto makes a reuseCase an sb.Into: the kept Decoder decodes data
// into v.
func (c *reuseCase) DecodeInto(data []byte, v any) error {
	c.dec.ResetBytes(data)
	return c.dec.Decode(v)
}
