package codec

import (
	"bytes"
	"fmt"
	"runtime/debug"
)

// A PanicError is a panic in a call Guard made, recovered: the value
// panicked with and the first frames of the stack from the panic on.
type PanicError struct {
	Value any
	Stack string
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// maxStack is how much of a panic's stack a PanicError keeps.
const maxStack = 1200

// Guard calls f and returns its error, or a *PanicError when f panics:
// the one guard of every call into a codec (a study's cell, a check, the
// runner's timed batches), so that a codec's panic is recorded the same
// way everywhere and a caller never writes its own recover.
func Guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			if i := bytes.Index(stack, []byte("panic(")); i > 0 {
				stack = stack[i:]
			}
			if len(stack) > maxStack {
				stack = append(stack[:maxStack:maxStack], "..."...)
			}
			err = &PanicError{Value: p, Stack: string(stack)}
		}
	}()
	return f()
}

// GuardValue is Guard for a call that returns a value; the value is zero
// when f panics.
func GuardValue[T any](f func() (T, error)) (T, error) {
	var v T
	err := Guard(func() error {
		var err error
		v, err = f()
		return err
	})
	return v, err
}
