package hostile

import (
	"context"
	"slices"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/study"
)

// fakeCase is a codec.Case whose Decode allocates heap bytes and recurses
// depth levels of a stack-heavy frame, and whose Value panics when told.
type fakeCase struct {
	heap, depth int
	valuePanics bool
	keep        []byte
}

func (c *fakeCase) Encode() ([]byte, error) { return []byte{1}, nil }

func (c *fakeCase) Decode([]byte) error {
	c.keep = make([]byte, c.heap)
	deep(c.depth)
	return nil
}

func (c *fakeCase) Value() (any, error) {
	if c.valuePanics {
		panic("conversion")
	}
	return c.keep[:0], nil
}

// deep recurses n levels, each with a frame of over 1 KiB.
//
//go:noinline
func deep(n int) byte {
	var pad [1024]byte
	pad[n%len(pad)] = byte(n)
	if n == 0 {
		return pad[0]
	}
	return deep(n-1) + pad[n%len(pad)]
}

// TestMemoryLine: the memory line judges the heap a decoder allocated,
// not the stack it grew, whose count (StackInuse) follows when the
// collector ran: 48 MiB on the heap and a 32 MiB stack for a 1-byte
// input is no blow-up (with the stack counted it was, in some runs); 80
// MiB on the heap is one.
func TestMemoryLine(t *testing.T) {
	for _, tc := range []struct {
		heap, depth int
		want        Outcome
	}{
		{48 << 20, 20_000, decoded},
		{80 << 20, 0, Memory},
	} {
		s := &seed{c: &fakeCase{heap: tc.heap, depth: tc.depth}}
		if o, detail, alloc := call(codec.Info{Name: "fake"}, s, Input{Data: []byte{1}}); o != tc.want {
			t.Errorf("heap %d MiB, depth %d: %s (%s, %d bytes), want %s", tc.heap>>20, tc.depth, o, detail, alloc, tc.want)
		}
	}
	for _, tc := range []struct {
		alloc uint64
		size  int
		want  bool
	}{
		{memoryFloor, 1, false},
		{memoryFloor + 1, 1, true},
		{100_000_000, 100_000, false},
		{100_000_001, 100_000, true},
	} {
		if got := blowUp(tc.alloc, tc.size); got != tc.want {
			t.Errorf("blowUp(%d, %d) = %v, want %v", tc.alloc, tc.size, got, tc.want)
		}
	}
}

// TestRecursiveDecoded: goavro decodes the recursive class's 100,000
// levels with some 64 MiB of heap for 100,000 bytes, under the 1,000x
// line: the input decodes; serbench's conversion of the value (its Value,
// which converts) is check's. With its stack's growth counted it was
// judged a blow-up in some runs, and in the others the conversion's stack
// overflow was blamed on the library.
func TestRecursiveDecoded(t *testing.T) {
	info := lookup(t, "goavro")
	s, in := inputs(info, "recursive", true, nil)
	if len(in) != 2 || len(in[1].Data) != 100_000 {
		t.Fatalf("goavro recursive: %d inputs, want 2, the second 100,000 bytes", len(in))
	}
	o, detail, alloc := call(info, s, in[1])
	if o != decoded || s.got != nil {
		t.Errorf("goavro recursive, 100,000 levels: %s (%s, %d bytes), value taken %v; want decoded, the value not yet taken", o, detail, alloc, s.got != nil)
	}
	// A child the check of input 1 killed is followed by one that checks
	// input 0 only: the cell says what input 0 decoded to.
	task := study.Task{Codec: info, Case: "recursive", Input: mustJSON(t, cellTask{Quick: true, Replay: -1, Unchecked: []int{1}})}
	var steps []string
	got, err := runCell(context.Background(), task, func(s string) { steps = append(steps, s) })
	if err != nil {
		t.Fatal(err)
	}
	out := got.(cellOut)
	if out.Outcome != Changed || out.Counts[CheckFailed] != 1 || out.Worst != 0 || slices.Contains(steps, checkStep+"1") {
		t.Errorf("goavro recursive, input 1 unchecked: %+v, steps %q; want changed (input 0), 1 check-failed, no check of input 1", out, steps)
	}
}

// TestConversionIsChecks: a converting codec's Value (ValueConverts) runs
// in check, whose failure is serbench's (CheckFailed); another codec's
// Value is the library's, in call.
func TestConversionIsChecks(t *testing.T) {
	in := Input{Data: []byte{1}}
	conv := codec.Info{Name: "fake", ValueConverts: true}
	s := &seed{c: &fakeCase{valuePanics: true}}
	if o, detail, _ := call(conv, s, in); o != decoded {
		t.Fatalf("converting codec: call said %s (%s), want decoded", o, detail)
	}
	if o, detail := check(conv, s, in); o != CheckFailed {
		t.Errorf("converting codec: check said %s (%s), want %s", o, detail, CheckFailed)
	}
	if o, detail, _ := call(codec.Info{Name: "fake"}, s, in); o != Panic {
		t.Errorf("codec whose Value is its own: call said %s (%s), want %s", o, detail, Panic)
	}
}
