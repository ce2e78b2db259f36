package verify

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/serbench/serbench/codec"
)

// A MismatchError reports that a round trip changed the value.
type MismatchError struct {
	Diff string // a line per difference: "path: -want +got"
}

func (e *MismatchError) Error() string {
	const max = 2000
	d := e.Diff
	if len(d) > max {
		d = d[:max] + "\n... (diff truncated)"
	}
	return "verify: decoded value differs from the original (-want +got):\n" + d
}

// A CheckError reports that the check itself failed, not the value: a
// loss of an unknown kind, or a panic while reading the values. It says
// nothing about the codec.
type CheckError struct {
	Reason string
}

func (e *CheckError) Error() string { return "verify: the check itself failed: " + e.Reason }

// Implicit are the losses Equal allows whatever a codec declares: no codec
// is expected to keep a time's monotonic reading or its zone's name, or a
// struct's unexported fields beside its exported ones.
var Implicit = []codec.Loss{{Kind: codec.Monotonic}, {Kind: codec.ZoneName}, {Kind: codec.Unexported}}

// maxDiffs is how many differences a MismatchError lists.
const maxDiffs = 10

// stacks holds walkers' stacks for reuse: a comparison in a loop of round
// trips then allocates none.
var stacks = sync.Pool{New: func() any { return make([]frame, 0, 16) }}

// Equal returns nil if got equals want modulo losses and Implicit, a
// *MismatchError listing the differences, or a *CheckError.
func Equal(want, got any, losses []codec.Loss) error {
	return Compare(want, got, append(slices.Clip(Implicit), losses...))
}

// Compare returns nil if got equals want modulo exactly losses (Implicit
// is not added), a *MismatchError listing up to ten differences, or a
// *CheckError when the comparison itself fails.
//
// Values of other types differ. Numbers are equal when they are the same
// number: -0 is not 0, and NaN equals NaN. math/big numbers compare by
// value; a time.Time by its instant, offset, zone name and monotonic
// reading; pointers by what they point at; unexported fields like the
// others. Each loss relaxes one of these (see codec.LossKind).
func Compare(want, got any, losses []codec.Loss) (err error) {
	r, err := newRules(losses)
	if err != nil {
		return &CheckError{Reason: err.Error()}
	}
	a, b := reflect.ValueOf(want), reflect.ValueOf(got)
	if !a.IsValid() || !b.IsValid() || a.Type() != b.Type() {
		if !a.IsValid() && !b.IsValid() {
			return nil
		}
		return &MismatchError{Diff: fmt.Sprintf("type: want %T, got %T", want, got)}
	}
	// A value's own methods (String, Equal) may panic: through the one
	// guard, that is a failure of the check, not of the process.
	err = codec.Guard(func() error {
		w := walker{r: r, limit: 1, stack: stacks.Get().([]frame)}
		w.run(a, b)
		clear(w.stack[:cap(w.stack)])
		stacks.Put(w.stack[:0])
		if w.found == 0 {
			return nil
		}
		w = walker{r: r, limit: maxDiffs, explain: true}
		w.run(a, b)
		return &MismatchError{Diff: strings.Join(w.diffs, "\n")}
	})
	if pe := (*codec.PanicError)(nil); errors.As(err, &pe) {
		return &CheckError{Reason: fmt.Sprintf("comparing a %T: %v", want, pe.Value)}
	}
	return err
}
