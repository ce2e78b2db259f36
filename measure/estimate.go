package measure

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/verify"
)

// A Cost is what one pass over a dataset shape's value costs on this
// machine: Bytes, the value's size in memory (what stands for its
// encoding's size, which only the codec knows), and Pass, the time of one
// walk of it (comparing two builds with verify.Equal), which a build, an
// encode or a decode of it costs about as much as.
type Cost struct {
	Bytes int
	Pass  time.Duration
}

// Costs are the costs of the dataset shapes of a command's jobs, by
// "dataset/shape" (costKey).
type Costs map[string]Cost

func costKey(j *runner.Job) string { return j.Dataset + "/" + j.Shape }

// slowBuild: a value whose one build takes longer is not built a second
// time to be compared; its pass is taken as buildsPerPass builds.
const (
	slowBuild     = time.Second
	buildsPerPass = 4
)

// Calibrate times, on now, one pass over each dataset shape of jobs (a
// build of the value, and a comparison with a second build): what
// preparing and checking its jobs costs on this machine, as the command
// starts. It builds only the registry's datasets in the command's own
// process (serbench's generators and verify.Equal, no codec); a job of a
// user's document (-file) or type is left out (Predict gives it
// setupGuess). It takes about as long as preparing one job of each shape
// takes to build its first value.
func Calibrate(jobs []runner.Job, now func() time.Time) Costs {
	return CalibrateSaying(jobs, now, func(string) {})
}

// CalibrateSaying is Calibrate that calls say with the dataset shape it
// is about to time, so that a command can tell what it does while a
// huge value is built on a loaded machine.
func CalibrateSaying(jobs []runner.Job, now func() time.Time, say func(shape string)) Costs {
	out := Costs{}
	for i := range jobs {
		j := &jobs[i]
		key := costKey(j)
		if _, ok := out[key]; ok || j.Skip != "" {
			continue
		}
		d, err := dataset.Lookup(j.Dataset)
		if err != nil || !d.Has(dataset.Shape(j.Shape)) {
			continue
		}
		say(key)
		t0 := now()
		v, err := d.ValueAt(dataset.Shape(j.Shape), 0)
		build := now().Sub(t0)
		if err != nil {
			continue
		}
		c := Cost{Bytes: Footprint(v), Pass: buildsPerPass * build}
		if build < slowBuild {
			ref, err := d.ValueAt(dataset.Shape(j.Shape), 0)
			if err == nil {
				t0 = now()
				_ = verify.Equal(ref, v, nil)
				c.Pass = max(now().Sub(t0), build)
			}
		}
		out[key] = c
	}
	return out
}

// Footprint returns about the size in bytes of v's data: its numbers,
// strings and byte slices, through pointers, slices, maps and
// interfaces: what stands for the size of an encoding of v.
func Footprint(v any) int { return footprint(reflect.ValueOf(v), 0) }

func footprint(v reflect.Value, depth int) int {
	if !v.IsValid() || depth > 64 {
		return 0
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 1
		}
		return footprint(v.Elem(), depth+1)
	case reflect.String:
		return v.Len() + 1
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Len() + 1
		}
		n := 1
		for i := range v.Len() {
			n += footprint(v.Index(i), depth+1)
		}
		return n
	case reflect.Map:
		n := 1
		for it := v.MapRange(); it.Next(); {
			n += footprint(it.Key(), depth+1) + footprint(it.Value(), depth+1)
		}
		return n
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += footprint(v.Field(i), depth+1)
		}
		return n
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return 1
	}
	return int(v.Type().Size())
}

// A Forecast is a command's estimate and what it is made of.
type Forecast struct {
	// Total is the wall time the command is expected to take.
	Total time.Duration
	// Sampling is the benchmarks' budgets and their setup (setupGuess
	// each, stretched by Share); Checks is preparing and checking their
	// values, from the calibrated costs (zero without them).
	Sampling, Checks time.Duration
	// Share is the share of a CPU the command measured as it started
	// (machine.MeasureShare; 0: none measured), which stretches the
	// setup, CPU work whose cost was set on an idle machine
	// (machine.Stretch). The checks were timed at it already.
	Share float64
	// Capped says the whole-run time (-time) bounds Total: what it does
	// not reach is cut short.
	Capped bool
	// Beyond names the dataset shapes whose preparation and checks cost
	// more than their budgets, and why, in a phrase each.
	Beyond []string
	// Jobs is each job's expected time, in the order of the jobs given:
	// what the progress lines weigh the jobs done by.
	Jobs []time.Duration
}

// Predict returns the forecast for measuring jobs with opts, costs
// being the calibrated costs of their dataset shapes (nil: none, each
// benchmark taking setupGuess beyond its budget) and share the share of
// a CPU measured as the command started (0: none), which stretches each
// setupGuess (machine.Stretch). A job's checks cost
// runner.Passes of its value's Pass, and the round trips its large
// messages make while their budget lasts (runner.checkSplit) up to the
// budget of each op.
func Predict(jobs []runner.Job, opts runner.Options, costs Costs, share float64) Forecast {
	o := opts.WithDefaults()
	f := Forecast{Share: share}
	setup := machine.Stretch(setupGuess, share)
	beyond := map[string]time.Duration{}
	for i := range jobs {
		j := &jobs[i]
		if j.Skip != "" {
			f.Jobs = append(f.Jobs, 0)
			continue
		}
		ops := len(j.Ops)
		sampling := time.Duration(ops) * (o.Budget + setup)
		var checks time.Duration
		if c, ok := costs[costKey(j)]; ok {
			passes, bounded := runner.Passes(c.Bytes, ops)
			pools := max(j.Procs, 1)
			checks = time.Duration(passes * float64(c.Pass) * float64(pools))
			if bounded > 0 {
				checks += time.Duration(bounded) * o.Budget
			}
			if checks > sampling {
				beyond[costKey(j)] = max(beyond[costKey(j)], checks)
			}
		}
		f.Sampling += sampling
		f.Checks += checks
		f.Jobs = append(f.Jobs, sampling+checks)
	}
	f.Total = f.Sampling + f.Checks
	if f.Total > 0 && opts.Total > 0 {
		f.Total, f.Capped = opts.Total+overrun(opts.Total), true
	}
	keys := make([]string, 0, len(beyond))
	for k := range beyond {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		f.Beyond = append(f.Beyond, fmt.Sprintf("%s (a value of about %s: %v a job)", k, sizeText(costs[k].Bytes), beyond[k].Round(time.Second)))
	}
	return f
}

// Why says, in a sentence, why the forecast's checks cost more than the
// sampling budgets, or "" when they do not.
func (f Forecast) Why() string {
	if len(f.Beyond) == 0 {
		return ""
	}
	return fmt.Sprintf("preparing and checking %s costs more than sampling it: each build, encoding, decoding and comparison of a value that large takes "+
		"a large part of a second or more, and the checks need a few of each whatever the budget", strings.Join(f.Beyond, ", "))
}

// sizeText formats a byte count for a sentence: "14 MB", "280 kB", "52 B".
func sizeText(n int) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
