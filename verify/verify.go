// Package verify compares a decoded value with the original, modulo the
// losses a codec declares.
package verify

import (
	"bytes"
	"fmt"
	"go/token"
	"reflect"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/serbench/serbench/codec"
)

// A MismatchError reports that a round trip changed the value.
type MismatchError struct {
	Diff string // go-cmp diff, "-want +got"
}

func (e *MismatchError) Error() string {
	const max = 2000
	d := e.Diff
	if len(d) > max {
		d = d[:max] + "\n... (diff truncated)"
	}
	return "verify: decoded value differs from the original (-want +got):\n" + d
}

// Equal returns nil if got equals want modulo losses, or a *MismatchError
// with a readable diff. Unexported struct fields are ignored: serialization
// libraries do not encode them.
func Equal(want, got any, losses []codec.Loss) error {
	if reflect.TypeOf(want) != reflect.TypeOf(got) {
		return &MismatchError{Diff: fmt.Sprintf("type: want %T, got %T", want, got)}
	}
	if reflect.DeepEqual(want, got) {
		return nil // identical, whatever the losses
	}
	if slices.ContainsFunc(losses, func(l codec.Loss) bool { return l.Kind == codec.InterfaceTypes }) {
		// Compare, and explain a mismatch, in the canonical form of
		// values held in interfaces.
		n := normalizer{ifaces: true}
		want, got = n.copy(reflect.ValueOf(want)).Interface(), n.copy(reflect.ValueOf(got)).Interface()
		if reflect.DeepEqual(want, got) {
			return nil
		}
	}
	if n, ok := newNormalizer(losses); ok && len(losses) > 0 &&
		reflect.DeepEqual(n.copy(reflect.ValueOf(want)).Interface(), n.copy(reflect.ValueOf(got)).Interface()) {
		return nil // equal once the declared losses are applied to both
	}
	if d := cmp.Diff(want, got, cmpOptions(losses)...); d != "" {
		return &MismatchError{Diff: d}
	}
	return nil
}

// cmpOptions returns the go-cmp options that implement the given losses.
func cmpOptions(losses []codec.Loss) []cmp.Option {
	prec := time.Duration(1)
	zone := false
	opts := []cmp.Option{ignoreUnexported}
	for _, l := range losses {
		switch l.Kind {
		case codec.TimePrecision:
			prec = max(prec, l.Precision)
		case codec.TimeZone:
			zone = true
		case codec.NilEmpty:
			opts = append(opts, cmpopts.EquateEmpty())
		case codec.NilPointerZero:
			opts = append(opts, nilPointerZero())
		case codec.BinaryText:
			opts = append(opts, binaryText)
		}
	}
	opts = append(opts, cmp.Comparer(func(a, b time.Time) bool {
		// A codec that keeps prec may truncate or round: the instants must
		// lie less than prec apart.
		if d := a.Sub(b).Abs(); prec > 1 && d >= prec || prec <= 1 && d != 0 {
			return false
		}
		if zone {
			return true
		}
		// The offset must survive; a zone's name is platform data that no
		// codec is expected to carry.
		_, ao := a.Zone()
		_, bo := b.Zone()
		return ao == bo
	}))
	return opts
}

var ignoreUnexported = cmp.FilterPath(func(p cmp.Path) bool {
	sf, ok := p.Last().(cmp.StructField)
	if !ok {
		return false
	}
	return !token.IsExported(sf.Name())
}, cmp.Ignore())

// binaryText accepts a changed []byte only where the original was not
// plain UTF-8 text (invalid sequences or control bytes) and the result is.
var binaryText = cmp.FilterValues(func(a, b []byte) bool { return !bytes.Equal(a, b) },
	cmp.Comparer(func(a, b []byte) bool {
		text := func(p []byte) bool {
			return utf8.Valid(p) && !bytes.ContainsFunc(p, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' })
		}
		return !text(a) && utf8.Valid(b) || !text(b) && utf8.Valid(a)
	}))

// nilPointerZero treats a nil pointer and a pointer to a zero value as equal.
func nilPointerZero() cmp.Option {
	return cmp.FilterValues(func(a, b any) bool {
		va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
		if va.Kind() != reflect.Pointer || vb.Kind() != reflect.Pointer {
			return false
		}
		return va.IsNil() != vb.IsNil()
	}, cmp.Comparer(func(a, b any) bool {
		va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
		if va.IsNil() {
			return vb.Elem().IsZero()
		}
		return va.Elem().IsZero()
	}))
}
