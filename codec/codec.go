// Package codec is the contract between serbench and the serialization
// libraries it measures.
//
// A Codec prepares a Case for one value. The Case owns everything the timed
// loops need (the value in the codec's native form, reusable buffers, stream
// state), so that conversion and setup happen once, outside the timer.
// The runner only calls Case.Encode and Case.Decode in its loops and
// Case.Value when it verifies a round trip.
//
// What a codec cannot hold or preserve is declared as data in its Info
// (Unsupported features, Losses), never as special cases in the runner.
package codec

import (
	"errors"
	"fmt"
)

// A Codec prepares benchmark cases for values of any type it supports.
type Codec interface {
	// Prepare returns a Case that encodes v and decodes its encoding.
	// v is a non-nil pointer to the value (a struct, a slice, a map or a
	// scalar). Prepare does all conversion to the codec's native types.
	// It returns an *UnsupportedError when the codec cannot represent v.
	Prepare(v any) (Case, error)
}

// A Case encodes one prepared value and decodes encodings of it.
// A Case is used by one goroutine at a time.
type Case interface {
	// Encode encodes the prepared value. The returned slice may be
	// reused by the next call to Encode.
	Encode() ([]byte, error)

	// Decode decodes data, produced by Encode, into a new value of the
	// prepared value's type (or its native equivalent).
	Decode(data []byte) error

	// Value returns the value produced by the last Decode, converted back
	// to the type handed to Prepare (a pointer, like v).
	Value() (any, error)
}

// Func adapts a function to the Codec interface.
type Func func(v any) (Case, error)

// Prepare calls f(v).
func (f Func) Prepare(v any) (Case, error) { return f(v) }

// An UnsupportedError reports that a codec cannot represent a value.
// The runner records the case as skipped with Reason.
type UnsupportedError struct {
	Codec  string // registry name, may be empty when raised by an adapter
	Type   string // the Go type that was refused
	Reason string
}

func (e *UnsupportedError) Error() string {
	s := "codec"
	if e.Codec != "" {
		s += " " + e.Codec
	}
	return fmt.Sprintf("%s: unsupported type %s: %s", s, e.Type, e.Reason)
}

// Unsupported returns an *UnsupportedError for the type of v.
func Unsupported(v any, format string, args ...any) error {
	return &UnsupportedError{Type: fmt.Sprintf("%T", v), Reason: fmt.Sprintf(format, args...)}
}

// IsUnsupported reports whether err says a value is unsupported.
func IsUnsupported(err error) bool {
	var u *UnsupportedError
	return errors.As(err, &u)
}
