package fidelity_test

import (
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
)

// TestExcess: no registered codec declares a precision loss larger than
// what the probes observe, and one that does is named with the probe:
// json declaring an hour's time precision, or one float digit, on values
// that come back exact; a registered codec declaring its true loss
// coarser (a second's or a microsecond's precision declared as an hour) too.
func TestExcess(t *testing.T) {
	for _, c := range registry.Codecs {
		for _, l := range c.Losses {
			if l.Kind == codec.TimePrecision || l.Kind == codec.FloatPrecision {
				if got := fidelity.Excess(c); got != nil {
					t.Errorf("%s: %q, want its declarations believed", c.Name, got)
				}
				break
			}
		}
	}
	json, err := registry.Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		loss codec.Loss
		want string
	}{
		{codec.Loss{Kind: codec.TimePrecision, Precision: time.Hour}, "declares time-precision(1h0m0s), but probe time-nanos comes back exact"},
		{codec.Loss{Kind: codec.FloatPrecision, Digits: 1}, "declares float-precision(1), but probe float-full comes back exact"},
	} {
		c := json
		c.Losses = []codec.Loss{tc.loss}
		if got := fidelity.Excess(c); len(got) != 1 || !strings.Contains(got[0], tc.want) {
			t.Errorf("json declaring %s: %q, want %q", tc.loss, got, tc.want)
		}
	}
	for _, c := range registry.Codecs {
		for i, l := range c.Losses {
			if l.Kind != codec.TimePrecision || l.Precision >= time.Second {
				continue
			}
			c.Losses = append([]codec.Loss(nil), c.Losses...)
			c.Losses[i].Precision = time.Hour
			if got := fidelity.Excess(c); len(got) != 1 || !strings.Contains(got[0], "but probe time-nanos comes back within") {
				t.Errorf("%s declaring an hour for its %v: %q, want the probe's precision", c.Name, l.Precision, got)
			}
			return // one such codec is enough
		}
	}
}
