package verify_test

import (
	"math"
	"math/rand/v2"
	"strconv"
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

// TestEqualIntegerFloat checks what codec.IntegerFloat lets differ: an
// integer held in an interface that comes back as the nearest float64
// (Twitter's ids through a JSON decoder into any), and nothing else: not
// another number, not an integer in a typed field, not without
// InterfaceTypes, which lets the Go type change.
func TestEqualIntegerFloat(t *testing.T) {
	type anyNum struct{ V any }
	type typed struct{ V int64 }
	both := []codec.Loss{{Kind: codec.InterfaceTypes}, {Kind: codec.IntegerFloat}}
	const id = 505874924095815700 // a tweet's id, beyond 2^53
	tests := []struct {
		name      string
		want, got any
		losses    []codec.Loss
		equal     bool
	}{
		{"beyond 2^53, the nearest float64", &anyNum{int64(id)}, &anyNum{float64(id)}, both, true},
		{"2^53+1 as 2^53", &anyNum{int64(1<<53 + 1)}, &anyNum{float64(1 << 53)}, both, true},
		{"negative, the nearest float64", &anyNum{int64(-1<<53 - 1)}, &anyNum{float64(-1 << 53)}, both, true},
		{"beyond int64, the nearest float64", &anyNum{uint64(math.MaxUint64)}, &anyNum{float64(math.MaxUint64)}, both, true},
		{"undeclared", &anyNum{int64(id)}, &anyNum{float64(id)}, both[:1], false},
		{"without InterfaceTypes", &anyNum{int64(id)}, &anyNum{float64(id)}, both[1:], false},
		{"another float64", &anyNum{int64(id)}, &anyNum{float64(id) + 128}, both, false},
		{"another integer", &anyNum{int64(id)}, &anyNum{int64(id + 1)}, both, false},
		{"a small integer, exact", &anyNum{int64(42)}, &anyNum{float64(42)}, both, true},
		{"a small integer, another", &anyNum{int64(42)}, &anyNum{float64(42.5)}, both, false},
		{"a float is not rounded", &anyNum{0.6046602879796196}, &anyNum{0.60466}, both, false},
		{"a typed field", &typed{id}, &typed{int64(float64(id))}, both, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := verify.Equal(tt.want, tt.got, tt.losses)
			if (err == nil) != tt.equal {
				t.Errorf("equal = %v, want %v (%v)", err == nil, tt.equal, err)
			}
		})
	}
}

