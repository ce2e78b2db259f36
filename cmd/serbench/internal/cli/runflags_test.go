package cli

import (
	"testing"
	"time"

	"github.com/serbench/serbench/runner"
)

// TestFlagRanges holds the ranges the run flags are checked against to
// the ranges runner.Options.Validate enforces: each bound is accepted,
// and a value just beyond it refused.
func TestFlagRanges(t *testing.T) {
	set := map[string]func(*runner.Options, float64){
		"target":      func(o *runner.Options, v float64) { o.Target = v },
		"budget":      func(o *runner.Options, v float64) { o.Budget = time.Duration(v) },
		"sample":      func(o *runner.Options, v float64) { o.SampleTime = time.Duration(v) },
		"batch":       func(o *runner.Options, v float64) { o.BatchTime = time.Duration(v) },
		"live-heap":   func(o *runner.Options, v float64) { o.LiveHeap = int64(v) },
		"max-samples": func(o *runner.Options, v float64) { o.MaxSamples = int(v) },
	}
	for name, r := range flagRanges {
		setter, ok := set[name]
		if !ok {
			continue // -timeout and -parallel are the worker pool's, not runner options
		}
		step := 1.0 // a nanosecond
		if !r.dur {
			step = r.lo / 1000
		}
		if step == 0 || name == "max-samples" {
			step = 1 // a byte, a sample
		}
		validate := func(v float64) error {
			var o runner.Options
			setter(&o, v)
			return o.Validate()
		}
		if err := validate(r.lo); err != nil {
			t.Errorf("-%s: its minimum %v is refused: %v", name, r.lo, err)
		}
		if validate(r.lo-step) == nil {
			t.Errorf("-%s: runner accepts %v, below the flag's minimum %v", name, r.lo-step, r.lo)
		}
		if r.hi != 0 {
			if err := validate(r.hi); err != nil {
				t.Errorf("-%s: its maximum %v is refused: %v", name, r.hi, err)
			}
			if validate(r.hi+step) == nil {
				t.Errorf("-%s: runner accepts %v, above the flag's maximum %v", name, r.hi+step, r.hi)
			}
		}
	}
}

func TestByteSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		err  bool
	}{{"256MB", 256e6, false}, {"1GiB", 1 << 30, false}, {"4096", 4096, false}, {"64 KiB", 64 << 10, false}, {"0", 0, false},
		{"lots", 0, true}, {"5TB", 0, true}, {"-1MB", 0, true}} {
		var b byteSize
		err := b.Set(tt.in)
		if (err != nil) != tt.err || !tt.err && int64(b) != tt.want {
			t.Errorf("Set(%q) = %d, %v; want %d (error %v)", tt.in, b, err, tt.want, tt.err)
		}
	}
}

func TestCPUListFlag(t *testing.T) {
	var l cpuList
	if err := l.Set("1, 2,4"); err != nil || l.String() != "1,2,4" {
		t.Errorf("Set(\"1, 2,4\") = %v, %v", l, err)
	}
	for _, bad := range []string{"", "one", "2,2"} {
		if err := l.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}
