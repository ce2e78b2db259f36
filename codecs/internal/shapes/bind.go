package shapes

import (
	"errors"

	"github.com/serbench/serbench/codec"
)

// A Binding is a dataset value converted to a generated message of type M
// (an interface the generated pointer types implement: proto.Message,
// thrift.TStruct), with what a codec needs to decode fresh messages of its
// type and convert them back.
type Binding[M any] struct {
	// Msg is the dataset value as a message.
	Msg M
	// New returns a new empty message of Msg's type to decode into.
	New func() M
	// Value converts a decoded message back to the dataset type: a pointer
	// of the type handed to Prepare.
	Value func(M) any
}

// BindSingle returns the binding of a *T of dataset type T, whose message
// is *X: to and from convert between them. *X must implement M.
func BindSingle[M, T, X any](to func(*T) *X, from func(*X) T) func(*T) Binding[M] {
	newM := func() M { return any(new(X)).(M) }
	return func(t *T) Binding[M] {
		return Binding[M]{Msg: any(to(t)).(M), New: newM, Value: func(m M) any {
			t := from(any(m).(*X))
			return &t
		}}
	}
}

// Bind returns the Type of dataset type T in all three shapes: its message
// is *X, and its list message *L, which wrap builds and items reads. *X
// and *L must implement M.
func Bind[M, T, X, L any](to func(*T) *X, from func(*X) T, wrap func([]*X) *L, items func(*L) []*X) Type[Binding[M]] {
	newL := func() M { return any(new(L)).(M) }
	return All(BindSingle[M](to, from),
		func(v *[]T) Binding[M] {
			return Binding[M]{Msg: any(wrap(SliceTo(*v, to))).(M), New: newL, Value: func(m M) any {
				s := SliceFrom(items(any(m).(*L)), from)
				return &s
			}}
		},
		func(v *[]*T) Binding[M] {
			return Binding[M]{Msg: any(wrap(PtrSliceTo(*v, to))).(M), New: newL, Value: func(m M) any {
				s := PtrSliceFrom(items(any(m).(*L)), from)
				return &s
			}}
		})
}

// SliceTo converts a slice of values. A nil slice stays nil.
func SliceTo[T, M any](s []T, to func(*T) M) []M {
	if s == nil {
		return nil
	}
	out := make([]M, len(s))
	for i := range s {
		out[i] = to(&s[i])
	}
	return out
}

// PtrSliceTo converts a slice of pointers; a nil element stays nil.
func PtrSliceTo[T, M any](s []*T, to func(*T) M) []M {
	if s == nil {
		return nil
	}
	out := make([]M, len(s))
	for i, p := range s {
		if p != nil {
			out[i] = to(p)
		}
	}
	return out
}

// SliceFrom converts decoded messages back to values. A nil slice (an
// absent field) stays nil.
func SliceFrom[T, M any](s []M, from func(M) T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i, m := range s {
		out[i] = from(m)
	}
	return out
}

// PtrSliceFrom converts decoded messages back to pointers.
func PtrSliceFrom[T, M any](s []M, from func(M) T) []*T {
	if s == nil {
		return nil
	}
	out := make([]*T, len(s))
	for i, m := range s {
		t := from(m)
		out[i] = &t
	}
	return out
}

// PtrTo converts a pointer to a struct into a message field: nil stays
// nil.
func PtrTo[T, M any](p *T, to func(*T) M) M {
	if p == nil {
		var zero M
		return zero
	}
	return to(p)
}

// PtrFrom converts a message field back to a pointer: an absent message
// is nil.
func PtrFrom[T any, M comparable](m M, from func(M) T) *T {
	var zero M
	if m == zero {
		return nil
	}
	t := from(m)
	return &t
}

// MapTo converts a map's values. A nil map stays nil.
func MapTo[K comparable, V, M any](m map[K]V, to func(V) M) map[K]M {
	if m == nil {
		return nil
	}
	out := make(map[K]M, len(m))
	for k, v := range m {
		out[k] = to(v)
	}
	return out
}

// NewCase returns the Case of the binding bind makes of the value handed
// to Prepare: Encode calls marshal with the bound message and a buffer
// kept across messages (marshal may append to it or ignore it); Decode
// calls unmarshal into a new message; Value converts the last one
// decoded. The case is a codec.Reloader: Reload calls bind again.
func NewCase[M any](bind func() (Binding[M], error), marshal func(m M, buf []byte) ([]byte, error), unmarshal func(m M, data []byte) error) (codec.Case, error) {
	c := &bindingCase[M]{bind: bind, marshal: marshal, unmarshal: unmarshal}
	if err := c.Reload(); err != nil {
		return nil, err
	}
	return c, nil
}

type bindingCase[M any] struct {
	bind      func() (Binding[M], error)
	b         Binding[M]
	marshal   func(M, []byte) ([]byte, error)
	unmarshal func(M, []byte) error
	buf       []byte
	out       M
	decoded   bool
}

// Reload binds the value handed to Prepare again, as it is now; the
// buffer Encode writes into is kept.
func (c *bindingCase[M]) Reload() error {
	b, err := c.bind()
	if err != nil {
		return err
	}
	c.b = b
	return nil
}

func (c *bindingCase[M]) Encode() ([]byte, error) {
	b, err := c.marshal(c.b.Msg, c.buf[:0])
	c.buf = b
	return b, err
}

func (c *bindingCase[M]) Decode(data []byte) error {
	c.out, c.decoded = c.b.New(), true
	return c.unmarshal(c.out, data)
}

func (c *bindingCase[M]) Value() (any, error) {
	if !c.decoded {
		return nil, errors.New("shapes: Value called before Decode")
	}
	return c.b.Value(c.out), nil
}