// TestEqualFloatPrecision checks what codec.FloatPrecision lets differ:
// digits significant digits, or digits decimals below 0.1, and a float32
// read back from a rounded decimal; never NaN, an infinity, or an integer
// held in an interface.
func TestEqualFloatPrecision(t *testing.T) {
	type floats struct {
		F64 float64
		F32 float32
	}
	type anyNum struct{ V any }
	digits := func(d int) []codec.Loss { return []codec.Loss{{Kind: codec.FloatPrecision, Digits: d}} }
	full := float64(0.6046602879796196)
	tests := []struct {
		name      string
		want, got any
		losses    []codec.Loss
		equal     bool
	}{
		{"rounded, undeclared", &floats{full, 0.60466033}, &floats{0.60466, 0.60466033}, nil, false},
		{"6 decimals (jsoniter's ConfigFastest), 6 digits", &floats{full, 0.60466033}, &floats{0.60466, 0.60466}, digits(6), true},
		{"6 decimals, 7 digits asked", &floats{full, 0.60466033}, &floats{0.60466, 0.60466033}, digits(7), false},
		{"6 significant digits above 1", &floats{6046.602879796196, 1}, &floats{6046.60, 1}, digits(6), true},
		{"off in the 6th significant digit", &floats{6046.602879796196, 1}, &floats{6046.61, 1}, digits(6), false},
		{"15 significant digits", &floats{full, 1}, &floats{0.604660287979620, 1}, digits(15), true},
		{"15 significant digits, 16 declared", &floats{full, 1}, &floats{0.604660287979620, 1}, digits(16), false},
		{"below 0.1: decimals", &floats{1.234567e-5, 1}, &floats{0.000012, 1}, digits(6), true},
		{"below half a unit of the last decimal: 0", &floats{5e-324, 1.4e-45}, &floats{0, 0}, digits(6), true},
		{"float64 narrowed to float32", &floats{full, 1}, &floats{float64(float32(full)), 1}, digits(7), true},
		{"float64 narrowed to float32, 8 digits declared", &floats{full, 1}, &floats{float64(float32(full)), 1}, digits(8), false},
		{"the fewest digits declared count", &floats{full, 1}, &floats{0.605, 1}, append(digits(15), digits(3)...), true},
		{"another number", &floats{full, 1}, &floats{0.7, 1}, digits(1), false},
		{"large and exact", &floats{math.MaxFloat64, math.MaxFloat32}, &floats{math.MaxFloat64, math.MaxFloat32}, digits(6), true},
		{"the largest, not infinite", &floats{math.MaxFloat64, 1}, &floats{math.Inf(1), 1}, digits(1), false},
		{"-0 keeps its sign", &floats{math.Copysign(0, -1), 1}, &floats{0, 1}, digits(1), false},
		{"NaN stays NaN", &floats{math.NaN(), 1}, &floats{0, 1}, digits(1), false},
		{"an integer in an interface", &anyNum{int64(1<<53 + 1)}, &anyNum{float64(1 << 53)}, append(digits(6), codec.Loss{Kind: codec.InterfaceTypes}), false},
		{"a float in an interface", &anyNum{full}, &anyNum{0.60466}, append(digits(6), codec.Loss{Kind: codec.InterfaceTypes}), true},
		{"a float in an interface, undeclared", &anyNum{full}, &anyNum{0.60466}, []codec.Loss{{Kind: codec.InterfaceTypes}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := verify.Equal(tt.want, tt.got, tt.losses)
			if (err == nil) != tt.equal {
				t.Errorf("equal = %v, want %v (%v)", err == nil, tt.equal, err)
			}
		})
	}
	if err := verify.Equal(&floats{}, &floats{}, []codec.Loss{{Kind: codec.FloatPrecision}}); err == nil || !strings.Contains(err.Error(), "needs Digits") {
		t.Errorf("a float-precision loss without Digits: %v", err)
	}
}

// TestFloatPrecisionRounding checks FloatPrecision against the roundings
// it stands for, over floats of every magnitude: a float written with d
// significant digits, or with d decimals, and read back into a float64 or
// a float32, compares equal under d digits; two units off in the 6th
// digit does not under 6.
func TestFloatPrecisionRounding(t *testing.T) {
	type f64 struct{ F float64 }
	type f32 struct{ F float32 }
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		x := r.Float64() * math.Pow(10, float64(r.IntN(40)-20))
		for d := 1; d <= codec.MaxDigits; d++ {
			loss := []codec.Loss{{Kind: codec.FloatPrecision, Digits: d}}
			sig, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', d, 64), 64)
			if err := verify.Equal(&f64{x}, &f64{sig}, loss); err != nil {
				t.Fatalf("%v written with %d significant digits (%v): %v", x, d, sig, err)
			}
			if x < 1e6 { // as jsoniter's ConfigFastest writes: d decimals
				dec, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64)
				if err := verify.Equal(&f64{x}, &f64{dec}, loss); err != nil {
					t.Fatalf("%v written with %d decimals (%v): %v", x, d, dec, err)
				}
			}
			if d <= 7 {
				x32 := float32(x)
				s32, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x32), 'g', d, 32), 32)
				if err := verify.Equal(&f32{x32}, &f32{float32(s32)}, loss); err != nil {
					t.Fatalf("float32 %v written with %d significant digits (%v): %v", x32, d, s32, err)
				}
			}
		}
		// One digit off in the last place kept is beyond the loss.
		d := 6
		next, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', d-1, 64), 64)
		off := next + 2*math.Pow(10, math.Floor(math.Log10(math.Abs(x)))-float64(d)+1)
		if x >= 0.1 && verify.Equal(&f64{x}, &f64{off}, []codec.Loss{{Kind: codec.FloatPrecision, Digits: d}}) == nil {
			t.Fatalf("%v and %v, two units apart in the 6th digit, compare equal under 6 digits", x, off)
		}
	}
}
