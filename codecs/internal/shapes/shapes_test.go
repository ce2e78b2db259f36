package shapes_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/shapes"
)

type point struct{ X int }

type label struct{ S string }

var table = shapes.Table[string]{
	Types: []shapes.Type[string]{
		shapes.All(
			func(*point) string { return "point" },
			func(*[]point) string { return "points" },
			func(*[]*point) string { return "point pointers" }),
		shapes.Single(func(*label) string { return "label" }),
	},
	Missing: "the test schema has no message for it",
}

func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{&point{}, "point"},
		{&[]point{}, "points"},
		{&[]*point{}, "point pointers"},
		{&label{}, "label"},
	} {
		got, err := table.Build(tc.v)
		if err != nil || got != tc.want {
			t.Errorf("Build(%T) = %q, %v; want %q", tc.v, got, err, tc.want)
		}
	}
	// label has the single shape only; int64 has no message at all.
	for _, v := range []any{&[]label{}, &[]*label{}, new(int64)} {
		if _, err := table.Build(v); !codec.IsUnsupported(err) {
			t.Errorf("Build(%T) = %v, want an UnsupportedError", v, err)
		}
	}
	want := (&codec.UnsupportedError{Type: "*int64", Reason: table.Missing}).Error()
	if _, err := table.Build(new(int64)); err == nil || err.Error() != want {
		t.Errorf("Build(*int64) = %v, want %q", err, want)
	}
	// A value that is not a pointer is a misuse, not an unsupported type.
	if _, err := table.Build(point{}); err == nil || codec.IsUnsupported(err) {
		t.Errorf("Build(point{}) = %v, want codec.PointerElem's error", err)
	}
}
