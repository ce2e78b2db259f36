package fidelity

import (
	"math"
	"math/big"
	"strings"
	"time"
	_ "time/tzdata" // the named-zone probe works without the system's zone files

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/suggest"
)

// A Kind says how a probe exercises a codec.
type Kind string

// The kinds of probe.
const (
	// RoundTrip encodes the value, decodes it into a new value of its
	// type and compares the two.
	RoundTrip Kind = "round-trip"
	// Reuse decodes into Target, a value already holding other data, as
	// a codec.Into, and compares the result with the value.
	Reuse Kind = "reuse"
	// DecodeAs decodes the encoding of the value into a value of another
	// type, As, and compares the result with Want.
	DecodeAs Kind = "decode-as"
	// Forward runs a codec.Forwarder: a field unknown to the reader's
	// schema, decoded, encoded again and read back.
	Forward Kind = "forward"
)

// A Probe is one small typed value that shows one thing a round trip may
// keep or change.
type Probe struct {
	// Name is short, lowercase, without spaces or commas.
	Name string
	// Group gathers probes on one subject: "time", "nil", "map", ...
	Group string
	// Doc says in one line what the probe holds and why.
	Doc  string
	Kind Kind
	// Value returns a new pointer to the probed value.
	Value func() any
	// Target returns the non-zero value a Reuse probe decodes into.
	Target func() any
	// As returns a new pointer to the zero value a DecodeAs probe decodes
	// into; Want, the value it should then hold.
	As, Want func() any
	// Discard is the Forward probe's discard argument.
	Discard bool
	// Check, if set, says what the decoded value lost that comparing
	// values cannot see (aliasing), or "".
	Check func(got any) string
	// Decides is the feature whose support this probe decides: the
	// value carries it in its most ordinary form (see Derive).
	Decides codec.Features
	// Shows is the loss this probe shows (see Derive).
	Shows codec.LossKind
	// Heavy marks probes that may crash or take long (a cycle, deep
	// nesting, a megabyte): they run only in a child process.
	Heavy bool
}

