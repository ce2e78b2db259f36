package dataset

import (
	"math"
	"time"
)

// Edge holds the values codecs most often fail to round-trip: nil next to
// empty, a pointer to a zero value, a time in a non-UTC zone, extreme
// numbers, and text that needs escaping. It exists to check each codec's
// declared losses, not to mimic a payload.
type Edge struct {
	NilSlice   []int32   `json:"nil_slice" xml:"nil_slice" yaml:"nil_slice"`
	EmptySlice []int32   `json:"empty_slice" xml:"empty_slice" yaml:"empty_slice"`
	NilPtr     *int64    `json:"nil_ptr" xml:"nil_ptr" yaml:"nil_ptr"`
	ZeroPtr    *int64    `json:"zero_ptr" xml:"zero_ptr" yaml:"zero_ptr"`
	Zoned      time.Time `json:"zoned" xml:"zoned" yaml:"zoned"`
	Zero       int64     `json:"zero" xml:"zero" yaml:"zero"`
	MinInt     int64     `json:"min_int" xml:"min_int" yaml:"min_int"`
	MaxUint    uint64    `json:"max_uint" xml:"max_uint" yaml:"max_uint"`
	Float      float64   `json:"float" xml:"float" yaml:"float"`
	Text       string    `json:"text" xml:"text" yaml:"text"`
	Bytes      []byte    `json:"bytes" xml:"bytes" yaml:"bytes"`
}

// EdgePortable is Edge without the two values some formats cannot carry
// at all (a uint64 above MaxInt64, a tab in a one-line string), so that
// those formats (BSON, TOML, goccy/go-yaml) still show what they lose.
type EdgePortable struct {
	NilSlice   []int32   `json:"nil_slice" xml:"nil_slice" yaml:"nil_slice"`
	EmptySlice []int32   `json:"empty_slice" xml:"empty_slice" yaml:"empty_slice"`
	NilPtr     *int64    `json:"nil_ptr" xml:"nil_ptr" yaml:"nil_ptr"`
	ZeroPtr    *int64    `json:"zero_ptr" xml:"zero_ptr" yaml:"zero_ptr"`
	Zoned      time.Time `json:"zoned" xml:"zoned" yaml:"zoned"`
	Zero       int64     `json:"zero" xml:"zero" yaml:"zero"`
	MinInt     int64     `json:"min_int" xml:"min_int" yaml:"min_int"`
	Float      float64   `json:"float" xml:"float" yaml:"float"`
	Text       string    `json:"text" xml:"text" yaml:"text"`
	Bytes      []byte    `json:"bytes" xml:"bytes" yaml:"bytes"`
}

// NewEdgePortable returns the i-th Edge's values that every format can carry.
func NewEdgePortable(i int) EdgePortable {
	e := NewEdge(i)
	return EdgePortable{
		NilSlice: e.NilSlice, EmptySlice: e.EmptySlice, NilPtr: e.NilPtr, ZeroPtr: e.ZeroPtr,
		Zoned: e.Zoned, MinInt: e.MinInt, Float: e.Float, Text: "héllo, 世界 <&> \"quoted\"", Bytes: e.Bytes,
	}
}

// EdgeMaps holds a nil map next to an empty one.
type EdgeMaps struct {
	NilMap   map[string]int32 `json:"nil_map" yaml:"nil_map"`
	EmptyMap map[string]int32 `json:"empty_map" yaml:"empty_map"`
	Full     map[string]int32 `json:"full" yaml:"full"`
}

// Zone is the non-UTC zone of Edge.Zoned: an unnamed fixed offset of
// +05:30, as a time parsed from RFC 3339 text carries.
var Zone = time.FixedZone("", 5*3600+1800)

// NewEdge returns the i-th edge-case value. Only the instant of Zoned, by
// whole days, and Float, a float64 with every digit its type has, vary
// with i: every value keeps its zone, its nanoseconds and every other
// edge case.
func NewEdge(i int) Edge {
	zero := int64(0)
	return Edge{
		NilSlice: nil, EmptySlice: []int32{}, NilPtr: nil, ZeroPtr: &zero,
		Zoned: Base.Add(time.Duration(i) * day).In(Zone), MinInt: math.MinInt64, MaxUint: math.MaxUint64,
		Float: floatAt(i), Text: "héllo, 世界 <&> \"quoted\"\ttab", Bytes: []byte{0, 1, 2, 0xff},
	}
}

// NewEdgeMaps returns the i-th map edge-case value. Only the values of Full
// vary with i.
func NewEdgeMaps(i int) EdgeMaps {
	a := int32(2*i + 1)
	return EdgeMaps{NilMap: nil, EmptyMap: map[string]int32{}, Full: map[string]int32{"a": a, "b": a + 1}}
}
