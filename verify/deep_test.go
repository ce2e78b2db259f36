package verify_test

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/verify"
)

// nestedArrays returns a msgpack encoding of n arrays, each holding the
// next, the innermost holding x: the hostile matrix's deep-array input.
func nestedArrays(n int, x byte) []byte {
	return append(bytes.Repeat([]byte{0x91}, n), x)
}

// nestedAny returns the value nestedArrays decodes to, built by hand.
func nestedAny(n int, x any) any {
	v := x
	for range n {
		v = []any{v}
	}
	return v
}

// Node is a list that may point back at itself.
type Node struct {
	V    int
	Next *Node
}

func chain(n int) *Node {
	var top *Node
	for i := n; i > 0; i-- {
		top = &Node{V: i, Next: top}
	}
	return top
}

// TestCompareDeep compares values nested far deeper than a recursive
// comparer's stack allows, with the goroutine stack capped at 1 MiB: a
// recursion of one frame per level would be a fatal stack overflow here.
func TestCompareDeep(t *testing.T) {
	const depth = 100_000
	var decoded, decodedOther any
	if err := msgpack.Unmarshal(nestedArrays(depth, 0x01), &decoded); err != nil {
		t.Fatal(err)
	}
	if err := msgpack.Unmarshal(nestedArrays(depth, 0x02), &decodedOther); err != nil {
		t.Fatal(err)
	}
	cyc := &Node{V: 1}
	cyc.Next = cyc
	cyc2 := &Node{V: 1}
	cyc2.Next = &Node{V: 1, Next: cyc2}
	long, longOther := chain(depth), chain(depth)
	last := longOther
	for last.Next != nil {
		last = last.Next
	}
	last.V = -1

	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	tests := []struct {
		name      string
		want, got any
		losses    []codec.Loss
		diff      string // "" for equal, else a substring of the MismatchError
	}{
		{"msgpack's decoding of 100,000 nested arrays, against the value built", &decoded, ptr(nestedAny(depth, int8(1))), nil, ""},
		{"the same, innermost element changed", &decoded, &decodedOther, nil, "[0][0][0][0]…(99988 steps)…[0][0][0][0][0][0][0][0]: -1 +2"},
		{"the same, the innermost number of another type, declared", ptr(nestedAny(depth, 1.0)), &decoded, []codec.Loss{{Kind: codec.InterfaceTypes}}, ""},
		{"a chain of 100,000 pointers", long, chain(depth), nil, ""},
		{"a chain of 100,000 pointers, the last changed", long, longOther, nil, ".V: -100000 +-1"},
		{"a cycle against the same cycle unrolled once", cyc, cyc2, nil, ""},
		{"a map nested 100,000 deep", nestedMap(depth, 1), nestedMap(depth, 1), nil, ""},
		{"a map nested 100,000 deep, changed", nestedMap(depth, 1), nestedMap(depth, 2), nil, `["k"]["k"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := verify.Compare(tt.want, tt.got, tt.losses)
			check(t, err, tt.diff)
		})
	}
}

func nestedMap(n int, x any) *map[string]any {
	m := map[string]any{"k": x}
	for range n {
		m = map[string]any{"k": m}
	}
	return &m
}

func ptr(v any) *any { return &v }

func check(t *testing.T, err error, diff string) {
	t.Helper()
	var mm *verify.MismatchError
	switch {
	case diff == "" && err != nil:
		t.Errorf("want equal, got %v", err)
	case diff != "" && !errors.As(err, &mm):
		t.Errorf("want a *MismatchError mentioning %q, got %v", diff, err)
	case diff != "" && !strings.Contains(mm.Diff, diff):
		t.Errorf("want a diff mentioning %q, got\n%s", diff, mm.Diff)
	}
}

// TestCompareStrict covers what Compare tells apart without a loss, and
// what each loss lets differ.
func TestCompareStrict(t *testing.T) {
	type (
		F    struct{ F float64 }
		B    struct{ N *big.Int }
		T    struct{ T time.Time }
		Priv struct{ v int } // no exported field: its state is all there is
		Mix  struct {
			A int
			b int
		}
	)
	at := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		ny = time.FixedZone("America/New_York", -4*3600) // no zone files: a named zone all the same
	}
	fixedNY := time.FixedZone("", -4*3600)
	loss := func(k codec.LossKind) []codec.Loss { return []codec.Loss{{Kind: k}} }
	prec := func(p time.Duration) []codec.Loss { return []codec.Loss{{Kind: codec.TimePrecision, Precision: p}} }
	tests := []struct {
		name      string
		want, got any
		losses    []codec.Loss
		diff      string
	}{
		{"NaN equals NaN", &F{math.NaN()}, &F{math.NaN()}, nil, ""},
		{"-0 is not 0", &F{math.Copysign(0, -1)}, &F{0}, nil, ".F: --0 +0"},
		{"big.Int by value", &B{big.NewInt(0)}, &B{new(big.Int).SetBytes(nil)}, nil, ""},
		{"big.Int changed", &B{big.NewInt(2)}, &B{big.NewInt(3)}, nil, ".N"},
		{"a struct of unexported state is compared", &Priv{1}, &Priv{2}, loss(codec.Unexported), ".v: -1 +2"},
		{"unexported beside exported, strict", &Mix{1, 1}, &Mix{1, 2}, nil, ".b: -1 +2"},
		{"unexported beside exported, dropped", &Mix{1, 1}, &Mix{1, 2}, loss(codec.Unexported), ""},
		{"truncated to the ms within 1ms", &T{at}, &T{at.Truncate(time.Millisecond)}, prec(time.Millisecond), ""},
		{"rounded to the µs within 1µs", &T{at}, &T{at.Round(time.Microsecond)}, prec(time.Microsecond), ""},
		{"rounded up to the next second is within 1s", &T{at.Add(900 * time.Millisecond)}, &T{at.Add(900 * time.Millisecond).Round(time.Second)}, prec(time.Second), ""},
		{"a whole second off is not within 1s", &T{at}, &T{at.Add(time.Second)}, prec(time.Second), ".T"},
		{"precision undeclared", &T{at}, &T{at.Truncate(time.Millisecond)}, nil, ".T"},
		{"zone name strict", &T{at.In(ny)}, &T{at.In(fixedNY)}, nil, ".T"},
		{"zone name lost, offset kept", &T{at.In(ny)}, &T{at.In(fixedNY)}, loss(codec.ZoneName), ""},
		{"offset lost without time-zone", &T{at.In(ny)}, &T{at}, loss(codec.ZoneName), ".T"},
		{"offset lost, time-zone declared", &T{at.In(ny)}, &T{at}, loss(codec.TimeZone), ""},
		{"monotonic strict", &T{time.Now()}, &T{}, nil, ".T"},
		{"bytes replaced per byte as text", &struct{ B []byte }{[]byte{0xff, 0xfe, 0, 1}}, &struct{ B []byte }{[]byte("\uFFFD\uFFFD\uFFFD\uFFFD")}, loss(codec.BinaryText), ""},
		{"bytes emptied are not text", &struct{ B []byte }{[]byte{0xff}}, &struct{ B []byte }{[]byte{}}, loss(codec.BinaryText), ".B"},
		{"string replaced as text", &struct{ S string }{"a\xffb"}, &struct{ S string }{"a\uFFFDb"}, loss(codec.BinaryText), ""},
		{"nil interface and empty list", &struct{ V any }{nil}, &struct{ V any }{[]any{}}, loss(codec.NilEmpty), ""},
		{"nil interface and empty list, strict", &struct{ V any }{nil}, &struct{ V any }{[]any{}}, nil, ".V"},
		{"map key missing", &map[string]int{"a": 1, "b": 2}, &map[string]int{"a": 1, "c": 2}, nil, `["b"]: -2 +(missing)`},
		{"map key extra", &map[string]int{"a": 1, "b": 2}, &map[string]int{"a": 1, "b": 2, "c": 3}, nil, `["c"]: -(missing) +3`},
		{"map key extra, in a field", &struct{ M map[string]int }{map[string]int{"a": 1}}, &struct{ M map[string]int }{map[string]int{"a": 1, "c": 3}}, nil, `.M["c"]: -(missing) +3`},
		{"slice element in a field", &struct{ S []string }{[]string{"a", "b"}}, &struct{ S []string }{[]string{"a", "c"}}, nil, `.S[1]: -"b" +"c"`},
		{"list of pairs as a map", &struct{ V any }{map[string]any{"k": 1}}, &struct{ V any }{[]struct {
			Key   string
			Value any
		}{{"k", int64(1)}}}, loss(codec.InterfaceTypes), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check(t, verify.Compare(tt.want, tt.got, tt.losses), tt.diff) })
	}
}

// TestCheckError: a failure of the check is its own error type, never a
// mismatch.
func TestCheckError(t *testing.T) {
	err := verify.Compare(&struct{}{}, &struct{}{}, []codec.Loss{{Kind: "no-such-loss"}})
	var ce *verify.CheckError
	var mm *verify.MismatchError
	if !errors.As(err, &ce) || errors.As(err, &mm) || !strings.Contains(err.Error(), "the check itself failed") {
		t.Errorf("unknown loss kind: %v (%T), want a *verify.CheckError", err, err)
	}
}

// TestEqualImplicit: Equal allows the implicit losses, Compare does not.
func TestEqualImplicit(t *testing.T) {
	type T struct {
		T time.Time
		n int
	}
	now := time.Now()
	want, got := &T{now, 1}, &T{now.Round(0).In(time.FixedZone("X", 0)), 2}
	if now.Location() != time.UTC {
		_, off := now.Zone()
		got.T = now.Round(0).In(time.FixedZone("X", off))
	}
	if err := verify.Equal(want, got, nil); err != nil {
		t.Errorf("Equal: %v", err)
	}
	if verify.Compare(want, got, nil) == nil {
		t.Error("Compare found no difference in the monotonic reading, the zone name and an unexported field")
	}
}
