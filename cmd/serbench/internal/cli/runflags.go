package cli

import (
	"flag"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// A flagRange is the range of a flag: left out, the flag takes its
// default; given, it must lie within its range, zero included. This is the
// one statement of each range: help texts print it and checkRanges
// enforces it for every command. TestFlagRanges holds the run flags' to
// runner.Options.Validate.
type flagRange struct {
	lo, hi float64 // hi 0: no maximum
	dur    bool    // lo and hi are in nanoseconds
	size   bool    // lo and hi are in bytes
}

var flagRanges = map[string]flagRange{
	"target":    {lo: 0.001, hi: 1},
	"budget":    {lo: float64(10 * time.Millisecond), hi: float64(10 * time.Minute), dur: true},
	"sample":    {lo: float64(time.Millisecond), hi: float64(10 * time.Second), dur: true},
	"batch":     {lo: float64(time.Microsecond), dur: true}, // and at most -sample: runner.Options.Validate
	"timeout":   {lo: float64(time.Second), dur: true},
	"parallel":  {lo: 1, hi: 64},
	"runs":      {lo: 1, hi: 100},
	"cpu":       {lo: 1, hi: 1024},                                    // each GOMAXPROCS listed
	"live-heap": {lo: 0, hi: float64(runner.MaxLiveHeap), size: true}, // and below the machine's memory
	// runner.Options' MinSamples and MaxSamples: 0 is not "the default".
	"max-samples": {lo: 6, hi: 10000},
}

// listFlags are the flags that name things, comma-separated: given, each
// must name at least one (-codecs , is a mistake, not "all").
var listFlags = map[string]string{
	"codecs": "codecs", "datasets": "datasets", "shapes": "shapes", "ops": "ops",
	"classes": "classes", "probes": "probes", "cases": "cases", "claims": "claims",
}

// machineMemory is the machine's memory in bytes, 0 when unknown; a test
// sets it.
var machineMemory = worker.PhysicalMemory

// format formats x, a bound of r.
func (r flagRange) format(x float64) string {
	switch {
	case r.size && x >= 1<<30 && math.Mod(x, 1<<30) == 0: // "64GiB"
		return fmt.Sprintf("%.0fGiB", x/(1<<30))
	case r.size && x >= 1<<30:
		return fmt.Sprintf("%.1fGiB", x/(1<<30))
	case r.dur: // "10m", not "10m0s"
		s := time.Duration(x).String()
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		return s
	}
	return fmt.Sprint(x)
}

func (r flagRange) String() string {
	f := r.format
	if r.hi == 0 {
		return fmt.Sprintf("[%s, ∞)", f(r.lo))
	}
	return fmt.Sprintf("[%s, %s]", f(r.lo), f(r.hi))
}

// checkRanges checks the flags given on the command line against their
// ranges: a zero or negative -budget, -sample, -batch, -target, -timeout
// or -parallel is a mistake, not a request for the default, every
// GOMAXPROCS of -cpu is in its range, and -pin names a CPU of this
// machine.
func checkRanges(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if f.Name == "pin" {
			err = checkPin(f.Value.(flag.Getter).Get().(int))
			return
		}
		if what, ok := listFlags[f.Name]; ok {
			if len(splitList(f.Value.String())) == 0 {
				err = usagef("-%s %q names no %s: give at least one (see serbench list %s), or leave -%s out for the default", f.Name, f.Value.String(), what, what, f.Name)
			}
			return
		}
		r, ok := flagRanges[f.Name]
		if !ok {
			return
		}
		var vs []float64
		switch x := f.Value.(flag.Getter).Get().(type) {
		case time.Duration:
			vs = []float64{float64(x)}
		case float64:
			vs = []float64{x}
		case int:
			vs = []float64{float64(x)}
		case int64:
			vs = []float64{float64(x)}
		case []int:
			for _, n := range x {
				vs = append(vs, float64(n))
			}
		}
		for _, v := range vs {
			if v < r.lo || r.hi != 0 && v > r.hi {
				err = usagef("-%s %s out of range %s: give a value within it, or leave -%s out for its default", f.Name, f.Value, r, f.Name)
				return
			}
		}
		if mem := machineMemory(); r.size && f.Name == "live-heap" && mem > 0 && vs[0] >= float64(mem) {
			err = usagef("-live-heap %s is not below this machine's memory (%s): every measuring process keeps it alive beside its work; give less",
				r.format(vs[0]), r.format(float64(mem)))
		}
	})
	return err
}

// checkPin checks a -pin value: a CPU of this machine, numbered from 0, or
// -1 for no pinning.
func checkPin(cpu int) error {
	switch {
	case cpu == -1:
		return nil
	case runtime.GOOS != "linux":
		return usagef("-pin works on Linux only; leave it out")
	case cpu < -1 || cpu >= runtime.NumCPU():
		return usagef("-pin %d out of range: this machine's CPUs are 0 to %d (-1: no pinning)", cpu, runtime.NumCPU()-1)
	}
	return nil
}
