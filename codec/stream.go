package codec

import (
	"bytes"
	"io"
	"reflect"
)

// An Encoder writes the encoding of one value per call to the io.Writer it
// was made with. Most libraries' streaming encoders satisfy it.
type Encoder interface {
	Encode(v any) error
}

// A Decoder reads one value per call from the io.Reader it was made with.
type Decoder interface {
	Decode(v any) error
}

// A Streamer is a Codec whose library writes a stream of messages to an
// io.Writer and reads them back from an io.Reader, one value per call,
// the way a connection or a file of records is used. The values are those
// handed to Prepare (pointers to the dataset's types), so that a stream
// carries what the codec's Cases carry. An Encoder may buffer: the stream
// is complete once every message is written and, if the Encoder is an
// io.Closer, it is closed.
type Streamer interface {
	// NewEncoder returns an Encoder writing each value as the next
	// message of a stream to w.
	NewEncoder(w io.Writer) Encoder
	// NewDecoder returns a Decoder reading the stream's messages from r
	// in order, each into the value handed to Decode.
	NewDecoder(r io.Reader) Decoder
}

// WithStream returns c as a Streamer whose Encoders and Decoders are made
// by newEncoder and newDecoder: a library's streaming API beside the
// calls c times.
func WithStream(c Codec, newEncoder func(w io.Writer) Encoder, newDecoder func(r io.Reader) Decoder) Codec {
	return streamer{c, newEncoder, newDecoder, nil}
}

type streamer struct {
	Codec
	newEncoder func(io.Writer) Encoder
	newDecoder func(io.Reader) Decoder
	refuse     func(v any) string
}

func (s streamer) NewEncoder(w io.Writer) Encoder { return s.newEncoder(w) }
func (s streamer) NewDecoder(r io.Reader) Decoder { return s.newDecoder(r) }

// A StreamRefuser is a Streamer whose stream cannot carry some values
// its Cases can (a library's stream Decoder that loses them):
// StreamRefuses returns why it cannot carry v, or "" if it can. The
// stream ops skip such a value with the reason, as Prepare's
// UnsupportedError skips a case.
type StreamRefuser interface {
	StreamRefuses(v any) string
}

// WithStreamRefusing is WithStream for a library whose stream cannot
// carry every value its Cases can: refuse says why it cannot carry v, or
// "".
func WithStreamRefusing(c Codec, newEncoder func(w io.Writer) Encoder, newDecoder func(r io.Reader) Decoder, refuse func(v any) string) Codec {
	return streamer{c, newEncoder, newDecoder, refuse}
}

func (s streamer) StreamRefuses(v any) string {
	if s.refuse == nil {
		return ""
	}
	return s.refuse(v)
}

// Stream returns a Codec for a library's streaming API used the way a
// server keeps it for a connection's life: one Encoder, made once per Case,
// writes every message into one bytes.Buffer that is reset and reused, and
// one Decoder, made once per Case, reads every message from one
// bytes.Reader reset to the message. Nothing is allocated per message but
// what the library allocates itself.
//
// Stream is for libraries whose Encoder writes each message whole and
// keeps no state between messages that a fresh reader would miss (gob's
// type descriptors do not qualify), and whose Decoder reads no further
// than the message it decodes, or holds no bytes over when the message
// ends. If newDecoder is nil, messages are decoded with unmarshal instead.
// With both, the Codec is also a Streamer.
func Stream(newEncoder func(w io.Writer) Encoder, newDecoder func(r io.Reader) Decoder, unmarshal func(data []byte, v any) error) Codec {
	c := Func(func(v any) (Case, error) {
		elem, err := PointerElem(v)
		if err != nil {
			return nil, err
		}
		c := &streamCase{v: v, elem: elem, unmarshal: unmarshal}
		c.enc = newEncoder(&c.wbuf)
		if newDecoder != nil {
			c.dec = newDecoder(&c.rbuf)
		}
		return c, nil
	})
	if newDecoder == nil {
		return c
	}
	return WithStream(c, newEncoder, newDecoder)
}

type streamCase struct {
	v         any
	elem      reflect.Type
	out       any
	wbuf      bytes.Buffer
	rbuf      bytes.Reader
	enc       Encoder
	dec       Decoder
	unmarshal func([]byte, any) error
}

func (c *streamCase) Encode() ([]byte, error) {
	c.wbuf.Reset()
	if err := c.enc.Encode(c.v); err != nil {
		return nil, err
	}
	return c.wbuf.Bytes(), nil
}

func (c *streamCase) Decode(data []byte) error {
	c.out = reflect.New(c.elem).Interface()
	if c.dec == nil {
		return c.unmarshal(data, c.out)
	}
	c.rbuf.Reset(data)
	return c.dec.Decode(c.out)
}

func (c *streamCase) Value() (any, error) { return c.out, nil }

// DecodeInto makes a streamCase an Into: the Decoder (or unmarshal)
// decodes data into v.
func (c *streamCase) DecodeInto(data []byte, v any) error {
	if c.dec == nil {
		return c.unmarshal(data, v)
	}
	c.rbuf.Reset(data)
	return c.dec.Decode(v)
}

// ReflectAppend returns a Codec for a reflection-based library's append
// API, appendTo(dst, v) returning dst with v's encoding appended: the
// encode buffer is reused across calls, as callers of such APIs do.
// Decoding is unmarshal(data, fresh), as in Reflect.
func ReflectAppend(appendTo func(dst []byte, v any) ([]byte, error), unmarshal func(data []byte, v any) error) Codec {
	return Func(func(v any) (Case, error) {
		elem, err := PointerElem(v)
		if err != nil {
			return nil, err
		}
		return &appendCase{reflectCase: reflectCase{v: v, elem: elem, unmarshal: unmarshal}, appendTo: appendTo}, nil
	})
}

type appendCase struct {
	reflectCase
	buf      []byte
	appendTo func([]byte, any) ([]byte, error)
}

func (c *appendCase) Encode() ([]byte, error) {
	b, err := c.appendTo(c.buf[:0], c.v)
	if err != nil {
		return nil, err
	}
	c.buf = b
	return b, nil
}
