// Package slow is the rival a planted rewriter puts in a registry entry's
// place: a codec whose every Encode and Decode sleeps a millisecond first.
// planted's rewriter and planted/registryinit share it; the latter cannot
// import planted, which the registry's tests would then import in a cycle.
package slow

import (
	"time"

	"github.com/serbench/serbench/codec"
)

// Codec returns c made slower.
func Codec(c codec.Codec) codec.Codec { return slowed{c} }

type slowed struct{ codec.Codec }

func (s slowed) Prepare(v any) (codec.Case, error) {
	c, err := s.Codec.Prepare(v)
	if err != nil {
		return c, err
	}
	return &slowedCase{c}, nil
}

type slowedCase struct{ codec.Case }

func (c *slowedCase) Encode() ([]byte, error) {
	time.Sleep(time.Millisecond)
	return c.Case.Encode()
}

func (c *slowedCase) Decode(b []byte) error {
	time.Sleep(time.Millisecond)
	return c.Case.Decode(b)
}
