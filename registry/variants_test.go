package registry_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
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
