package hostile

import (
	"bytes"
	"encoding/binary"
)

// A kind is what a length prefix counts.
type kind int

const (
	kString kind = iota
	kBytes
	kArray
	kMap
)

// A framing knows how one format family writes its length prefixes and
// its nesting, so that a class can write lengths far beyond the input and
// nesting ladders in the format's own terms. A nil func means the format
// has no such thing.
type framing struct {
	// prefixes returns the ways the format writes a prefix of kind k
	// declaring n, to find one in a valid encoding; nil when the format
	// has no such prefix.
	prefixes func(k kind, n uint64) [][]byte
	// huge is the prefix of kind k that declares far more than any input.
	huge func(k kind) []byte
	// fix repairs the framing around a patch: data is the patched input,
	// at the patch's offset and grow how many bytes it added.
	fix func(data []byte, at, grow int) []byte
	// deep writes a map (or a struct's document) whose one key, "zz",
	// holds depth nested arrays (or maps when maps is set).
	deep func(depth int, maps bool) []byte
	// hasMaps reports whether deep can nest maps apart from arrays.
	hasMaps bool
	// unframe splits an encoding into the framing before its last
	// message and that message's body; reframe joins them again,
	// framing the body anew (inferLadder).
	unframe func(data []byte) (head, body []byte, ok bool)
	reframe func(head, body []byte) []byte
}

// hugeLen is the length a huge prefix declares where the format lets it
// choose: 2^32-1, past any slice a 4 GiB process can hold.
const hugeLen = 1<<32 - 1

// framings maps a codec family to its framing.
var framings = map[string]*framing{
	"msgpack": {
		prefixes: func(k kind, n uint64) [][]byte {
			fix := map[kind]byte{kString: 0xa0, kArray: 0x90, kMap: 0x80}
			first := map[kind]byte{kString: 0xd9, kBytes: 0xc4, kArray: 0xdc, kMap: 0xde}
			var out [][]byte
			if f, ok := fix[k]; ok && n < 16 || k == kString && n < 32 {
				out = append(out, []byte{f | byte(n)})
			}
			b := first[k]
			if k == kString || k == kBytes {
				out = append(out, []byte{b, byte(n)})
				b++
			}
			out = append(out, be(b, n, 2), be(b+1, n, 4))
			return out
		},
		huge: func(k kind) []byte {
			return map[kind][]byte{kString: {0xdb, 0xff, 0xff, 0xff, 0xff}, kBytes: {0xc6, 0xff, 0xff, 0xff, 0xff},
				kArray: {0xdd, 0xff, 0xff, 0xff, 0xff}, kMap: {0xdf, 0xff, 0xff, 0xff, 0xff}}[k]
		},
		deep: func(depth int, maps bool) []byte {
			open, end := []byte{0x91}, []byte{0xc0}
			if maps {
				open = []byte{0x81, 0xa1, 'a'}
			}
			return ladderBytes(depth, []byte{0x81, 0xa2, 'z', 'z'}, open, end, nil, nil)
		},
		hasMaps: true,
	},
	"cbor": {
		prefixes: func(k kind, n uint64) [][]byte {
			m := cborMajor[k]
			var out [][]byte
			if n < 24 {
				out = append(out, []byte{m | byte(n)})
			}
			return append(out, []byte{m | 24, byte(n)}, be(m|25, n, 2), be(m|26, n, 4), be(m|27, n, 8))
		},
		huge: func(k kind) []byte { return be(cborMajor[k]|26, hugeLen, 4) },
		deep: func(depth int, maps bool) []byte {
			open, end := []byte{0x81}, []byte{0xf6}
			if maps {
				open = []byte{0xa1, 0x61, 'a'}
			}
			return ladderBytes(depth, []byte{0xa1, 0x62, 'z', 'z'}, open, end, nil, nil)
		},
		hasMaps: true,
	},
	"gob": {
		prefixes: func(k kind, n uint64) [][]byte { return [][]byte{gobUint(n)} },
		huge:     func(kind) []byte { return gobUint(hugeLen + 1) },
		fix:      gobFix,
		unframe:  gobUnframe,
		reframe:  gobReframe,
	},
	"bson": {
		prefixes: func(k kind, n uint64) [][]byte {
			switch k {
			case kString:
				return [][]byte{binary.LittleEndian.AppendUint32(nil, uint32(n+1))}
			case kBytes:
				return [][]byte{binary.LittleEndian.AppendUint32(nil, uint32(n))}
			}
			return nil
		},
		huge:    func(kind) []byte { return binary.LittleEndian.AppendUint32(nil, 0x7ffffff0) },
		deep:    bsonDeep,
		hasMaps: true,
	},
	"protobuf": {
		prefixes: func(k kind, n uint64) [][]byte {
			if k == kString || k == kBytes {
				return [][]byte{binary.AppendUvarint(nil, n)}
			}
			return nil
		},
		huge: func(kind) []byte { return binary.AppendUvarint(nil, 0x7fffffff) },
		deep: func(depth int, maps bool) []byte {
			// Field 15 as a group: start-group tags, then end-group tags.
			return ladderBytes(depth, nil, []byte{0x7b}, nil, []byte{0x7c}, nil)
		},
	},
	"avro": {
		prefixes: func(k kind, n uint64) [][]byte {
			out := [][]byte{binary.AppendVarint(nil, int64(n))}
			if k == kArray || k == kMap {
				// A block may count its items negated, its size in bytes after.
				out = append(out, binary.AppendVarint(nil, -int64(n)))
			}
			return out
		},
		huge: func(kind) []byte { return binary.AppendVarint(nil, 1<<31-1) },
	},
	"kelindar": {
		prefixes: func(k kind, n uint64) [][]byte { return [][]byte{binary.AppendUvarint(nil, n)} },
		huge:     func(kind) []byte { return binary.AppendUvarint(nil, 1<<31-1) },
	},
	"xdr": {
		// RFC 4506: a string, opaque data, an array (and a map, an array
		// of pairs) is a 4-byte big-endian count; nothing nests in the
		// bytes but the Go type.
		prefixes: func(k kind, n uint64) [][]byte { return [][]byte{binary.BigEndian.AppendUint32(nil, uint32(n))} },
		huge:     func(kind) []byte { return binary.BigEndian.AppendUint32(nil, hugeLen) },
	},
	"json": {deep: textDeep(`{"zz":`, `}`, "[", "]", `{"a":`, "}", "null"), hasMaps: true},
	"yaml": {deep: textDeep("zz: ", "\n", "[", "]", "{a: ", "}", "null"), hasMaps: true},
	"toml": {deep: textDeep("zz = ", "\n", "[", "]", "{a=", "}", "1"), hasMaps: true},
	"xml":  {deep: textDeep("<doc><zz>", "</zz></doc>", "<a>", "</a>", "", "", "")},
}

