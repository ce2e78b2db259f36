package mirror

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type srcInner struct {
	N int64
	S *string
}

type src struct {
	I     int
	U     uint64
	T     time.Time
	B     []byte
	Nil   []int32
	Empty []int32
	P     *srcInner
	NilP  *srcInner
	M     map[string]*srcInner
	NilM  map[string]int
}

type myInt int64

type dstInner struct {
	S *string
	N myInt // another order and a named type
}

type dst struct {
	I     int
	U     uint64
	T     time.Time
	B     []byte
	Nil   []int32
	Empty []int32
	P     *dstInner
	NilP  *dstInner
	M     map[string]*dstInner
	NilM  map[string]int
}

func TestCopyRoundTrip(t *testing.T) {
	s := "x"
	in := src{
		I: -1, U: 1 << 63, T: time.Date(2023, 4, 4, 12, 30, 45, 123456789, time.FixedZone("", 3600)),
		B: []byte{0, 0xff}, Empty: []int32{}, P: &srcInner{N: 7, S: &s},
		M: map[string]*srcInner{"a": {N: 1}, "nil": nil},
	}
	var mid dst
	if err := Copy(&mid, &in); err != nil {
		t.Fatal(err)
	}
	var out src
	if err := Copy(&out, &mid); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, out); d != "" {
		t.Fatalf("round trip through the mirror changed the value (-in +out):\n%s", d)
	}
	if out.Nil != nil || out.Empty == nil || out.NilM != nil {
		t.Errorf("nil and empty not kept apart: Nil=%#v Empty=%#v NilM=%#v", out.Nil, out.Empty, out.NilM)
	}
	mid.B[0] = 1
	if in.B[0] != 0 {
		t.Error("Copy shares a slice's backing array with its source")
	}
}

func TestCopyRefusesMismatches(t *testing.T) {
	type a struct{ X, Y int }
	type b struct{ X int }
	type c struct{ X, Z int }
	type d struct{ X, Y string }
	tests := []struct {
		name string
		copy func() error
		want string
	}{
		{"missing field", func() error { return Copy(&b{}, &a{}) }, "has 2 fields"},
		{"renamed field", func() error { return Copy(&c{}, &a{}) }, "has no field Y"},
		{"other kind", func() error { return Copy(&d{}, &a{}) }, "mirror: mirror.a.X: cannot copy a int into a string"},
		{"nested path", func() error {
			return Copy(&map[string][]d{}, &map[string][]a{"k": {{}}})
		}, "map[string][]mirror.a[k][0].X:"},
	}
	for _, tt := range tests {
		err := tt.copy()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}
