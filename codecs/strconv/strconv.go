// Package strconv encodes an int64 as decimal text with strconv, as seed
// 004 compared it with binary encodings.
package strconv

import (
	"strconv"

	"github.com/serbench/serbench/codec"
)

// Text is strconv.AppendInt and strconv.ParseInt.
var Text = codec.Declare(codec.Info{
	Name: "strconv", Family: "text", Label: "strconv (decimal text)", Module: "std",
	URL: "https://pkg.go.dev/strconv", API: codec.Manual,
	Notes: "int64 only; appends into a reused buffer.",
	New: func() codec.Codec {
		return codec.Func(func(v any) (codec.Case, error) {
			p, ok := v.(*int64)
			if !ok {
				return nil, codec.Unsupported(v, "strconv encodes int64 only")
			}
			return codec.AppendCase(p, appendInt, parseInt), nil
		})
	},

	ReusesBuffer: true, // Encode writes into a buffer kept across calls
})

func appendInt(dst []byte, v *int64) []byte { return strconv.AppendInt(dst, *v, 10) }

func parseInt(data []byte, v *int64) error {
	n, err := strconv.ParseInt(string(data), 10, 64)
	*v = n
	return err
}
