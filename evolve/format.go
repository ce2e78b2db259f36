package evolve

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/evolve/change"
)

// A format writes and reads the versions of a case in one codec's form.
type format interface {
	// encode encodes w's data with version w.
	encode(c *change.Case, w change.Version) ([]byte, error)
	// decode decodes data written by version w into a value of version
	// r, in the codec's native form.
	decode(c *change.Case, w, r change.Version, data []byte) (any, error)
	// reencode encodes a value decode returned, with version r.
	reencode(c *change.Case, r change.Version, native any) ([]byte, error)
	// record returns a value decode returned as r's Record.
	record(c *change.Case, r change.Version, native any) (change.Record, error)
}

// A Participant is a codec of the study: a registered codec, or a way of
// using one (Avro without the writer's schema).
type Participant struct {
	Name, Label, Family, Module string
	// Codec is the registry name -codecs selects it by.
	Codec string
	// Kind is the family of Case.NA that says what it cannot express.
	Kind   string
	Losses []codec.Loss
	format format
}
