package suggest

import (
	"fmt"
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	known := []string{"gob", "gob-stream", "json", "jsonv2", "msgpack", "msgp", "proto", "vtproto", "go-toml", "burntsushi-toml"}
	aliases := Aliases{}
	for _, fam := range [][2]string{{"protobuf", "proto"}, {"protobuf", "vtproto"}, {"toml", "go-toml"}, {"toml", "burntsushi-toml"}, {"encoding/json", "json"}} {
		aliases.Add(fam[0], fam[1])
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"jsn", []string{"json"}},
		{"jsno", []string{"json"}}, // two letters swapped: one edit
		{"gbo", []string{"gob"}},
		{"JSON", []string{"json"}},
		{"protobuf", []string{"proto", "vtproto"}}, // a family, and proto a prefix
		{"msgpck", []string{"msgpack", "msgp"}},    // one edit; msgp a prefix
		{"gobstream", []string{"gob-stream", "gob"}},
		{"Encoding/JSON", []string{"json"}}, // a label
		{"toml", []string{"go-toml", "burntsushi-toml"}},
		{"zzz", nil},
		{"x", nil},
	} {
		if got := closest(tc.name, known, aliases); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	short := []string{"single", "slice", "ptrslice"}
	var many []string
	for i := range maxListed + 1 {
		many = append(many, fmt.Sprint("shape", i))
	}
	if err := Check("shape", []string{"single", "slice"}, short, nil, ""); err != nil {
		t.Errorf("Check of known names = %v", err)
	}
	for _, tc := range []struct {
		names, known []string
		want         string
	}{
		{[]string{"single", "square", "slices", "square"}, short,
			`unknown shapes "square", "slices" (did you mean slice?); known: single, slice, ptrslice`},
		{[]string{"sngle"}, short, `unknown shape "sngle" (did you mean single?); known: single, slice, ptrslice`},
		{[]string{"x"}, many, `unknown shape "x"; run 'serbench list shapes' to see all 17`},
	} {
		err := Check("shape", tc.names, tc.known, nil, "serbench list shapes")
		if err == nil || err.Error() != tc.want {
			t.Errorf("Check(%q) = %v, want %s", tc.names, err, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"json", "json", 0}, {"jsn", "json", 1}, {"jsno", "json", 1}, {"sjon", "json", 1},
		{"msgpck", "msgpack", 1}, {"ca", "abc", 3}, {"gob", "", 3}, {"préset", "preset", 1},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := distance(tc.b, tc.a); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}