// Probes is the catalogue, in display order.
var Probes = []Probe{
	// time
	{Name: "time-utc", Group: "time", Doc: "a UTC time in whole seconds", Decides: codec.Time,
		Value: ptr(Time{time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)})},
	{Name: "time-nanos", Group: "time", Doc: "a UTC time with nanoseconds (.123456789)", Shows: codec.TimePrecision,
		Value: ptr(Time{time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)})},
	// Two offsets, so that a codec that decodes times into time.Local
	// shows the loss in every zone: Local has one offset at an instant.
	{Name: "time-offset", Group: "time", Doc: "two times with nanoseconds at fixed non-UTC offsets, +05:30 and -03:00", Shows: codec.TimeZone,
		Value: ptr(Times{time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.FixedZone("", 5*3600+1800)), time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.FixedZone("", -3*3600))})},
	{Name: "time-zone", Group: "time", Doc: "a time in a named zone, America/New_York",
		Value: func() any { return &Time{time.Date(2024, 5, 6, 7, 8, 9, 0, zone("America/New_York"))} }},
	{Name: "time-zero", Group: "time", Doc: "the zero time.Time (year 1, UTC), which IsZero",
		Value: ptr(Time{})},
	{Name: "time-year1", Group: "time", Doc: "a time in year 1, before the Unix epoch by 62 billion seconds",
		Value: ptr(Time{time.Date(1, 2, 3, 4, 5, 6, 0, time.UTC)})},
	{Name: "time-year9999", Group: "time", Doc: "the last nanosecond of year 9999",
		Value: ptr(Time{time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)})},
	{Name: "time-monotonic", Group: "time", Doc: "time.Now(): in time.Local, with a monotonic clock reading",
		Value: func() any { return &Time{time.Now()} }},
	{Name: "duration", Group: "time", Doc: "a time.Duration of 1.5s and 1ns",
		Value: ptr(Dur{1500*time.Millisecond + 1})},

	// nil and empty
	{Name: "slice-nil", Group: "nil", Doc: "a nil []int field", Shows: codec.NilEmpty,
		Value: ptr(Ints{})},
	{Name: "slice-empty", Group: "nil", Doc: "an empty, non-nil []int field", Shows: codec.NilEmpty,
		Value: ptr(Ints{[]int{}})},
	{Name: "map-nil", Group: "nil", Doc: "a nil map[string]int field", Shows: codec.NilEmpty,
		Value: ptr(StrMap{})},
	{Name: "map-empty", Group: "nil", Doc: "an empty, non-nil map[string]int field", Shows: codec.NilEmpty,
		Value: ptr(StrMap{map[string]int{}})},
	{Name: "ptr-nil", Group: "nil", Doc: "a nil *int field", Shows: codec.NilPointerZero,
		Value: ptr(IntPtr{})},
	{Name: "ptr-zero", Group: "nil", Doc: "a *int field pointing at 0", Shows: codec.NilPointerZero,
		Value: func() any { return &IntPtr{new(int)} }},
	{Name: "ptr", Group: "nil", Doc: "a *int field pointing at 7", Decides: codec.Pointer,
		Value: func() any { n := 7; return &IntPtr{&n} }},
	{Name: "aliasing", Group: "nil", Doc: "two *int fields pointing at one int: do they still share it?",
		Value: func() any { n := 7; return &Alias{A: &n, B: &n} },
		Check: func(got any) string {
			if a, ok := got.(*Alias); ok && a.A != nil && a.A != a.B {
				return "A and B point at two ints, no longer one"
			}
			return ""
		}},
	{Name: "cycle", Group: "nil", Doc: "a struct whose pointer field points back at itself", Heavy: true,
		Value: func() any { n := &Node{V: 1}; n.Next = n; return n }},

	// maps
	{Name: "map-string-key", Group: "map", Doc: "a map[string]int", Decides: codec.Map,
		Value: ptr(StrMap{map[string]int{"a": 1, "b": 2}})},
	{Name: "map-int-key", Group: "map", Doc: "a map[int]string", Decides: codec.NonStringKey,
		Value: ptr(IntKey{map[int]string{1: "a", -2: "b"}})},
	{Name: "map-bool-key", Group: "map", Doc: "a map[bool]int",
		Value: ptr(BoolKey{map[bool]int{true: 1, false: 0}})},
	{Name: "map-struct-key", Group: "map", Doc: "a map keyed by a struct{X, Y int}",
		Value: ptr(StructKey{map[Key]string{{1, 2}: "a", {3, 4}: "b"}})},
	{Name: "map-array-key", Group: "map", Doc: "a map keyed by a [2]int",
		Value: ptr(ArrayKey{map[[2]int]string{{1, 2}: "a"}})},

	// numbers
	{Name: "uint64-max", Group: "number", Doc: "math.MaxUint64 in a uint64 field",
		Value: ptr(Uint64{math.MaxUint64})},
	{Name: "int64-min", Group: "number", Doc: "math.MinInt64 in an int64 field",
		Value: ptr(Int64{math.MinInt64})},
	// Go's int and uint are 64 bits on every platform serbench runs on; a
	// format that maps them to 32-bit integers keeps only the low bits.
	{Name: "int-wide", Group: "number", Doc: "an int of -2^40-1 and a uint of 2^40+3: beyond 32 bits, as a size or a Unix time in milliseconds is",
		Value: ptr(WideInts{-1<<40 - 1, 1<<40 + 3})},
	{Name: "any-2^53+1", Group: "number", Doc: "the int 2^53+1 in an any field: a float64 cannot hold it", Shows: codec.IntegerFloat,
		Value: ptr(Any{1<<53 + 1})},
	{Name: "any-int", Group: "number", Doc: "the int 42 in an any field: what Go type comes back?", Shows: codec.InterfaceTypes,
		Value: ptr(Any{42})},
	{Name: "any-float", Group: "number", Doc: "the float64 1.5 in an any field",
		Value: ptr(Any{1.5})},
	{Name: "float32", Group: "number", Doc: "float32 fields: 0.1, the largest and the smallest subnormal",
		Value: ptr(Float32s{0.1, math.MaxFloat32, math.SmallestNonzeroFloat32})},
	// Full precision, as measured data has it: a codec that writes
	// fewer digits than a float needs shows codec.FloatPrecision, and the
	// digits it keeps (compare finds the most under which the round trip
	// still compares equal). The largest float32 is the float32 probe's:
	// some decoders refuse it, which would hide what they round.
	{Name: "float-full", Group: "number", Doc: "a float64 (0.6046602879796196) and a float32 (0.60466033) with every digit their type has, the largest float64, a float32 of 1e38, the smallest non-zero of each", Shows: codec.FloatPrecision,
		Value: ptr(FullFloats{F64: 0.6046602879796196, Max64: math.MaxFloat64, Min64: math.SmallestNonzeroFloat64,
			F32: 0.60466033, Big32: 1e38, Min32: math.SmallestNonzeroFloat32})},
	{Name: "nan", Group: "number", Doc: "a float64 NaN",
		Value: ptr(Float{math.NaN()})},
	{Name: "inf", Group: "number", Doc: "float64 +Inf and -Inf",
		Value: ptr(Infs{math.Inf(1), math.Inf(-1)})},
	{Name: "neg-zero", Group: "number", Doc: "a float64 -0.0, which compares equal to 0 but is not",
		Value: ptr(Float{math.Copysign(0, -1)})},
	{Name: "subnormal", Group: "number", Doc: "the smallest float64, 5e-324",
		Value: ptr(Float{math.SmallestNonzeroFloat64})},
	{Name: "big-int", Group: "number", Doc: "a *big.Int of 2^100",
		Value: func() any { return &BigInt{new(big.Int).Lsh(big.NewInt(1), 100)} }},
	{Name: "json-number", Group: "number", Doc: "a json.Number of 20 digits",
		Value: ptr(Number{"12345678901234567890"})},

	// strings and bytes
	{Name: "string", Group: "string", Doc: "a plain string field", Decides: codec.VariableSize,
		Value: ptr(Text{"hello"})},
	{Name: "string-invalid-utf8", Group: "string", Doc: `the string "a\xffb", not valid UTF-8`,
		Value: ptr(Text{"a\xffb"})},
	{Name: "string-nul", Group: "string", Doc: `the string "a\x00b", holding a NUL`,
		Value: ptr(Text{"a\x00b"})},
	{Name: "string-bom", Group: "string", Doc: "a string that starts with a byte order mark, U+FEFF",
		Value: ptr(Text{"\uFEFFtext"})},
	{Name: "string-1mb", Group: "string", Doc: "a string of 1 MiB", Heavy: true,
		Value: func() any { return &Text{strings.Repeat("abcdefgh", 1<<17)} }},
	{Name: "bytes-nil", Group: "string", Doc: "a nil []byte field", Shows: codec.NilEmpty,
		Value: ptr(Bytes{})},
	{Name: "bytes-empty", Group: "string", Doc: "an empty, non-nil []byte field", Shows: codec.NilEmpty,
		Value: ptr(Bytes{[]byte{}})},
	{Name: "bytes-binary", Group: "string", Doc: "a []byte of 0xff 0xfe 0x00 0x01, not text", Shows: codec.BinaryText,
		Value: ptr(Bytes{[]byte{0xff, 0xfe, 0x00, 0x01}})},

	// composite types
	{Name: "top-int", Group: "shape", Doc: "an int32 on its own, not in a struct", Decides: codec.TopLevelScalar,
		Value: func() any { n := int32(7); return &n }},
	{Name: "top-slice", Group: "shape", Doc: "a []int32 on its own, not in a struct", Decides: codec.TopLevelSlice,
		Value: func() any { s := []int32{1, 2, 3}; return &s }},
	{Name: "array", Group: "shape", Doc: "a [3]int and a [2]string field", Decides: codec.Array,
		Value: ptr(Arrays{[3]int{1, 2, 3}, [2]string{"a", "b"}})},
	{Name: "embedded", Group: "shape", Doc: "an embedded struct, whose fields are promoted",
		Value: ptr(Embedded{Inner{A: 1, B: "b"}, 3})},
	{Name: "name-clash", Group: "shape", Doc: "an embedded struct's field A hidden by the outer A",
		Value: ptr(Clash{Inner{A: 1, B: "b"}, 2})},
	{Name: "unexported", Group: "shape", Doc: "an unexported field beside an exported one",
		Value: ptr(Unexported{A: 1, b: 2})},
	{Name: "deep-nesting", Group: "shape", Doc: "a chain of 100 nested structs through pointers", Heavy: true, Decides: codec.Recursive,
		Value: func() any { return deep(100) }},

	// interfaces and custom encodings
	{Name: "any-string", Group: "interface", Doc: `the string "text" in an any field`, Decides: codec.Interface,
		Value: ptr(Any{"text"})},
	{Name: "any-struct", Group: "interface", Doc: "a struct held in an any field",
		Value: ptr(Any{Key{1, 2}})},
	{Name: "any-slice", Group: "interface", Doc: "a []string held in an any field",
		Value: ptr(Any{[]string{"a", "b"}})},
	{Name: "iface-method", Group: "interface", Doc: "a fmt.Stringer field holding a concrete type",
		Value: ptr(Stringer{Celsius(21)})},
	{Name: "marshaler", Group: "interface", Doc: "a type whose only state is unexported, with MarshalJSON and UnmarshalJSON",
		Value: ptr(Secrets{Secret{"s3cr3t"}})},
	{Name: "text-marshaler", Group: "interface", Doc: "a type whose only state is unexported, with MarshalText and UnmarshalText",
		Value: ptr(Words{Word{"word"}})},

	// decoding
	{Name: "reuse", Group: "decode", Kind: Reuse, Doc: "decode into a reused value: fields zero at encode, a map with other keys",
		Value:  func() any { return &Reused{A: 1, S: "x", M: map[string]int{"a": 1}} },
		Target: func() any { return &Reused{A: 9, B: 7, S: "old", E: "old", M: map[string]int{"z": 26}} }},
	{Name: "omitempty", Group: "decode", Kind: Reuse, Doc: `an empty field tagged json:",omitempty", decoded into a reused value`,
		Value:  ptr(Omit{A: 1}),
		Target: ptr(Omit{A: 9, S: "old"})},
	{Name: "unknown-field", Group: "decode", Kind: DecodeAs, Doc: "decode {A, B, C} into a type with only A: the others are ignored?",
		Value: ptr(Newer{A: "a", B: 42, C: true}),
		As:    func() any { return new(Older) }, Want: ptr(Older{A: "a"})},
	{Name: "renamed", Group: "decode", Kind: DecodeAs, Doc: `decode Name json:"full_name" into FullName json:"full_name": is the tag the name?`,
		Value: ptr(Tagged{Name: "x"}),
		As:    func() any { return new(Retagged) }, Want: ptr(Retagged{FullName: "x"})},
	{Name: "forward-unknown", Group: "decode", Kind: Forward, Doc: "a field unknown to the reader's schema, decoded, encoded again and read back"},
	{Name: "forward-discard", Group: "decode", Kind: Forward, Discard: true, Doc: "the same, with the decoder asked to discard unknown fields"},
}

// ptr returns a func returning a pointer to a copy of v; v holds no map
// or slice that a decoder could write into.
func ptr[T any](v T) func() any {
	return func() any { c := v; return &c }
}

func zone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // time/tzdata is linked in
	}
	return loc
}

func deep(n int) *Nest {
	var top *Nest
	for i := n; i > 0; i-- {
		top = &Nest{V: i, N: top}
	}
	return top
}

// Names returns the names of probes, in order.
func Names(probes []Probe) []string {
	out := make([]string, len(probes))
	for i, p := range probes {
		out[i] = p.Name
	}
	return out
}

// Lookup returns the probes named, in catalogue order, or an error naming
// those that do not exist.
func Lookup(names []string) ([]Probe, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []Probe
	for _, p := range Probes {
		if want[p.Name] {
			out = append(out, p)
			delete(want, p.Name)
		}
	}
	if len(want) > 0 {
		known := make([]string, len(Probes))
		for i, p := range Probes {
			known[i] = p.Name
		}
		return nil, suggest.Check("probe", names, known, nil, "serbench list probes")
	}
	return out, nil
}
