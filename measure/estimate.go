package measure

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/verify"
)

// A Cost is what one dataset shape's value costs on this machine:
// Bytes, the value's size in memory (what stands for its encoding's
// size, which only the codec knows); Build, the time of one build;
// Compare, one comparison of two builds (verify.Equal); Encode and
// Decode, one encode and one decode of it by encoding/json, which stand
// for the job's codec (unknown before it runs: codecs differ by a few
// times either way, which a preset's mix of codecs evens out); and Pass,
// the longer of a build and a comparison.
type Cost struct {
	Bytes                          int
	Pass                           time.Duration
	Build, Compare, Encode, Decode time.Duration
}

// stretched returns c as its calls last at share (machine.Stretch):
// Calibrate takes the least of a few calls, in the parent, as the
// command starts, which is near an idle machine's time; a job's calls
// run in a worker beside the machine's other work and its own
// collections (notes/noise-log.md, lead, tenth session).
func (c Cost) stretched(share float64) Cost {
	st := func(d time.Duration) time.Duration { return machine.Stretch(d, share) }
	c.Pass, c.Build, c.Compare, c.Encode, c.Decode = st(c.Pass), st(c.Build), st(c.Compare), st(c.Encode), st(c.Decode)
	return c
}

// Of returns what w's calls cost at c.
func (c Cost) Of(w runner.Work) time.Duration {
	return time.Duration(w.Builds*float64(c.Build) + w.Encodes*float64(c.Encode) + w.Decodes*float64(c.Decode) + w.Compares*float64(c.Compare))
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

// Calibrate times, on now, the calls of each kind on each dataset shape
// of jobs (a build of the value, a comparison with a second build, and
// encoding/json's encode and decode of it): what preparing and checking
// its jobs costs on this machine, as the command starts. It builds only
// the registry's datasets in the command's own process (serbench's
// generators, verify.Equal and encoding/json); a job of a user's
// document (-file) or type is left out (Predict gives it setupGuess). It
// takes about as long as preparing one job of each shape takes to build,
// encode and decode its first value.
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
		sh := dataset.Shape(j.Shape)
		var v, ref any
		build, err := least(now, func() (err error) { v, err = d.ValueAt(sh, 0); return err })
		if err != nil {
			continue
		}
		c := Cost{Bytes: Footprint(v), Pass: buildsPerPass * build, Build: build, Compare: build}
		if build < slowBuild {
			if ref, err = d.ValueAt(sh, 0); err == nil {
				c.Compare, _ = least(now, func() error { return verify.Equal(ref, v, nil) })
				c.Pass = max(c.Compare, build)
			}
		}
		c.Encode, c.Decode = jsonCosts(v, now, c.Pass)
		out[key] = c
	}
	return out
}

// jsonCosts times an encode and a decode of v (a pointer, as a dataset
// builds it) by encoding/json on now (least); where json cannot carry v,
// each is taken as pass.
func jsonCosts(v any, now func() time.Time, pass time.Duration) (enc, dec time.Duration) {
	var b []byte
	enc, err := least(now, func() (err error) { b, err = json.Marshal(v); return err })
	if err != nil {
		return pass, pass
	}
	t := reflect.TypeOf(v)
	if t.Kind() != reflect.Pointer {
		return enc, pass
	}
	dec, err = least(now, func() error { return json.Unmarshal(b, reflect.New(t.Elem()).Interface()) })
	if err != nil {
		return enc, pass
	}
	return enc, dec
}

// least times f on now, again while the calls so far took less than
// leastWithin, at most leastRuns times, and returns the least time: one
// call of a short f meets a collection or a first call's setup as often
// as not, and a long one is timed once. It stops at f's first error.
func least(now func() time.Time, f func() error) (time.Duration, error) {
	var best, spent time.Duration
	for i := 0; i < leastRuns && (i == 0 || spent < leastWithin); i++ {
		t0 := now()
		if err := f(); err != nil {
			return 0, err
		}
		d := now().Sub(t0)
		spent += d
		if i == 0 || d < best {
			best = d
		}
	}
	return best, nil
}

const (
	leastRuns   = 3
	leastWithin = 50 * time.Millisecond
)

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
	// Capped says the whole-run time (-time) bounds the measuring: what
	// it does not reach is cut short. Total is then -time and Tail, else
	// the jobs' time and Tail: what follows the jobs (the fresh
	// process's decodes, the files), stretched by Share.
	Capped bool
	Tail   time.Duration
	// Beyond names the dataset shapes whose preparation and checks cost
	// more than their budgets, and why, in a phrase each.
	Beyond []string
	// Jobs is each job's expected time, in the order of the jobs given:
	// what the progress lines weigh the jobs done by.
	Jobs []time.Duration
}

