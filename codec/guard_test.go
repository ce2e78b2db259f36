package codec_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
)

// TestGuard: a call that returns gives its value and error; one that
// panics gives a *PanicError with the value and the stack from the panic.
func TestGuard(t *testing.T) {
	plain := errors.New("plain")
	for _, tc := range []struct {
		name  string
		f     func() (int, error)
		want  int
		err   error
		panic string
	}{
		{"value", func() (int, error) { return 7, nil }, 7, nil, ""},
		{"error", func() (int, error) { return 0, plain }, 0, plain, ""},
		{"panic", func() (int, error) { panic("boom") }, 0, nil, "boom"},
		{"nil map", func() (int, error) { var m map[string]int; m["a"] = 1; return 1, nil }, 0, nil, "assignment to entry in nil map"},
	} {
		v, err := codec.GuardValue(tc.f)
		var pe *codec.PanicError
		switch {
		case v != tc.want:
			t.Errorf("%s: value %d, want %d", tc.name, v, tc.want)
		case tc.panic == "" && err != tc.err:
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.err)
		case tc.panic != "" && (!errors.As(err, &pe) || !strings.Contains(pe.Error(), tc.panic) || !strings.Contains(pe.Stack, "guard_test.go")):
			t.Errorf("%s: error %v, want a PanicError of %q with the stack", tc.name, err, tc.panic)
		}
	}
}
