package mirror

import (
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
)

// A Table maps the type of each dataset value handed to Prepare (*T, *[]T,
// *[]*T) to the function that prepares a case over its mirror. mirrorgen
// writes one into each adapter package. A Table is the adapter's Codec.
type Table map[reflect.Type]func(v any) (codec.Case, error)

// Prepare prepares a case for v through its mirror, or reports v
// unsupported when the table has no mirror for its type.
func (t Table) Prepare(v any) (codec.Case, error) {
	if p, ok := t[reflect.TypeOf(v)]; ok {
		return p(v)
	}
	if _, err := codec.PointerElem(v); err != nil {
		return nil, err
	}
	return nil, codec.Unsupported(v, "no code generated for it: mirror types exist for the dataset types only")
}

// Marshal appends the encoding of m to dst and returns the extended
// buffer. A library whose API allocates its own buffer ignores dst.
type Marshal[M any] func(m *M, dst []byte) ([]byte, error)

// Unmarshal decodes data into the zero value *m.
type Unmarshal[M any] func(m *M, data []byte) error

// A Case is a codec.Case that can convert its value again (NewCase).
type Case interface {
	codec.Case
	codec.Reloader
}

// NewCase returns a Case for v, which must be a *D: it copies *v into
// a new mirror value M here, outside the timer; Encode marshals that mirror
// into a buffer kept across calls, Decode unmarshals into a fresh M, and
// Value copies the last decoded M back into a new D. The case is a
// codec.Reloader: Reload copies *v, changed in place, into a new mirror.
func NewCase[D, M any](v any, marshal Marshal[M], unmarshal Unmarshal[M]) (Case, error) {
	d, ok := v.(*D)
	if !ok {
		return nil, fmt.Errorf("mirror: case for %T handed a %T", d, v)
	}
	c := &mirrorCase[D, M]{d: d, marshal: marshal, unmarshal: unmarshal}
	if err := c.Reload(); err != nil {
		return nil, err
	}
	return c, nil
}

type mirrorCase[D, M any] struct {
	d         *D // the value handed to Prepare
	v         *M // d copied into its mirror
	buf       []byte
	out       *M
	marshal   Marshal[M]
	unmarshal Unmarshal[M]
}

// Reload copies the value handed to Prepare into a new mirror; the buffer
// Encode writes into is kept.
func (c *mirrorCase[D, M]) Reload() error {
	m := new(M)
	if err := Copy(m, c.d); err != nil {
		return err
	}
	c.v = m
	return nil
}

func (c *mirrorCase[D, M]) Encode() ([]byte, error) {
	var err error
	c.buf, err = c.marshal(c.v, c.buf[:0])
	return c.buf, err
}

func (c *mirrorCase[D, M]) Decode(data []byte) error {
	c.out = new(M)
	return c.unmarshal(c.out, data)
}

func (c *mirrorCase[D, M]) Value() (any, error) {
	if c.out == nil {
		return nil, fmt.Errorf("mirror: Value called before Decode")
	}
	d := new(D)
	if err := Copy(d, c.out); err != nil {
		return nil, err
	}
	return d, nil
}