// tailGuess is what a run bounded by -time takes past its bound besides
// the fresh process's decodes: the benchmark in progress at the bound,
// the results' files and the report, on an idle machine.
const tailGuess = 2 * time.Second

// freshGuess is the fresh process's time per job of small values (its
// values built again, its encodings decoded and compared), in processes
// freshParallel at a time, on an idle machine (notes/noise-log.md, lead,
// tenth session).
const (
	freshGuess    = 200 * time.Millisecond
	freshParallel = 2
)

// calibrationCalls is how many calls of an op the runner's calibration
// makes before its first sample, when one call is long.
const calibrationCalls = 4

// sampling returns how long op samples for at c, budget being the part
// of its budget it is expected to spend (sampled): that, or, for an op
// too slow for o.MinSamples samples in its budget, MinSamples samples
// up to three budgets (runner's rule); each sample is one call, its
// verification at the sample's end (an encode's decoded and compared, a
// decode's value compared) and the collection before it (a walk of the
// heap, as long as a comparison); and the calibration's calls before.
func (c Cost) sampling(op results.Op, o runner.Options, budget time.Duration) time.Duration {
	each := c.call(op) + c.Compare + c.Compare
	if op != results.Decode {
		each += c.Decode
	}
	all := time.Duration(o.MinSamples) * each
	if all > o.Budget {
		all = min(all, max(3*o.Budget, 3*each))
	}
	return max(all, budget) + calibrationCalls*c.call(op)
}

// sampled returns the share of its budget an op is expected to sample
// for, on a machine where a busy thread gets share of a CPU (0: not
// measured, an idle machine's): sampling goes on until the samples span
// half the budget (runner.Options.MinSamples), and stops there once the
// interval is narrow, as it is on an idle machine; the busier the
// machine, the more ops sample for their whole budget.
func sampled(share float64) float64 {
	if share <= 0 || share > 1 {
		share = 1
	}
	return 0.5 + 0.5*(1-share)
}

// call returns the time of one call of op at c: an encode's, a decode's,
// or the longer for the other ops (streams, reads), which do both or
// either.
func (c Cost) call(op results.Op) time.Duration {
	switch op {
	case results.Encode:
		return c.Encode
	case results.Decode:
		return c.Decode
	}
	return max(c.Encode, c.Decode)
}

// Predict returns the forecast for measuring jobs with opts, costs
// being the calibrated costs of their dataset shapes (nil: none, each
// benchmark taking its share of its budget, sampled, and setupGuess),
// speeds the codecs' speeds against encoding/json (nil: json's), and
// share the share of a CPU measured as the command started (0: none),
// which stretches each setupGuess and the tail after -time
// (machine.Stretch) and decides how much of its budget an op samples for
// (sampled). With a cost, an op samples as Cost.sampling says, and a
// job's checks cost the calls of runner.Checks and runner.FreshWork at
// its dataset shape's calibrated times, at its codec's speed, and the
// round trips its large messages make while their budget lasts
// (runner.checkSplit) up to the budget of each op.
func Predict(jobs []runner.Job, opts runner.Options, costs Costs, speeds Speeds, share float64) Forecast {
	o := opts.WithDefaults()
	f := Forecast{Share: share}
	setup := machine.Stretch(setupGuess, share)
	beyond := map[string]time.Duration{}
	measured := 0
	for i := range jobs {
		j := &jobs[i]
		if j.Skip != "" {
			f.Jobs = append(f.Jobs, 0)
			continue
		}
		measured++
		ops := len(j.Ops)
		c, ok := costs[costKey(j)]
		c = c.For(speeds[j.Codec.Name]).stretched(share)
		sampling := time.Duration(ops) * setup
		budget := time.Duration(sampled(share) * float64(o.Budget))
		for _, op := range j.Ops {
			if ok {
				sampling += c.sampling(op, o, budget)
			} else {
				sampling += budget
			}
		}
		var checks time.Duration
		if ok {
			w := runner.Checks(c.Bytes, ops)
			checks = c.Of(w)*time.Duration(max(j.Procs, 1)) + c.Of(runner.FreshWork(c.Bytes, ops))
			checks += time.Duration(w.Bounded) * o.Budget
			if checks > sampling {
				beyond[costKey(j)] = max(beyond[costKey(j)], checks)
			}
		}
		f.Sampling += sampling
		f.Checks += checks
		f.Jobs = append(f.Jobs, sampling+checks)
	}
	f.Total = f.Sampling + f.Checks
	if f.Total > 0 {
		// After the jobs come the fresh process's decodes and the files.
		f.Tail = machine.Stretch(tailGuess+time.Duration(measured)*freshGuess/freshParallel, share)
	}
	if opts.Total > 0 && f.Total > opts.Total*firstPass/100 {
		// The first pass is squeezed into its part of -time, and the
		// refining pass spends the rest.
		f.Total, f.Capped = opts.Total, true
	}
	f.Total += f.Tail
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
