// Package ugorji adapts github.com/ugorji/go/codec, one reflection engine
// behind several formats, through three of its handles: MessagePack, CBOR
// and Binc (its author's own binary format). Each handle is configured once
// (here: left at its zero value) and shared, as the library's docs say.
package ugorji

import (
	"io"

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
var Msgpack = sb.Info{
	Name: "ugorji-msgpack", Family: "msgpack", Label: "ugorji/go/codec (MsgpackHandle)", Module: module, URL: url,
	API:    sb.Reflection,
	Losses: []sb.Loss{{Kind: sb.TimeZone}},
	Notes: "Zero-value MsgpackHandle (WriteExt false: the old spec without str8 and bin types); " +
		"times in the timestamp format, which holds no offset, decoded in UTC. " + common,
	New: func() sb.Codec { return reflect(&msgpackHandle) },
}

// MsgpackReuse is ugorji's MsgpackHandle with one Encoder and one Decoder
// kept across messages, as the library's docs recommend for performance.
var MsgpackReuse = sb.Info{
	Name: "ugorji-msgpack-reuse", Family: "msgpack", Label: "ugorji/go/codec (MsgpackHandle, reused)", Module: module, URL: url,
	API:     sb.Reflection,
	Variant: "one Encoder writing into a reused bytes.Buffer and one Decoder reset to each message, kept across messages",
	Losses:  []sb.Loss{{Kind: sb.TimeZone}},
	Notes:   "Same bytes as ugorji-msgpack.",
	New: func() sb.Codec {
		return sb.Stream(
			func(w io.Writer) sb.Encoder { return codec.NewEncoder(w, &msgpackHandle) },
			func(r io.Reader) sb.Decoder { return codec.NewDecoder(r, &msgpackHandle) },
			nil)
	},
}

// CBOR is ugorji's CborHandle.
var CBOR = sb.Info{
	Name: "ugorji-cbor", Family: "cbor", Label: "ugorji/go/codec (CborHandle)", Module: module, URL: url,
	API:         sb.Reflection,
	Unsupported: sb.Time,
	Notes: "time.Time refused: the CborHandle decoder rounds every time to the microsecond and converts it to UTC " +
		"(whether written as epoch seconds or, with TimeRFC3339, as text), and serbench can declare only " +
		"truncation, not rounding. " + common,
	New: func() sb.Codec { return reflect(&cborHandle) },
}

// Binc is ugorji's BincHandle.
var Binc = sb.Info{
	Name: "ugorji-binc", Family: "binc", Label: "ugorji/go/codec (BincHandle)", Module: module, URL: url,
	API:   sb.Reflection,
	Notes: "Zero-value BincHandle. " + common,
	New:   func() sb.Codec { return reflect(&bincHandle) },
}

const common = "A new Encoder and Decoder per message, as NewEncoderBytes(&b, h).Encode(v) is used; struct fields keyed by their json tags."

// reflect returns the codec of handle h used one message at a time.
func reflect(h codec.Handle) sb.Codec {
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
