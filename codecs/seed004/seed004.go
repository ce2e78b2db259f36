// Package seed004 is seed 004's four ways of turning an int into bytes and
// back, with the article's functions as it wrote them: each makes its
// result on every call (make([]byte, 8), []byte(strconv.Itoa(v)), a new
// bytes.Buffer, a new gob Encoder). The compiler inlines the first into
// the timed loop and, since the loop keeps one byte of the result, keeps
// its 8 bytes on the stack: 0 allocations, as in the article's own
// benchmark (3.05 ns); the other three allocate wherever they are called.
// The read functions are the article's "similar" ones. The fair versions,
// which append into a reused buffer, are the byteorder, strconv, binary
// and gob codecs.
//
// Every case is a codec.Looper: its timed loops call the functions
// directly, as a testing.B loop does, so that an operation of a few
// nanoseconds is not swamped by an indirect call per iteration.
package seed004

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"strconv"

	"github.com/serbench/serbench/codec"
)

const variant = "seed 004's function as written: allocates its result on every call"

// ByteOrder is the article's encodingWriteInt: PutUint64 into make([]byte, 8).
var ByteOrder = codec.Declare(codec.Info{
	Name: "seed004-byteorder", Family: "binary", Label: "seed 004: binary.LittleEndian.PutUint64", Module: "std",
	URL: "https://pkg.go.dev/encoding/binary#ByteOrder", API: codec.Manual,
	Variant: "seed 004's function as written: make([]byte, 8) per call, inlined into the timed loop and kept on the stack (0 allocations, as in the article's benchmark)",
	Notes:   "int64 only. Runs its own timed loop (codec.Looper).", SelfTimed: true,
	New: newCodec(func(v *int64) codec.Case { return &byteOrderCase{v: int(*v)} }),
})

// Strconv is the article's strWriteInt: []byte(strconv.Itoa(v)).
var Strconv = codec.Declare(codec.Info{
	Name: "seed004-strconv", Family: "text", Label: "seed 004: strconv.Itoa", Module: "std",
	URL: "https://pkg.go.dev/strconv", API: codec.Manual, Variant: variant,
	Notes: "int64 only. Runs its own timed loop (codec.Looper).", SelfTimed: true,
	New: newCodec(func(v *int64) codec.Case { return &strconvCase{v: int(*v)} }),
})

// Binary is the article's binaryWriteInt: binary.Write into a new
// bytes.Buffer over make([]byte, 0, 8).
var Binary = codec.Declare(codec.Info{
	Name: "seed004-binary", Family: "binary", Label: "seed 004: binary.Write", Module: "std",
	URL: "https://pkg.go.dev/encoding/binary", API: codec.Manual, Variant: variant,
	Notes: "int64 only. Runs its own timed loop (codec.Looper).", SelfTimed: true,
	New: newCodec(func(v *int64) codec.Case { return &binaryCase{v: int(*v)} }),
})

// Gob is the article's gobWriteInt: a new gob Encoder per value, into a
// new bytes.Buffer.
var Gob = codec.Declare(codec.Info{
	Name: "seed004-gob", Family: "gob", Label: "seed 004: gob, new Encoder per value", Module: "std",
	URL: "https://pkg.go.dev/encoding/gob", API: codec.Manual, Variant: variant,
	Notes: "int64 only. Runs its own timed loop (codec.Looper).", SelfTimed: true,
	New: newCodec(func(v *int64) codec.Case { return &gobCase{v: int(*v)} }),
})

// Codecs lists the four, in the article's order of speed.
var Codecs = []codec.Info{ByteOrder, Strconv, Binary, Gob}

func newCodec(c func(*int64) codec.Case) func() codec.Codec {
	return func() codec.Codec {
		return codec.Func(func(v any) (codec.Case, error) {
			p, ok := v.(*int64)
			if !ok {
				return nil, codec.Unsupported(v, "seed 004's functions encode one int only")
			}
			return c(p), nil
		})
	}
}

// The article's write functions, as it wrote them.

// BinaryWriteInt is the article's binaryWriteInt.
func BinaryWriteInt(value int) ([]byte, error) {
	bs := make([]byte, 0, 8)
	buf := bytes.NewBuffer(bs)
	err := binary.Write(buf, binary.LittleEndian, int64(value))
	return buf.Bytes(), err
}

// EncodingWriteInt is the article's encodingWriteInt.
func EncodingWriteInt(value int) []byte {
	bs := make([]byte, 8)
	binary.LittleEndian.PutUint64(bs, uint64(value))
	return bs
}

// StrWriteInt is the article's strWriteInt.
func StrWriteInt(value int) []byte {
	s := strconv.Itoa(value)
	return []byte(s)
}

// GobWriteInt is the article's gobWriteInt.
func GobWriteInt(value int) ([]byte, error) {
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	err := enc.Encode(value)
	return buf.Bytes(), err
}

// The read functions, "similar" to the write ones as the article says.

// BinaryReadInt reads with binary.Read from a bytes.Reader.
func BinaryReadInt(data []byte) (int, error) {
	var v int64
	err := binary.Read(bytes.NewReader(data), binary.LittleEndian, &v)
	return int(v), err
}

// EncodingReadInt reads with binary.LittleEndian.Uint64.
func EncodingReadInt(data []byte) int {
	return int(binary.LittleEndian.Uint64(data))
}

// StrReadInt reads with strconv.Atoi.
func StrReadInt(data []byte) (int, error) {
	return strconv.Atoi(string(data))
}

// GobReadInt reads with a new gob Decoder.
func GobReadInt(data []byte) (int, error) {
	var v int
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(&v)
	return v, err
}
