package runner

import (
	"bytes"
	"testing"

	"github.com/serbench/serbench/compress"
)

// TestCompressed checks a job's compressed figures: one per compressor,
// in compress.All's order, each the size that compressor makes, with a
// time for each direction.
func TestCompressed(t *testing.T) {
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	msg := bytes.Repeat([]byte(`{"id":7,"name":"a name","email":"someone@example.com"}`), 40)
	got, err := r.compressed([][]byte{msg})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(compress.All) {
		t.Fatalf("%d figures, want one per compressor (%d)", len(got), len(compress.All))
	}
	for i, a := range compress.All {
		c, _ := a.New()
		comp, _ := compress.RoundTrip(c, msg)
		g := got[i]
		if g.Algo != a.Name || g.Bytes != len(comp) || g.Bytes >= len(msg) || g.CompressNs <= 0 || g.DecompressNs <= 0 {
			t.Errorf("figure %d: %+v; want %s, %d bytes and both times", i, g, a.Name, len(comp))
		}
	}
}