var cborMajor = map[kind]byte{kBytes: 2 << 5, kString: 3 << 5, kArray: 4 << 5, kMap: 5 << 5}

// be returns the byte b followed by n big-endian in size bytes.
func be(b byte, n uint64, size int) []byte {
	out := []byte{b}
	for i := size - 1; i >= 0; i-- {
		out = append(out, byte(n>>(8*i)))
	}
	return out
}

// ladderBytes writes head, depth opens, mid, depth closes, tail.
func ladderBytes(depth int, head, open, mid, close, tail []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(head) + depth*(len(open)+len(close)) + len(mid) + len(tail))
	b.Write(head)
	for range depth {
		b.Write(open)
	}
	b.Write(mid)
	for range depth {
		b.Write(close)
	}
	b.Write(tail)
	return b.Bytes()
}

// textDeep returns a deep func for a text format.
func textDeep(head, tail, aOpen, aClose, mOpen, mClose, leaf string) func(int, bool) []byte {
	return func(depth int, maps bool) []byte {
		open, close := aOpen, aClose
		if maps {
			open, close = mOpen, mClose
		}
		return ladderBytes(depth, []byte(head), []byte(open), []byte(leaf), []byte(close), []byte(tail))
	}
}

// bsonDeep writes {zz: {a: {a: ...}}} (embedded documents) or the same
// with arrays, each level's length counted in.
func bsonDeep(depth int, maps bool) []byte {
	typ, key := byte(0x04), byte('0') // arrays are documents keyed "0", "1", ...
	if maps {
		typ, key = 0x03, 'a'
	}
	var b bytes.Buffer
	// Each level is int32 length, type, key, NUL, the level below, NUL.
	inner := 5 + 4*depth + 4*depth // 4 bytes per level besides its length field
	total := 4 + 1 + 3 + inner + 1
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(total)))
	b.Write([]byte{typ, 'z', 'z', 0})
	for i := range depth {
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(inner-8*i)))
		b.Write([]byte{typ, key, 0})
	}
	b.Write(binary.LittleEndian.AppendUint32(nil, 5))
	b.WriteByte(0)
	for range depth {
		b.WriteByte(0)
	}
	b.WriteByte(0)
	return b.Bytes()
}

// gobUint writes n as gob writes an unsigned integer.
func gobUint(n uint64) []byte {
	if n < 0x80 {
		return []byte{byte(n)}
	}
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], n)
	i := 0
	for buf[i] == 0 {
		i++
	}
	return append([]byte{byte(-(8 - i))}, buf[i:]...)
}

// readGobUint reads a gob unsigned integer, returning it and its size; 0
// size when data is too short.
func readGobUint(data []byte) (uint64, int) {
	if len(data) == 0 {
		return 0, 0
	}
	b := data[0]
	if b < 0x80 {
		return uint64(b), 1
	}
	n := int(-int8(b))
	if n > 8 || len(data) < 1+n {
		return 0, 0
	}
	var x uint64
	for _, c := range data[1 : 1+n] {
		x = x<<8 | uint64(c)
	}
	return x, 1 + n
}

// gobFix rewrites the length of the gob message holding offset at, which
// a patch grew by grow bytes.
func gobFix(data []byte, at, grow int) []byte {
	for pos := 0; pos < len(data); {
		n, size := readGobUint(data[pos:])
		if size == 0 {
			return data
		}
		end := pos + size + int(n)
		if at >= pos+size && at < end {
			out := append([]byte{}, data[:pos]...)
			out = append(out, gobUint(n+uint64(grow))...)
			return append(out, data[pos+size:]...)
		}
		pos = end
	}
	return data
}
