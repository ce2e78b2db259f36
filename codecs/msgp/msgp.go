package msgp

import (
	"fmt"
	"reflect"

	"github.com/tinylib/msgp/msgp"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/mirror"
	"github.com/serbench/serbench/dataset"
)

// Tinylib is msgp's generated MarshalMsg and UnmarshalMsg.
var Tinylib = codec.Declare(codec.Info{
	Name: "msgp", Family: "msgpack", Label: "tinylib/msgp", Module: "github.com/tinylib/msgp",
	URL: "https://github.com/tinylib/msgp", API: codec.Codegen,
	Adopt: codec.Adoption{Generator: "msgp (go tool)"},
	// Generated code exists for the dataset types only; a bare int64
	// would be a msgp.AppendInt64 call, not generated code.
	Unsupported: codec.TopLevelScalar,
	Omits:       dataset.Omits(nil),
	// An empty slice decodes as nil and a nil map as an empty one; the
	// time extension carries the instant to the nanosecond but no offset.
	Losses: []codec.Loss{{Kind: codec.NilEmpty}, {Kind: codec.TimeZone}},
	Notes: "Encode appends into a buffer reused across calls (b, err = v.MarshalMsg(buf[:0])), " +
		"msgp's idiomatic API; Decode unmarshals into a fresh value. " +
		"Times use msgp's time extension (seconds and nanoseconds, no zone), decoded in UTC. " +
		"Values are copied to generated mirror types before timing.",
	ValueConverts: true, // Value copies the decoded mirror back into a dataset type by reflection
	New:           func() codec.Codec { return mirrors },

	ReusesBuffer: true, // Encode writes into a buffer kept across calls
})

// prepareAs prepares a case for a *D through its mirror M, whose methods
// msgp generated.
func prepareAs[D, M any, PM interface {
	*M
	msgp.Marshaler
	msgp.Unmarshaler
}](v any) (codec.Case, error) {
	c, err := mirror.NewCase[D, M](v,
		func(m *M, buf []byte) ([]byte, error) { return PM(m).MarshalMsg(buf) },
		func(m *M, data []byte) error {
			rest, err := PM(m).UnmarshalMsg(data)
			if err == nil && len(rest) != 0 {
				err = fmt.Errorf("msgp: %d bytes left over after the value", len(rest))
			}
			return err
		})
	if err != nil {
		return nil, err
	}
	return &getCase{Case: c, mirror: reflect.TypeFor[M]()}, nil
}
