// Package gob adapts encoding/gob in its two real usages: one-shot (a new
// Encoder per message, as the seed articles used it, so every message
// carries its type descriptors) and stream (one Encoder and Decoder kept
// for a connection's life, descriptors sent once).
package gob

import (
	"bytes"
	"encoding/gob"
	"io"
	"reflect"

	"github.com/serbench/serbench/codec"
)

const url = "https://pkg.go.dev/encoding/gob"

// gob sends no zero values: empty slices and maps, and pointers to zero
// values, come back nil.
var losses = []codec.Loss{{Kind: codec.NilEmpty}, {Kind: codec.NilPointerZero}}

// OneShot is gob with a new Encoder and Decoder per message.
var OneShot = codec.Declare(codec.Info{
	Name: "gob", Family: "gob", Label: "encoding/gob (one-shot)", Module: "std", URL: url,
	API:    codec.Reflection,
	Losses: losses,
	Notes:  "New Encoder per message: every message carries gob's type descriptors.",
	New: func() codec.Codec {
		return codec.Reflect(marshal, func(data []byte, v any) error {
			return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
		})
	},
})

// Stream is gob with one Encoder and Decoder reused across messages.
var Stream = codec.Declare(codec.Info{
	Name: "gob-stream", Family: "gob", Label: "encoding/gob (stream)", Module: "std", URL: url,
	API:     codec.Reflection,
	Losses:  losses,
	Variant: "one Encoder/Decoder pair reused across messages; type descriptors sent once, before timing",
	New: func() codec.Codec {
		return codec.WithStream(codec.Func(prepareStream),
			func(w io.Writer) codec.Encoder { return gob.NewEncoder(w) },
			func(r io.Reader) codec.Decoder { return gob.NewDecoder(r) })
	},

	ReusesBuffer: true, // Encode writes into a buffer kept across calls
	Stateful:     true, // type descriptors pass once, before the first message
})

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type stream struct {
	v    any
	elem reflect.Type
	out  any
	wbuf bytes.Buffer // the encoder's side of the connection
	rbuf bytes.Buffer // the decoder's side
	enc  *gob.Encoder
	dec  *gob.Decoder
}

// prepareStream opens the stream: the first message, which carries the
// type descriptors, is encoded and decoded here, outside the timer.
func prepareStream(v any) (codec.Case, error) {
	elem, err := codec.PointerElem(v)
	if err != nil {
		return nil, err
	}
	s := &stream{v: v, elem: elem}
	s.enc = gob.NewEncoder(&s.wbuf)
	s.dec = gob.NewDecoder(&s.rbuf)
	first, err := s.Encode()
	if err != nil {
		return nil, err
	}
	if err := s.Decode(first); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *stream) Encode() ([]byte, error) {
	s.wbuf.Reset()
	if err := s.enc.Encode(s.v); err != nil {
		return nil, err
	}
	return s.wbuf.Bytes(), nil
}

func (s *stream) Decode(data []byte) error {
	s.rbuf.Reset()
	s.rbuf.Write(data)
	s.out = reflect.New(s.elem).Interface()
	return s.dec.Decode(s.out)
}

func (s *stream) Value() (any, error) { return s.out, nil }

// DecodeInto makes a stream a codec.Into: the connection's Decoder decodes
// data into v.
func (s *stream) DecodeInto(data []byte, v any) error {
	s.rbuf.Reset()
	s.rbuf.Write(data)
	return s.dec.Decode(v)
}
