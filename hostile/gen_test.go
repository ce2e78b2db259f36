package hostile

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// genCodecs are codecs whose encodings of a map follow Go's map iteration
// order, which differs from one process to the next, and others.
var genCodecs = []string{"msgpack", "cbor", "gob", "bson", "proto", "avro", "json", "yaml"}

// generation returns one line per input of every class for genCodecs: its
// codec, class, index and SHA-256.
func generation(t *testing.T) string {
	var b strings.Builder
	for _, name := range genCodecs {
		info := lookup(t, name)
		for _, class := range ClassNames() {
			_, in := Inputs(info, class, true)
			for i, x := range in {
				fmt.Fprintf(&b, "%s %s %d %x\n", name, class, i, sha256.Sum256(x.Data))
			}
		}
	}
	return b.String()
}

// TestGenerationHelper prints the generation when run as a child of
// TestGenerationAcrossProcesses.
func TestGenerationHelper(t *testing.T) {
	if os.Getenv("SERBENCH_HOSTILE_GENERATION") != "1" {
		t.Skip("a helper of TestGenerationAcrossProcesses")
	}
	fmt.Print(generation(t))
}

// TestGenerationAcrossProcesses: another process (this test binary run
// again) generates every input byte for byte as this one does, although
// the codecs' encodings of a map differ between the two processes.
func TestGenerationAcrossProcesses(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestGenerationHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SERBENCH_HOSTILE_GENERATION=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the child: %v", err)
	}
	got, want := strings.TrimSuffix(string(out), "PASS\n"), generation(t)
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("the child generated %d lines, this process %d; first difference, line %d:\n child %s\n here  %s", len(gl), len(wl), i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("the child generated %d lines, this process %d", len(gl), len(wl))
	}
	if n := strings.Count(want, "\n"); n < 400 {
		t.Errorf("%d inputs generated, want over 400", n)
	}
}

// TestCanonical: the canonical encoding of a codec that writes maps in
// iteration order is the least of its encodings, the same on every call.
func TestCanonical(t *testing.T) {
	info := lookup(t, "msgpack")
	a := newSeed(info, seedMap, true, true)
	for range 3 {
		if b := newSeed(info, seedMap, true, true); !bytes.Equal(a.valid, b.valid) {
			t.Fatalf("two canonical encodings differ:\n% x\n% x", a.valid, b.valid)
		}
	}
	for range 50 {
		enc, err := a.c.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Compare(enc, a.valid) < 0 {
			t.Fatalf("an encoding less than the canonical one: % x", enc)
		}
	}
}

// TestNoOpMutation: a mutation class never gives the valid encoding
// itself, nor an input equal to it (a byte written over itself).
func TestNoOpMutation(t *testing.T) {
	for _, name := range []string{"msgpack", "binary", "ssz", "yaml", "json"} {
		info := lookup(t, name)
		for _, class := range []string{"bitflip", "byte-replace", "zero-run", "ff-run"} {
			s, in := inputs(info, class, false, nil)
			if s == nil {
				continue
			}
			for i, x := range in {
				if bytes.Equal(x.Data, s.valid) {
					t.Errorf("%s %s: input %d is the valid encoding", name, class, i)
				}
			}
		}
	}
}

// TestFuzzCorpus: a go test fuzz v1 file gives its bytes, and a failing
// seed in go test -fuzz's output gives that seed of FuzzSeeds.
func TestFuzzCorpus(t *testing.T) {
	b, err := corpusEntry([]byte("go test fuzz v1\n[]byte(\"\\xdf\\xff\\xff\\xff\\xff\")\n"))
	if err != nil || !bytes.Equal(b, []byte{0xdf, 0xff, 0xff, 0xff, 0xff}) {
		t.Errorf("corpusEntry = % x, %v", b, err)
	}
	if _, err := corpusEntry([]byte("go test fuzz v1\nstring(\"a\")\n")); err == nil {
		t.Error("a string entry was read as bytes")
	}
	seed, ok := failedSeed([]byte("failure while testing seed corpus entry: FuzzDecode/seed#0\n--- FAIL"), "json")
	if !ok || seed.Name != "fuzz/seed#0" || !bytes.Equal(seed.Data, FuzzSeeds(lookup(t, "json"))[0]) {
		t.Errorf("failedSeed = %q, %v", seed.Name, ok)
	}
}
