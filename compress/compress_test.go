package compress

import (
	"bytes"
	"strings"
	"testing"
)

// TestRoundTrip gives every compressor repetitive, random-looking and
// empty messages, twice each through one Compressor (its state carried
// over), and checks the bytes come back; repetitive text must shrink.
func TestRoundTrip(t *testing.T) {
	noise := make([]byte, 4096)
	x := uint32(1)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	msgs := map[string][]byte{
		"text":  []byte(strings.Repeat(`{"id":1,"name":"serbench","email":"a@b.c"}`, 200)),
		"noise": noise,
		"empty": {},
		"byte":  {7},
	}
	for _, a := range All {
		c, err := a.New()
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		for name, msg := range msgs {
			for round := range 2 {
				comp, err := RoundTrip(c, msg)
				if err != nil {
					t.Fatalf("%s on %s, round %d: %v", a.Name, name, round, err)
				}
				if name == "text" && len(comp) >= len(msg)/4 {
					t.Errorf("%s made %d bytes of %d repetitive ones", a.Name, len(comp), len(msg))
				}
			}
		}
	}
}

// TestDecompressReusesDst checks Decompress writes into dst rather than
// an alias of src.
func TestDecompressReusesDst(t *testing.T) {
	msg := bytes.Repeat([]byte("abcdef"), 100)
	for _, a := range All {
		c, _ := a.New()
		comp, _ := c.Compress(nil, msg)
		comp = bytes.Clone(comp)
		dst := make([]byte, 0, 1024)
		back, err := c.Decompress(dst, comp)
		if err != nil || !bytes.Equal(back, msg) {
			t.Errorf("%s: %v, %d bytes back", a.Name, err, len(back))
		}
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("zstd-3"); err != nil {
		t.Error(err)
	}
	if _, err := Lookup("zstd-9"); err == nil || !strings.Contains(err.Error(), "gzip-6") {
		t.Errorf("Lookup(zstd-9) = %v, want an error naming the known ones", err)
	}
}
