package registry_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/verify"
)

// TestReusesBuffer checks each codec's ReusesBuffer against what its
// Encode does: two encodings of one case share memory exactly when it is
// declared. The first dataset the codec prepares stands for all.
func TestReusesBuffer(t *testing.T) {
	for _, info := range registry.Codecs {
		t.Run(info.Name, func(t *testing.T) {
			c, ok := firstCase(info)
			if !ok {
				t.Skip("prepares no dataset")
			}
			a, err := c.Encode()
			if err != nil {
				t.Fatal(err)
			}
			b, err := c.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if got := len(a) > 0 && len(b) > 0 && &a[0] == &b[0]; got != info.ReusesBuffer {
				t.Errorf("two encodings share memory: %v; ReusesBuffer declares %v", got, info.ReusesBuffer)
			}
		})
	}
}

// firstCase prepares the codec's case of the first dataset it encodes.
func firstCase(info codec.Info) (codec.Case, bool) {
	for _, d := range dataset.All {
		v, err := d.Value(dataset.Single)
		if err != nil {
			continue
		}
		if c, err := info.New().Prepare(v); err == nil {
			if _, err := c.Encode(); err == nil {
				return c, true
			}
		}
	}
	return nil, false
}

// TestReloader checks that each codec whose Encode keeps its buffer
// (ReusesBuffer) encodes a value changed in place after a first Encode:
// by reading its value at each Encode, or, for a case that converted it
// when prepared, after codec.Reloader's Reload. The runner's checks hold
// such a case's later Encodes so (runner's encodeChanged). The first
// dataset the codec prepares stands for all.
func TestReloader(t *testing.T) {
	for _, info := range registry.Codecs {
		if !info.ReusesBuffer {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			c, d, ok := firstPrepared(info)
			if !ok {
				t.Skip("prepares no dataset")
			}
			if _, err := c.Encode(); err != nil {
				t.Fatal(err)
			}
			next, err := d.ValueAt(dataset.Single, 1)
			if err != nil {
				t.Fatal(err)
			}
			reflect.ValueOf(c.value).Elem().Set(reflect.ValueOf(next).Elem())
			if r, ok := c.Case.(codec.Reloader); ok {
				if err := r.Reload(); err != nil {
					t.Fatal(err)
				}
			}
			enc, err := c.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Decode(slices.Clone(enc)); err != nil {
				t.Fatal(err)
			}
			got, err := c.Value()
			if err != nil {
				t.Fatal(err)
			}
			if err := verify.Equal(next, got, info.Losses); err != nil {
				_, reloads := c.Case.(codec.Reloader)
				t.Errorf("the value changed in place after the first Encode, the next Encode (Reloader: %v) did not encode it: %v", reloads, err)
			}
		})
	}
}

// A preparedCase is a case and the value it was prepared on.
type preparedCase struct {
	codec.Case
	value any
}

// firstPrepared prepares the codec's case of the single shape of the
// first dataset it encodes, and returns the dataset.
func firstPrepared(info codec.Info) (preparedCase, *dataset.Dataset, bool) {
	for _, d := range dataset.All {
		v, err := d.Value(dataset.Single)
		if err != nil {
			continue
		}
		if c, err := info.New().Prepare(v); err == nil {
			if _, err := c.Encode(); err == nil {
				return preparedCase{c, v}, d, true
			}
		}
	}
	return preparedCase{}, nil, false
}
