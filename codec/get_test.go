package codec_test

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/codec"
)

// TestParsePath checks that paths read and write back, digits as slice
// indices, and that empty steps are refused.
func TestParsePath(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want codec.Path
		err  bool
	}{
		{"the_biggest_slice.999.big_id", codec.Path{{Field: "the_biggest_slice"}, {Index: 999}, {Field: "big_id"}}, false},
		{"count", codec.Path{{Field: "count"}}, false},
		{"", nil, true},
		{"a..b", nil, true},
	} {
		p, err := codec.ParsePath(tc.in)
		if (err != nil) != tc.err || !slices.Equal(p, tc.want) {
			t.Errorf("ParsePath(%q) = %v, %v; want %v (error %v)", tc.in, p, err, tc.want, tc.err)
			continue
		}
		if err == nil && (p.String() != tc.in || slices.Compare(p.Keys(), []string{}) == 0) {
			t.Errorf("ParsePath(%q).String() = %q, Keys %q", tc.in, p.String(), p.Keys())
		}
	}
}
