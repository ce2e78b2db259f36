package codec

import (
	"fmt"
	"time"
)

// A LossKind names something a codec does not preserve.
type LossKind string

// The kinds of loss.
const (
	// TimePrecision: times come back truncated or rounded to
	// Loss.Precision: the instant decoded lies less than Precision from the
	// original (|got - want| < Precision), the one test verify applies,
	// which holds for truncation and for rounding alike.
	TimePrecision LossKind = "time-precision"
	// FloatPrecision: floats come back rounded to Loss.Digits digits. A
	// decoded float equals the original when it lies within half a unit
	// of the original's Digits-th significant digit, or of its Digits-th
	// decimal for a number below 0.1 in magnitude, whichever is coarser,
	// plus one unit in the last place of its type (float32 or float64),
	// which a decimal rounded so may not hold exactly. A codec writing
	// Digits significant digits has the loss, and so does one writing
	// Digits decimals (a number below half a unit of the Digits-th decimal
	// may come back 0). A zero (-0 too), NaN and the infinities still
	// come back as they are. Under InterfaceTypes, floats held in
	// interfaces compare so too; integers never round.
	FloatPrecision LossKind = "float-precision"
	// TimeZone: times come back as the same instant in another location
	// (usually UTC or Local), with another offset. It implies ZoneName and
	// Monotonic.
	TimeZone LossKind = "time-zone"
	// NilEmpty: nil and empty slices or maps are not told apart.
	NilEmpty LossKind = "nil-empty"
	// NilPointerZero: a pointer to a zero value may come back nil, or a
	// nil pointer as a pointer to a zero value.
	NilPointerZero LossKind = "nil-pointer-zero"
	// BinaryText: []byte is carried as text, so bytes that are not valid
	// UTF-8 (or not allowed in the format's text) come back replaced: in a
	// []byte or a string, each byte of an invalid UTF-8 sequence and each
	// control character other than tab, newline and carriage return may
	// come back as U+FFFD.
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
	// IntegerFloat: an integer held in an interface (any) comes back as a
	// float64, so that one beyond ±2^53, which a float64 cannot hold,
	// comes back as the nearest float64 (2^53+1 as 2^53): what a JSON
	// decoder that reads every number into any as float64 does. Integers
	// in typed fields are not concerned, nor integers a float64 holds
	// exactly. A decoded integer equals the original when both read as
	// the same float64; it is compared so under InterfaceTypes, which
	// lets the number's Go type change.
	IntegerFloat LossKind = "integer-as-float"

	// The kinds below are not a codec's to declare: no codec is expected
	// to carry them, and verify.Equal allows them whatever a codec
	// declares (verify.Implicit). They are kinds so that the fidelity
	// matrix can name them in its cells, from the same meaning.

	// Monotonic: a time's monotonic clock reading (time.Now) is dropped.
	// It has no meaning outside the process that read it.
	Monotonic LossKind = "monotonic"
	// ZoneName: a time comes back with the same instant and offset in a
	// location of another name (a fixed zone for America/New_York). A
	// zone's name is platform data.
	ZoneName LossKind = "zone-name"
	// Unexported: the unexported fields of a struct that has exported
	// ones are not carried. A struct with no exported field (its state
	// encoded by a Marshaler, as big.Int's) is compared field by field.
	Unexported LossKind = "unexported-dropped"
)

// LossKinds lists every kind, the declarable ones first.
var LossKinds = []LossKind{TimePrecision, FloatPrecision, TimeZone, NilEmpty, NilPointerZero, BinaryText, InterfaceTypes, IntegerFloat, Monotonic, ZoneName, Unexported}

// A Loss is one declared way in which a codec's round trip is not exact.
type Loss struct {
	Kind LossKind
	// Precision is the time granularity kept, for TimePrecision.
	Precision time.Duration
	// Digits is the number of significant digits kept (decimals, below
	// 0.1), 1 to MaxDigits, for FloatPrecision.
	Digits int
}

// MaxDigits is the most significant digits a FloatPrecision loss may keep:
// 17 digits tell every float64 apart, so a codec that keeps them loses
// nothing.
const MaxDigits = 16

// MaxPrecision is the coarsest TimePrecision a codec may declare: a
// day, a date's. verify.Equal allows a time to come back anywhere within
// the precision declared, so a coarser one would let a codec drop times
// altogether.
const MaxPrecision = 24 * time.Hour

func (l Loss) validate() error {
	switch l.Kind {
	case TimePrecision:
		if l.Precision <= 0 || l.Precision > MaxPrecision {
			return fmt.Errorf("loss %s needs a positive Precision of %v at most (a codec that keeps less of a time does not carry it)", l.Kind, MaxPrecision)
		}
	case FloatPrecision:
		if l.Digits < 1 || l.Digits > MaxDigits {
			return fmt.Errorf("loss %s needs Digits, the significant digits kept, from 1 to %d (17 keep every float64)", l.Kind, MaxDigits)
		}
	case TimeZone, NilEmpty, NilPointerZero, BinaryText, InterfaceTypes, IntegerFloat:
	case Monotonic, ZoneName, Unexported:
		return fmt.Errorf("loss %s is allowed for every codec (verify.Implicit); remove it from the declared losses", l.Kind)
	default:
		return fmt.Errorf("unknown loss kind %q", l.Kind)
	}
	return nil
}

// String describes the loss in a few words.
func (l Loss) String() string {
	switch l.Kind {
	case TimePrecision:
		return fmt.Sprintf("%s(%v)", l.Kind, l.Precision)
	case FloatPrecision:
		return fmt.Sprintf("%s(%d)", l.Kind, l.Digits)
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
