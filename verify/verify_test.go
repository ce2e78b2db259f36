package verify_test

import (
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/verify"
)

type rec struct {
	N     int
	S     []int
	M     map[string]int
	P     *int
	T     time.Time
	B     []byte
	inner int // unexported: never encoded, never compared
}

func TestEqual(t *testing.T) {
	at := time.Date(2023, 4, 4, 12, 30, 45, 123456789, time.UTC)
	zero := 0
	base := func() *rec {
		return &rec{N: 1, S: []int{}, M: map[string]int{}, P: &zero, T: at, B: []byte{0xff}, inner: 1}
	}
	with := func(f func(*rec)) *rec { r := base(); f(r); return r }
	tests := []struct {
		name   string
		got    *rec
		losses []codec.Loss
		want   string // "" for equal, else a substring of the error
	}{
		{"identical", base(), nil, ""},
		{"unexported field ignored", with(func(r *rec) { r.inner = 2 }), nil, ""},
		{"changed field", with(func(r *rec) { r.N = 2 }), nil, "N:"},
		{"empty slice became nil", with(func(r *rec) { r.S = nil }), nil, "S:"},
		{"empty slice became nil, declared", with(func(r *rec) { r.S, r.M = nil, nil }), []codec.Loss{{Kind: codec.NilEmpty}}, ""},
		{"zero pointer became nil", with(func(r *rec) { r.P = nil }), nil, "P:"},
		{"zero pointer became nil, declared", with(func(r *rec) { r.P = nil }), []codec.Loss{{Kind: codec.NilPointerZero}}, ""},
		{"seconds only", with(func(r *rec) { r.T = at.Truncate(time.Second) }), nil, "T:"},
		{"seconds only, declared", with(func(r *rec) { r.T = at.Truncate(time.Second) }), []codec.Loss{{Kind: codec.TimePrecision, Precision: time.Second}}, ""},
		{"milliseconds kept but seconds declared", with(func(r *rec) { r.T = at.Truncate(time.Millisecond) }), []codec.Loss{{Kind: codec.TimePrecision, Precision: time.Second}}, ""},
		{"rounded to the microsecond, declared", with(func(r *rec) { r.T = at.Round(time.Microsecond) }), []codec.Loss{{Kind: codec.TimePrecision, Precision: time.Microsecond}}, ""},
		{"rounded to the microsecond, undeclared", with(func(r *rec) { r.T = at.Round(time.Microsecond) }), nil, "T:"},
		{"other instant", with(func(r *rec) { r.T = at.Add(time.Hour) }), []codec.Loss{{Kind: codec.TimePrecision, Precision: time.Second}, {Kind: codec.TimeZone}}, "T:"},
		{"same instant, other offset", with(func(r *rec) { r.T = at.In(time.FixedZone("", 3600)) }), nil, "T:"},
		{"same instant, other offset, declared", with(func(r *rec) { r.T = at.In(time.FixedZone("", 3600)) }), []codec.Loss{{Kind: codec.TimeZone}}, ""},
		{"zone name differs, offset kept", with(func(r *rec) { r.T = at.In(time.FixedZone("UTC", 0)) }), nil, ""},
		{"bytes as text", with(func(r *rec) { r.B = []byte("\uFFFD") }), nil, "B:"},
		{"bytes as text, declared", with(func(r *rec) { r.B = []byte("\uFFFD") }), []codec.Loss{{Kind: codec.BinaryText}}, ""},
		{"declared loss hides nothing else", with(func(r *rec) { r.S, r.N = nil, 9 }), []codec.Loss{{Kind: codec.NilEmpty}}, "N:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := verify.Equal(base(), tt.got, tt.losses)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("want equal, got %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("want an error mentioning %q, got %v", tt.want, err)
			}
		})
	}
}

func TestEqualTypes(t *testing.T) {
	err := verify.Equal(&[]int{1}, &[]int64{1}, nil)
	if err == nil || !strings.Contains(err.Error(), "want *[]int, got *[]int64") {
		t.Errorf("Equal of different types = %v", err)
	}
}

func TestEqualInterfaceTypes(t *testing.T) {
	type pair struct {
		Key   string
		Value any
	}
	want := &map[string]any{"n": float64(5), "f": 1.5, "l": []any{float64(1), "a", nil}, "m": map[string]any{"k": true}, "e": map[string]any{}}
	loss := []codec.Loss{{Kind: codec.InterfaceTypes}}
	tests := []struct {
		name string
		got  *map[string]any
		want string // "" for equal, else a substring of the error
	}{
		{"numbers of other types", &map[string]any{"n": int64(5), "f": 1.5, "l": []any{uint8(1), "a", nil}, "m": map[string]any{"k": true}, "e": map[string]any{}}, ""},
		{"maps of other key types and lists of pairs", &map[string]any{"n": 5, "f": 1.5, "l": []any{1, "a", nil}, "m": []pair{{"k", true}}, "e": map[any]any{}}, ""},
		{"another number", &map[string]any{"n": 6, "f": 1.5, "l": []any{1, "a", nil}, "m": map[string]any{"k": true}, "e": map[string]any{}}, `"n"`},
		{"a number as a string", &map[string]any{"n": "5", "f": 1.5, "l": []any{1, "a", nil}, "m": map[string]any{"k": true}, "e": map[string]any{}}, `"n"`},
		{"a fraction lost", &map[string]any{"n": 5, "f": 1, "l": []any{1, "a", nil}, "m": map[string]any{"k": true}, "e": map[string]any{}}, `"f"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := verify.Equal(want, tt.got, loss)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("want equal, got %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("want an error mentioning %q, got %v", tt.want, err)
			}
		})
	}
	if err := verify.Equal(want, &map[string]any{"n": int64(5), "f": 1.5, "l": []any{1, "a", nil}, "m": map[string]any{"k": true}, "e": map[string]any{}}, nil); err == nil {
		t.Error("numbers of other types compared equal without the loss declared")
	}
}
