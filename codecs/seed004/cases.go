package seed004

import (
	"errors"
	"fmt"
)

// The cases. Each loop calls the article's function directly n times (a
// decode loop walks the runner's order of the messages, without a division
// per call) and keeps its results in locals, storing only the last (the
// check after timing reads it), so the results of the other calls are as free to stay
// on the stack, or in registers, as in a testing.B loop.

// value returns a decoded int as the *int64 handed to Prepare.
func value(out int) (any, error) { v := int64(out); return &v, nil }

// errShort: EncodingReadInt reads 8 bytes and panics on fewer.
var errShort = errors.New("seed004: need 8 bytes")

type byteOrderCase struct {
	v, out int
	sink   byte // keeps the discarded results live
}

func (c *byteOrderCase) Encode() ([]byte, error) { return EncodingWriteInt(c.v), nil }

func (c *byteOrderCase) Decode(data []byte) error {
	if len(data) < 8 {
		return errShort
	}
	c.out = EncodingReadInt(data)
	return nil
}

func (c *byteOrderCase) Value() (any, error) { return value(c.out) }

func (c *byteOrderCase) EncodeLoop(n int) ([]byte, error) {
	var sink byte
	for range n - 1 {
		sink ^= EncodingWriteInt(c.v)[0]
	}
	last := EncodingWriteInt(c.v)
	c.sink = sink
	return last, nil
}

func (c *byteOrderCase) DecodeLoop(n int, msgs [][]byte, order []int) error {
	for _, m := range msgs {
		if len(m) < 8 {
			return errShort
		}
	}
	out := 0
	for left := n; left > 0; left -= len(order) {
		for _, k := range order[:min(left, len(order))] {
			out = EncodingReadInt(msgs[k])
		}
	}
	c.out = out
	return nil
}

type strconvCase struct {
	v, out int
	sink   byte // keeps the discarded results live
}

func (c *strconvCase) Encode() ([]byte, error) { return StrWriteInt(c.v), nil }

func (c *strconvCase) Decode(data []byte) (err error) {
	c.out, err = StrReadInt(data)
	return err
}

func (c *strconvCase) Value() (any, error) { return value(c.out) }

func (c *strconvCase) EncodeLoop(n int) ([]byte, error) {
	var sink byte
	for range n - 1 {
		sink ^= StrWriteInt(c.v)[0]
	}
	last := StrWriteInt(c.v)
	c.sink = sink
	return last, nil
}

func (c *strconvCase) DecodeLoop(n int, msgs [][]byte, order []int) (err error) {
	out := 0
	for left := n; left > 0; left -= len(order) {
		for _, k := range order[:min(left, len(order))] {
			if out, err = StrReadInt(msgs[k]); err != nil {
				return err
			}
		}
	}
	c.out = out
	return nil
}

type binaryCase struct{ v, out int }

func (c *binaryCase) Encode() ([]byte, error) { return BinaryWriteInt(c.v) }

func (c *binaryCase) Decode(data []byte) (err error) {
	c.out, err = BinaryReadInt(data)
	return err
}

func (c *binaryCase) Value() (any, error) { return value(c.out) }

func (c *binaryCase) EncodeLoop(n int) ([]byte, error) {
	for range n - 1 {
		if _, err := BinaryWriteInt(c.v); err != nil {
			return nil, err
		}
	}
	return BinaryWriteInt(c.v)
}

func (c *binaryCase) DecodeLoop(n int, msgs [][]byte, order []int) (err error) {
	out := 0
	for left := n; left > 0; left -= len(order) {
		for _, k := range order[:min(left, len(order))] {
			if out, err = BinaryReadInt(msgs[k]); err != nil {
				return err
			}
		}
	}
	c.out = out
	return nil
}

type gobCase struct{ v, out int }

func (c *gobCase) Encode() ([]byte, error) { return GobWriteInt(c.v) }

func (c *gobCase) Decode(data []byte) (err error) {
	c.out, err = GobReadInt(data)
	if err != nil {
		return fmt.Errorf("seed004-gob: %w", err)
	}
	return nil
}

func (c *gobCase) Value() (any, error) { return value(c.out) }

func (c *gobCase) EncodeLoop(n int) ([]byte, error) {
	for range n - 1 {
		if _, err := GobWriteInt(c.v); err != nil {
			return nil, err
		}
	}
	return GobWriteInt(c.v)
}

func (c *gobCase) DecodeLoop(n int, msgs [][]byte, order []int) (err error) {
	out := 0
	for left := n; left > 0; left -= len(order) {
		for _, k := range order[:min(left, len(order))] {
			if out, err = GobReadInt(msgs[k]); err != nil {
				return err
			}
		}
	}
	c.out = out
	return nil
}
