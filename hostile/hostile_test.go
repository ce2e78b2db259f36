package hostile

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/registry"
)

func lookup(t *testing.T, name string) codec.Info {
	t.Helper()
	info, err := registry.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// gen returns the seed's valid encoding and the class's inputs for codec.
func gen(t *testing.T, codecName, class string) ([]byte, []Input) {
	t.Helper()
	s, in := inputs(lookup(t, codecName), class, true, nil)
	if s == nil {
		t.Fatalf("%s %s: no seed", codecName, class)
	}
	return s.valid, in
}

func TestClassesDocumented(t *testing.T) {
	if len(Classes) < 15 {
		t.Errorf("%d classes, want at least 15", len(Classes))
	}
	seen := map[string]bool{}
	for _, c := range Classes {
		if seen[c.Name] {
			t.Errorf("class %s twice", c.Name)
		}
		seen[c.Name] = true
		if c.Doc == "" || strings.Contains(c.Doc, "\n") {
			t.Errorf("class %s: want a one-line doc, got %q", c.Name, c.Doc)
		}
	}
	if err := CheckClasses([]string{"truncat"}); err == nil || !strings.Contains(err.Error(), "truncate") {
		t.Errorf("CheckClasses(truncat) = %v, want a suggestion of truncate", err)
	}
}

// TestGenerators checks what each class generates, on the formats whose
// framing it uses.
func TestGenerators(t *testing.T) {
	for _, tc := range []struct {
		codec, class string
		check        func(t *testing.T, valid []byte, in []Input)
	}{
		{"json", "empty", func(t *testing.T, _ []byte, in []Input) {
			if len(in) != 1 || len(in[0].Data) != 0 {
				t.Errorf("want one empty input, got %d", len(in))
			}
		}},
		{"json", "truncate", func(t *testing.T, valid []byte, in []Input) {
			prev := -1
			for _, x := range in {
				if len(x.Data) <= prev || len(x.Data) >= len(valid) || !bytes.HasPrefix(valid, x.Data) {
					t.Fatalf("input of %d bytes is not a longer proper prefix of the %d-byte encoding", len(x.Data), len(valid))
				}
				prev = len(x.Data)
			}
			if len(in) != 16 {
				t.Errorf("%d prefixes with -quick, want 16", len(in))
			}
		}},
		{"cbor", "bitflip", func(t *testing.T, valid []byte, in []Input) {
			for _, x := range in {
				if bits := diffBits(valid, x.Data); bits != 1 {
					t.Errorf("%d bits differ, want 1", bits)
				}
			}
		}},
		{"cbor", "byte-replace", func(t *testing.T, valid []byte, in []Input) {
			for _, x := range in {
				if n := diffBytes(valid, x.Data); n > 1 {
					t.Errorf("%d bytes differ, want at most 1", n)
				}
			}
		}},
		{"msgpack", "zero-run", func(t *testing.T, valid []byte, in []Input) { checkRun(t, valid, in, 0) }},
		{"msgpack", "ff-run", func(t *testing.T, valid []byte, in []Input) { checkRun(t, valid, in, 0xff) }},
		{"gob", "trailing", func(t *testing.T, valid []byte, in []Input) {
			for _, x := range in {
				if len(x.Data) <= len(valid) || !bytes.HasPrefix(x.Data, valid) {
					t.Errorf("input does not extend the valid encoding")
				}
			}
		}},
		{"gob", "doubled", func(t *testing.T, valid []byte, in []Input) {
			if len(in) != 1 || !bytes.Equal(in[0].Data, append(bytes.Clone(valid), valid...)) {
				t.Errorf("want the valid encoding twice")
			}
		}},
		{"json", "other-type", func(t *testing.T, valid []byte, in []Input) {
			if len(in) != 1 || bytes.Equal(in[0].Data, valid) || !json.Valid(in[0].Data) {
				t.Errorf("want another valid JSON value, got %d inputs", len(in))
			}
		}},
		{"json", "huge-string", func(t *testing.T, valid []byte, in []Input) {
			if len(in) != 1 || !in[0].Valid || len(in[0].Data) < hugeString(true) || !json.Valid(in[0].Data) {
				t.Errorf("want one valid JSON input over %d bytes", hugeString(true))
			}
		}},
		{"msgpack", "bad-utf8", func(t *testing.T, valid []byte, in []Input) {
			if len(in) != 1 || len(in[0].Data) != len(valid) || !bytes.Contains(in[0].Data, []byte("\xff\xfe")) || utf8.Valid(in[0].Data[bytes.Index(valid, []byte("hostile")):][:len(marker)]) {
				t.Errorf("want the marker made invalid UTF-8 in place")
			}
		}},
		{"json", "dup-keys", func(t *testing.T, valid []byte, in []Input) {
			if len(in) != 1 || bytes.Count(in[0].Data, []byte(mapKeys[0])) != 2 || bytes.Count(valid, []byte(mapKeys[0])) != 1 {
				t.Errorf("want %s written twice: %s", mapKeys[0], in[0].Data)
			}
		}},
		{"msgpack", "long-string", func(t *testing.T, _ []byte, in []Input) {
			checkHuge(t, in, []byte{0xdb, 0xff, 0xff, 0xff, 0xff})
		}},
		{"bson", "long-string", func(t *testing.T, _ []byte, in []Input) {
			checkHuge(t, in, []byte{0xf0, 0xff, 0xff, 0x7f})
		}},
		{"cbor", "long-bytes", func(t *testing.T, _ []byte, in []Input) {
			checkHuge(t, in, []byte{0x5a, 0xff, 0xff, 0xff, 0xff})
		}},
		{"msgpack", "long-array", func(t *testing.T, _ []byte, in []Input) {
			// vmihailenco's 64 GiB slice: dd ff ff ff ff and one byte.
			if len(in) != 2 || !bytes.HasPrefix(in[0].Data, []byte{0xdd, 0xff, 0xff, 0xff, 0xff}) || len(in[0].Data) != 6 {
				t.Errorf("want dd ff ff ff ff and one byte first, got % x", in[0].Data)
			}
		}},
		{"avro", "long-array", func(t *testing.T, _ []byte, in []Input) {
			checkHuge(t, in, []byte{0xfe, 0xff, 0xff, 0xff, 0x0f})
		}},
		{"gob", "long-map", func(t *testing.T, _ []byte, in []Input) {
			checkHuge(t, in, gobUint(1<<32))
			// Every gob message's length still frames it.
			for _, x := range in {
				pos := 0
				for pos < len(x.Data) {
					n, size := readGobUint(x.Data[pos:])
					if size == 0 {
						t.Fatalf("bad message length at %d", pos)
					}
					pos += size + int(n)
				}
				if pos != len(x.Data) {
					t.Errorf("messages end at %d, the input at %d", pos, len(x.Data))
				}
			}
			if len(in[0].Data) > 128 {
				t.Errorf("the short reproducer is %d bytes, want at most 128", len(in[0].Data))
			}
		}},
		{"json", "deep-array", func(t *testing.T, _ []byte, in []Input) {
			if len(in) != 2 || bytes.Count(in[1].Data, []byte("[")) != 100_000 || bytes.Count(in[1].Data, []byte("]")) != 100_000 {
				t.Errorf("want 1,000 and 100,000 nested arrays with -quick")
			}
		}},
		{"bson", "deep-map", func(t *testing.T, _ []byte, in []Input) {
			if err := bson.Raw(in[0].Data).Validate(); err != nil {
				t.Errorf("1,000 nested documents are not valid BSON: %v", err)
			}
		}},
		{"msgpack", "huge-header", func(t *testing.T, _ []byte, in []Input) {
			// 5 bytes each: a map32, then an array32 header, of 2^32-1 entries.
			if len(in) != 2 || !bytes.Equal(in[0].Data, []byte{0xdf, 0xff, 0xff, 0xff, 0xff}) || !bytes.Equal(in[1].Data, []byte{0xdd, 0xff, 0xff, 0xff, 0xff}) {
				t.Errorf("want df ff ff ff ff and dd ff ff ff ff, got %d inputs", len(in))
			}
		}},
		{"gob", "recursive", func(t *testing.T, _ []byte, in []Input) {
			// struct{ N *Self } at each depth of the ladder, deeper each time.
			if len(in) != len(depths(true)) {
				t.Fatalf("%d inputs, want one per depth %v", len(in), depths(true))
			}
			for i := 1; i < len(in); i++ {
				if len(in[i].Data) <= len(in[i-1].Data) {
					t.Errorf("input %d (%d bytes) is no deeper than input %d (%d bytes)", i, len(in[i].Data), i-1, len(in[i-1].Data))
				}
			}
		}},
		{"yaml", "alias-bomb", func(t *testing.T, _ []byte, in []Input) {
			if len(in) != 1 || bytes.Count(in[0].Data, []byte("*")) != 8*9 {
				t.Errorf("want nine levels of nine aliases")
			}
		}},
	} {
		t.Run(tc.codec+"/"+tc.class, func(t *testing.T) {
			valid, in := gen(t, tc.codec, tc.class)
			if len(in) == 0 {
				t.Fatal("no inputs")
			}
			tc.check(t, valid, in)
		})
	}
}

// TestNotApplicable: a class that needs a framing the format does not
// have generates nothing.
func TestNotApplicable(t *testing.T) {
	for _, tc := range [][2]string{{"json", "long-string"}, {"json", "alias-bomb"}, {"xml", "deep-map"}, {"capnp", "deep-array"}} {
		if _, in := Inputs(lookup(t, tc[0]), tc[1], true); in != nil {
			t.Errorf("%s %s: %d inputs, want none", tc[0], tc[1], len(in))
		}
	}
}

// TestDecode: outcomes that cannot crash, decoded in this process.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		codec, class string
		want         Outcome
	}{
		{"json", "empty", Clean},
		{"json", "trailing", Clean},
		{"json", "huge-string", OK},
		{"json", "other-type", Changed},
		{"gob", "doubled", Accepted},
		{"cbor-limits", "long-array", Clean},
		{"cbor-limits", "deep-array", Clean},
	} {
		info := lookup(t, tc.codec)
		s, in := inputs(info, tc.class, true, nil)
		worst := NA
		for _, x := range in {
			o, _, _ := call(info, s, x)
			if o == decoded {
				o, _ = check(info, s, x)
			}
			if worse(o, worst) {
				worst = o
			}
		}
		if worst != tc.want {
			t.Errorf("%s %s: %s, want %s", tc.codec, tc.class, worst, tc.want)
		}
	}
}

func checkHuge(t *testing.T, in []Input, prefix []byte) {
	t.Helper()
	if len(in) != 2 || len(in[0].Data) >= len(in[1].Data) {
		t.Fatalf("want a short and a whole input, got %d", len(in))
	}
	for _, x := range in {
		if !bytes.Contains(x.Data, prefix) {
			t.Errorf("input lacks the huge prefix % x: % x", prefix, x.Data[:min(len(x.Data), 64)])
		}
	}
}

func checkRun(t *testing.T, valid []byte, in []Input, c byte) {
	t.Helper()
	for _, x := range in {
		if len(x.Data) != len(valid) {
			t.Fatal("length changed")
		}
		for i := range valid {
			if valid[i] != x.Data[i] && x.Data[i] != c {
				t.Fatalf("byte %d became %#x, want %#x", i, x.Data[i], c)
			}
		}
	}
}

func diffBits(a, b []byte) int {
	n := 0
	for i := range a {
		for x := a[i] ^ b[i]; x != 0; x &= x - 1 {
			n++
		}
	}
	return n
}

func diffBytes(a, b []byte) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}
