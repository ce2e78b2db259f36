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
		"target": func(o *runner.Options, v float64) { o.Target = v },
		"budget": func(o *runner.Options, v float64) { o.Budget = time.Duration(v) },
		"sample": func(o *runner.Options, v float64) { o.SampleTime = time.Duration(v) },
		"batch":  func(o *runner.Options, v float64) { o.BatchTime = time.Duration(v) },
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
