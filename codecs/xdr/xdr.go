// Package xdr adapts github.com/stellar/go-xdr/xdr3, External Data
// Representation (RFC 4506) by reflection: the format of ONC RPC and NFS,
// and of every ledger entry and transaction on the Stellar network.
package xdr

import (
	"bytes"
	"io"

	xdr3 "github.com/stellar/go-xdr/xdr3"

	"github.com/serbench/serbench/codec"
)

// Default is xdr.Marshal into a bytes.Buffer and xdr.Unmarshal from a
// bytes.Reader, as the package's examples show.
var Default = codec.Declare(codec.Info{
	Name: "xdr", Family: "xdr", Label: "stellar/go-xdr/xdr3", Module: "github.com/stellar/go-xdr",
	URL: "https://github.com/stellar/go-xdr", API: codec.Reflection,
	// XDR is not self-describing: a decoder of an interface has no type to
	// decode into.
	Unsupported: codec.Interface,
	// A nil slice or map is written as a length of 0 and read back empty.
	// A time is RFC 3339 text with its offset: the offset comes back, the
	// zone's name does not (which verification allows).
	Losses: []codec.Loss{{Kind: codec.NilEmpty}},
	Notes: "A Go int or uint is an XDR Integer of 32 bits: a value beyond int32 is truncated without an error " +
		"(int64 is a Hyper Integer of 64). A pointer is an XDR optional (a bool, then the value); " +
		"a map is an array of key-value pairs; a time is RFC 3339 text with nanoseconds.",
	New: func() codec.Codec {
		return codec.WithStream(codec.Reflect(marshal, unmarshal),
			func(w io.Writer) codec.Encoder { return encoder{xdr3.NewEncoder(w)} },
			func(r io.Reader) codec.Decoder { return decoder{xdr3.NewDecoder(r)} })
	},
})

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	_, err := xdr3.Marshal(&b, v)
	return b.Bytes(), err
}

func unmarshal(data []byte, v any) error {
	_, err := xdr3.Unmarshal(bytes.NewReader(data), v)
	return err
}

// encoder and decoder drop the byte counts that xdr3's Encode and Decode
// return beside their error.
type encoder struct{ e *xdr3.Encoder }

func (e encoder) Encode(v any) error { _, err := e.e.Encode(v); return err }

type decoder struct{ d *xdr3.Decoder }

func (d decoder) Decode(v any) error { _, err := d.d.Decode(v); return err }
