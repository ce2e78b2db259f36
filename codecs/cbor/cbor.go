// Package cbor adapts github.com/fxamacker/cbor/v2 (RFC 8949).
package cbor

import (
	"io"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/serbench/serbench/codec"
)

const (
	module = "github.com/fxamacker/cbor/v2"
	url    = "https://github.com/fxamacker/cbor"
)

// Default is cbor.Marshal and cbor.Unmarshal with the default options.
var Default = codec.Declare(codec.Info{
	Name: "cbor", Family: "cbor", Label: "fxamacker/cbor/v2", Module: module, URL: url,
	API:   codec.Reflection,
	Adopt: codec.Adoption{Canonical: "cbor.CoreDetEncOptions() (RFC 8949 core deterministic encoding)"},
	// The default DecOptions refuse values nested deeper than 32 levels,
	// which a recursive type's values may be (golang_source's tree).
	Unsupported: codec.Recursive,
	Losses: []codec.Loss{
		{Kind: codec.TimePrecision, Precision: time.Second},
		{Kind: codec.TimeZone},
	},
	Notes: "Default EncOptions encode a time as whole Unix seconds (TimeUnix), decoded in time.Local; " +
		"see cbor-nano. Struct fields keyed by their json tags.",
	New: func() codec.Codec {
		return codec.WithStream(codec.Reflect(cbor.Marshal, cbor.Unmarshal),
			func(w io.Writer) codec.Encoder { return cbor.NewEncoder(w) },
			func(r io.Reader) codec.Decoder { return cbor.NewDecoder(r) })
	},
})

// Nano encodes times as RFC 3339 text with nanoseconds.
var Nano = codec.Declare(codec.Info{
	Name: "cbor-nano", Family: "cbor", Label: "fxamacker/cbor/v2 (TimeRFC3339Nano)", Module: module, URL: url,
	API:         codec.Reflection,
	Adopt:       codec.Adoption{Canonical: "cbor.CoreDetEncOptions() (RFC 8949 core deterministic encoding)"},
	Unsupported: codec.Recursive, // as Default: at most 32 levels deep
	Variant:     "EncOptions{Time: TimeRFC3339Nano} built once into an EncMode: times keep nanoseconds",
	Notes:       "A time keeps its UTC offset (not its zone name, which verification does not ask for). Struct fields keyed by their json tags.",
	New:         newNano,
})

// newNano builds the EncMode once per codec, outside the timer.
func newNano() codec.Codec {
	em, err := cbor.EncOptions{Time: cbor.TimeRFC3339Nano}.EncMode()
	if err != nil {
		return codec.Func(func(any) (codec.Case, error) { return nil, err })
	}
	return codec.Reflect(em.Marshal, cbor.Unmarshal)
}

// Limits decodes with the limits fxamacker/cbor offers set tight: at most
// 64 levels of nesting, 65,536 array elements and 65,536 map pairs, so
// that a hostile input is refused before it is allocated.
var Limits = codec.Declare(codec.Info{
	Name: "cbor-limits", Family: "cbor", Label: "fxamacker/cbor/v2 (DecOptions limits)", Module: module, URL: url,
	API:     codec.Reflection,
	Adopt:   codec.Adoption{Canonical: "cbor.CoreDetEncOptions() (RFC 8949 core deterministic encoding)"},
	Variant: "DecOptions{MaxNestedLevels: 64, MaxArrayElements: 65536, MaxMapPairs: 65536, DupMapKey: DupMapKeyEnforcedAPF} built once into a DecMode: a hardened decoder",
	Losses: []codec.Loss{
		{Kind: codec.TimePrecision, Precision: time.Second},
		{Kind: codec.TimeZone},
	},
	Notes: "The hardened variant of cbor: what its limits cost in speed is the difference from cbor. " +
		"Struct fields keyed by their json tags.",
	New: newLimits,
})

// newLimits builds the DecMode once per codec, outside the timer.
func newLimits() codec.Codec {
	dm, err := cbor.DecOptions{
		MaxNestedLevels:  64,
		MaxArrayElements: 65536,
		MaxMapPairs:      65536,
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
	}.DecMode()
	if err != nil {
		return codec.Func(func(any) (codec.Case, error) { return nil, err })
	}
	return codec.Reflect(cbor.Marshal, dm.Unmarshal)
}
