package clone_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/serbench/serbench/internal/clone"
)

type inner struct {
	N int
	S string
}

type value struct {
	B       bool
	I       int
	I8      int8
	U       uint64
	F       float64
	S       string
	Bytes   []byte
	T       time.Time
	P       *inner
	Shared  *inner
	Nil     *inner
	List    []inner
	Arr     [2]int
	M       map[string]*inner
	Any     any
	Empty   []int
	private []int
}

func sample() *value {
	in := &inner{N: 1, S: "a"}
	return &value{
		B: true, I: 7, I8: 127, U: 9, F: 1.5, S: "héllo", Bytes: []byte{0xff, 'x'},
		T: time.Date(2024, 1, 2, 3, 4, 5, 6, time.FixedZone("", 3600)),
		P: in, Shared: in, List: []inner{{2, "b"}, {3, "z"}}, Arr: [2]int{4, 5},
		M:   map[string]*inner{"k": {6, "Z9"}},
		Any: map[string]any{"n": 1.0, "l": []any{"x", nil}}, Empty: []int{}, private: []int{1},
	}
}

func TestDeep(t *testing.T) {
	v := sample()
	c := clone.Deep(v).(*value)
	if !reflect.DeepEqual(v, c) {
		t.Fatalf("Deep(v) differs from v:\n%+v\n%+v", v, c)
	}
	if c == v || c.P == v.P || &c.List[0] == &v.List[0] || &c.Bytes[0] == &v.Bytes[0] || c.M["k"] == v.M["k"] {
		t.Error("Deep(v) shares memory with v")
	}
	if c.P != c.Shared {
		t.Error("Deep(v) split two pointers to one value")
	}
	if c.Empty == nil || c.Nil != nil {
		t.Error("Deep(v) lost the difference between nil and empty")
	}
	c.Any.(map[string]any)["l"].([]any)[0] = "changed"
	if v.Any.(map[string]any)["l"].([]any)[0] != "x" {
		t.Error("Deep(v) shares an interface's content with v")
	}
	if got := clone.Deep(inner{1, "a"}); got != (inner{1, "a"}) {
		t.Errorf("Deep of a struct value = %v", got)
	}
}

func TestVaried(t *testing.T) {
	v := sample()
	c := clone.Varied(v).(*value)
	want := sample()
	if !reflect.DeepEqual(v, want) {
		t.Fatal("Varied changed its argument")
	}
	checks := []struct {
		name string
		same bool
	}{
		{"B", c.B == v.B}, {"I", c.I == v.I}, {"I8 at its maximum", c.I8 != 126}, {"U", c.U == v.U}, {"F", c.F == v.F},
		{"S", c.S != "iéllo"}, {"Bytes", string(c.Bytes) != "\xffy"}, {"T", !c.T.Equal(v.T.Add(time.Hour))},
		{"P", c.P.N == v.P.N || c.P.S != "b"}, {"List", c.List[1].S != "a" || c.List[0].N != 3}, {"Arr", c.Arr != [2]int{5, 6}},
		{"M", c.M["k"].S != "A9"}, {"Any", c.Any.(map[string]any)["n"] != 2.0 || c.Any.(map[string]any)["l"].([]any)[0] != "y"},
		{"nil kept", c.Nil != nil || c.Any.(map[string]any)["l"].([]any)[1] != nil}, {"empty kept", c.Empty == nil || len(c.Empty) != 0},
		{"shared kept", c.P != c.Shared},
	}
	for _, ch := range checks {
		if ch.same {
			t.Errorf("%s: not varied as documented: %+v", ch.name, c)
		}
	}
	if got := clone.Varied(&[]string{"*!", "ü-"}); !reflect.DeepEqual(got, &[]string{"!*", "-ü"}) {
		t.Errorf("Varied of strings without letters or digits = %q", *got.(*[]string))
	}
	if got := clone.Varied(&struct{}{}); !reflect.DeepEqual(got, &struct{}{}) {
		t.Errorf("Varied of an empty struct = %v", got)
	}
}

type node struct {
	N    int
	Next *node
}

func TestCycle(t *testing.T) {
	n := &node{N: 1}
	n.Next = n
	c := clone.Varied(n).(*node)
	if c == n || c.Next != c || c.N != 2 {
		t.Errorf("Varied of a cycle = %+v", c)
	}
}
