package seed004_test

import (
	"testing"

	"github.com/serbench/serbench/codecs/seed004"
)

// The article's benchmarks: each iteration encodes and decodes one int
// with the same functions the codecs time. Run them with
//
//	go test -bench . ./codecs/seed004/

// value is the integer the benchmarks encode: dataset int64's 23422.
var value = 23422

// sink keeps the decoded values live.
var sink int

// encoded is value's encoding by each method, for the decode benchmarks.
var encoded = map[string][]byte{}

func init() {
	encoded["seed004-byteorder"] = seed004.EncodingWriteInt(value)
	encoded["seed004-strconv"] = seed004.StrWriteInt(value)
	encoded["seed004-binary"], _ = seed004.BinaryWriteInt(value)
	encoded["seed004-gob"], _ = seed004.GobWriteInt(value)
}

// methods lists the article's four methods as testing.B bodies, encode and
// decode apart as serbench times them, in the article's order of speed,
// named by their codecs. Each loop keeps what it computes in a local and
// stores it once at the end, as the codecs' own loops do.
var methods = []struct {
	codec          string
	encode, decode func(b *testing.B)
}{
	{"seed004-byteorder", func(b *testing.B) {
		var s byte
		for i := 0; i < b.N; i++ {
			s ^= seed004.EncodingWriteInt(value)[0]
		}
		sink += int(s)
	}, func(b *testing.B) {
		data, s := encoded["seed004-byteorder"], 0
		for i := 0; i < b.N; i++ {
			s = seed004.EncodingReadInt(data)
		}
		sink += s
	}},
	{"seed004-strconv", func(b *testing.B) {
		var s byte
		for i := 0; i < b.N; i++ {
			s ^= seed004.StrWriteInt(value)[0]
		}
		sink += int(s)
	}, func(b *testing.B) {
		data, s := encoded["seed004-strconv"], 0
		for i := 0; i < b.N; i++ {
			v, err := seed004.StrReadInt(data)
			if err != nil {
				b.Fatal(err)
			}
			s = v
		}
		sink += s
	}},
	{"seed004-binary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := seed004.BinaryWriteInt(value); err != nil {
				b.Fatal(err)
			}
		}
	}, func(b *testing.B) {
		data, s := encoded["seed004-binary"], 0
		for i := 0; i < b.N; i++ {
			v, err := seed004.BinaryReadInt(data)
			if err != nil {
				b.Fatal(err)
			}
			s = v
		}
		sink += s
	}},
	{"seed004-gob", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := seed004.GobWriteInt(value); err != nil {
				b.Fatal(err)
			}
		}
	}, func(b *testing.B) {
		data, s := encoded["seed004-gob"], 0
		for i := 0; i < b.N; i++ {
			v, err := seed004.GobReadInt(data)
			if err != nil {
				b.Fatal(err)
			}
			s = v
		}
		sink += s
	}},
}

// The article's benchmark names, one per method and op.
func BenchmarkEncodeIntEncoding(b *testing.B) { methods[0].encode(b) }
func BenchmarkDecodeIntEncoding(b *testing.B) { methods[0].decode(b) }
func BenchmarkEncodeIntStr(b *testing.B)      { methods[1].encode(b) }
func BenchmarkDecodeIntStr(b *testing.B)      { methods[1].decode(b) }
func BenchmarkEncodeIntBinary(b *testing.B)   { methods[2].encode(b) }
func BenchmarkDecodeIntBinary(b *testing.B)   { methods[2].decode(b) }
func BenchmarkEncodeIntGob(b *testing.B)      { methods[3].encode(b) }
func BenchmarkDecodeIntGob(b *testing.B)      { methods[3].decode(b) }
