package codec

import (
	"fmt"
	"time"
)

// A LossKind names something a codec does not preserve.
type LossKind string

// The kinds of loss.
const (
	// TimePrecision: times come back truncated or rounded to Loss.Precision.
	TimePrecision LossKind = "time-precision"
	// TimeZone: times come back as the same instant in another location
	// (usually UTC or Local).
	TimeZone LossKind = "time-zone"
	// NilEmpty: nil and empty slices or maps are not told apart.
	NilEmpty LossKind = "nil-empty"
	// NilPointerZero: a pointer to a zero value may come back nil, or a
	// nil pointer as a pointer to a zero value.
	NilPointerZero LossKind = "nil-pointer-zero"
	// BinaryText: []byte is carried as text, so bytes that are not valid
	// UTF-8 (or not allowed in the format's text) come back replaced.
	BinaryText LossKind = "binary-as-text"
	// InterfaceTypes: values held in interfaces (any) come back as other
	// Go types with the same content: a number as another numeric type of
	// the same value (float64 from JSON, int from YAML, int8 to uint64
	// from MessagePack), a map as a map of another key type
	// (map[any]any) or as a list of key-value pairs (BSON's bson.D), a
	// list as a named slice type (bson.A). Values decoded into any are
	// not typed by the original, so a round trip of generic data through
	// almost any codec shows this.
	InterfaceTypes LossKind = "interface-types"
)

// A Loss is one declared way in which a codec's round trip is not exact.
type Loss struct {
	Kind LossKind
	// Precision is the time granularity kept, for TimePrecision.
	Precision time.Duration
}

func (l Loss) validate() error {
	switch l.Kind {
	case TimePrecision:
		if l.Precision <= 0 {
			return fmt.Errorf("loss %s needs a positive Precision", l.Kind)
		}
	case TimeZone, NilEmpty, NilPointerZero, BinaryText, InterfaceTypes:
	default:
		return fmt.Errorf("unknown loss kind %q", l.Kind)
	}
	return nil
}

// String describes the loss in a few words.
func (l Loss) String() string {
	if l.Kind == TimePrecision {
		return fmt.Sprintf("%s(%v)", l.Kind, l.Precision)
	}
	return string(l.Kind)
}

// LossNames returns the String of each loss, in order.
func LossNames(losses []Loss) []string {
	var names []string
	for _, l := range losses {
		names = append(names, l.String())
	}
	return names
}
