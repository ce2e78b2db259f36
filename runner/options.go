package runner

import (
	"fmt"
	"github.com/serbench/serbench/machine"
	"runtime"
	"time"

	"github.com/serbench/serbench/results"
)

// Options controls measuring. The zero value of each field means its
// default; Validate reports values out of range.
type Options struct {
	// Target is the relative half-width of the median's confidence
	// interval at which sampling stops. Default 0.03, range [0.001, 1].
	Target float64
	// Confidence is the confidence level of the interval. Default 0.95,
	// range [0.5, 0.999].
	Confidence float64
	// SampleTime is the wall time one sample aims for. Default 10ms,
	// range [1ms, 10s].
	SampleTime time.Duration
	// BatchTime is the wall time of one timed run of the loop: calibration
	// grows the iteration count to it, and a sample runs batches of that
	// count until SampleTime has passed, so that a sample's length
	// follows SampleTime whatever the operation's speed. An operation
	// slower than BatchTime is timed one call per batch. Default 50µs,
	// range [1µs, SampleTime].
	BatchTime time.Duration
	// Budget is the wall time one benchmark may spend sampling once
	// calibrated: its samples, those set aside as busy, the collections
	// before them, the gauge's probes and its share of the waits for a
	// quiet phase. An operation too slow for MinSamples samples in one
	// budget gets three for three samples. Default 1s, range [10ms, 10m].
	Budget time.Duration
	// MinSamples is the number of samples taken before the interval is
	// checked; sampling also goes on until the samples span half of
	// Budget in wall time, so that they do not all fall in one phase of a
	// shared machine. Default 6 (the fewest for a 95% interval), range [1, 1000].
	MinSamples int
	// MaxSamples caps the samples per benchmark. Default 10000, so that
	// the budget is what ends sampling (a 6s budget of 5ms samples holds
	// at most 1,200); range [MinSamples, 10000]. A lower cap stops the
	// noisiest benchmarks before their budget is spent, their intervals
	// still wide.
	MaxSamples int
	// NoInterleave samples each job's benchmarks on their own, one job
	// after the other, instead of interleaving the samples of a dataset
	// shape's jobs.
	NoInterleave bool
	// Gate turns on the quiet gate: a sample is taken only while a probe
	// of the machine runs within GateTolerance of its fastest, and a
	// sample that ends in a busy phase is set aside. Its figures are the
	// machine's fast phases, not its average (which testing.B reports);
	// on a machine busy most of the time it leaves few samples in the
	// budget.
	Gate bool
	// GateTolerance is how much slower than its fastest the gauge's probe
	// may run for the machine to count as quiet. Default 0.2, range
	// [0.01, 10].
	GateTolerance float64
	// NoGC turns off the garbage collection run before each sample.
	NoGC bool
	// GCFirst runs the collection before every sample, those of an
	// operation that allocates fast (a heap goal within ten sample times)
	// included. By default such an operation's samples instead span whole
	// collection cycles of its own, so that it pays for them as a
	// program does (and as testing.B's one-second runs do); after a
	// collection a short sample pays for almost none and reads low (see
	// Runner.timeSample).
	GCFirst bool
	// PinCPU, if positive, pins each job's goroutine and its OS thread to
	// CPU PinCPU-1 (Linux only), away from the GC's background workers
	// where the machine has another core.
	PinCPU int
	// Total, if set, is the whole run's time: Run gives each group of
	// benchmarks a share of the time left (see Plan), Budget being the
	// largest share. Range [1s, 24h].
	Total time.Duration
	// LiveHeap, if set, is how many bytes of pointer-rich data (small
	// objects linked to each other) the runner keeps alive while it
	// runs, so that every collection marks a service's heap and a
	// decode's garbage costs what it costs there. Samples then meet the
	// collector as it comes (no collection before them). Range [0, 64GiB].
	LiveHeap int64
	// Timeout judges a step of a job (its preparation, one sample and its
	// checks) hung, by the rule a worker child is judged by
	// (machine.JudgeStall): the process spent Timeout of CPU time in the
	// step, or sat blocked for most of it; a step kept waiting for a CPU
	// by a busy machine is slow, not hung. A hung step's goroutine is
	// abandoned. Default 20 × Budget + 5m: the slowest codecs
	// (goccy/go-yaml) take more than a minute to verify and calibrate on
	// the 69,000-Big values.
	Timeout time.Duration
	// Compress measures, for every job, the size of its encoding after
	// each compressor of package compress and the time to compress and
	// decompress it (Result.Compressed).
	Compress bool
	// Salt draws the builds the checks after timing show the codec for
	// the first time (unseen.go): the parent draws it once per run
	// (NewSalt) and hands it to every worker, so that no codec can know
	// them while it is prepared. Zero draws one.
	Salt uint64
	// Count counts each benchmark's instructions per op under Valgrind
	// instead of timing it (see count.go): the process must run as
	// package valgrind's Command starts it. The job is prepared and
	// verified, its timed loop run and its random iterations verified,
	// and the checks after timing made, as when timed.
	Count bool `json:",omitempty"`
	// Verified leaves out the checks after a count (Count): the jobs'
	// ops passed them in a pass of this build already (the timed pass of
	// run -measure both, or another process counting the same jobs).
	// The count still verifies its loop's random iterations.
	Verified bool `json:",omitempty"`
}

// MaxLiveHeap is the largest Options.LiveHeap.
const MaxLiveHeap = 64 << 30

// maxSamples is the default and largest MaxSamples.
const maxSamples = 10000

// WithDefaults returns o with zero fields set to their defaults.
func (o Options) WithDefaults() Options { return o.withDefaults() }

// withDefaults returns o with zero fields set to their defaults.
func (o Options) withDefaults() Options {
	if o.Target == 0 {
		o.Target = 0.03
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.SampleTime == 0 {
		o.SampleTime = 10 * time.Millisecond
	}
	if o.BatchTime == 0 {
		o.BatchTime = min(50*time.Microsecond, o.SampleTime)
	}
	if o.GateTolerance == 0 {
		o.GateTolerance = 0.2
	}
	if o.Budget == 0 {
		o.Budget = time.Second
	}
	if o.MinSamples == 0 {
		o.MinSamples = 6
	}
	if o.MaxSamples == 0 {
		o.MaxSamples = maxSamples
	}
	if o.Timeout == 0 {
		o.Timeout = 20*o.Budget + 5*time.Minute
	}
	if o.Salt == 0 {
		o.Salt = NewSalt()
	}
	return o
}

// Validate returns an error naming the first option out of range.
func (o Options) Validate() error {
	o = o.withDefaults()
	check := func(name string, ok bool, rng string, v any) error {
		if ok {
			return nil
		}
		return fmt.Errorf("runner: %s %v out of range %s", name, v, rng)
	}
	for _, err := range []error{
		check("target", o.Target >= 0.001 && o.Target <= 1, "[0.001, 1]", o.Target),
		check("confidence", o.Confidence >= 0.5 && o.Confidence <= 0.999, "[0.5, 0.999]", o.Confidence),
		check("sample time", o.SampleTime >= time.Millisecond && o.SampleTime <= 10*time.Second, "[1ms, 10s]", o.SampleTime),
		check("batch time", o.BatchTime >= time.Microsecond && o.BatchTime <= o.SampleTime, fmt.Sprintf("[1µs, %v]", o.SampleTime), o.BatchTime),
		check("gate tolerance", o.GateTolerance >= 0.01 && o.GateTolerance <= 10, "[0.01, 10]", o.GateTolerance),
		check("budget", o.Budget >= 10*time.Millisecond && o.Budget <= 10*time.Minute, "[10ms, 10m]", o.Budget),
		check("min samples", o.MinSamples >= 1 && o.MinSamples <= 1000, "[1, 1000]", o.MinSamples),
		check("max samples", o.MaxSamples >= o.MinSamples && o.MaxSamples <= maxSamples, fmt.Sprintf("[%d, %d]", o.MinSamples, maxSamples), o.MaxSamples),
		check("timeout", o.Timeout >= time.Second, "[1s, ∞)", o.Timeout),
		check("total time", o.Total == 0 || o.Total >= time.Second && o.Total <= 24*time.Hour, "[1s, 24h]", o.Total),
		check("live heap", o.LiveHeap >= 0 && o.LiveHeap <= MaxLiveHeap, "[0, 64GiB]", o.LiveHeap),
		check("pin CPU", o.PinCPU == 0 || machine.PinSupported && o.PinCPU >= 1 && o.PinCPU <= runtime.NumCPU(), fmt.Sprintf("[1, %d] on Linux", runtime.NumCPU()), o.PinCPU),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// Record returns the options, with their defaults, as a run's record
// keeps them (its Preset left for the caller to name).
func (o Options) Record() results.Options {
	o = o.withDefaults()
	r := results.Options{
		Target: o.Target, Confidence: o.Confidence,
		SampleTime: results.Duration(o.SampleTime), Budget: results.Duration(o.Budget), Time: results.Duration(o.Total),
		MinSamples: o.MinSamples, MaxSamples: o.MaxSamples, GCBefore: !o.NoGC, WholeCycles: !o.NoGC && !o.GCFirst, PinCPU: o.PinCPU,
		BatchTime: results.Duration(o.BatchTime), LiveHeap: o.LiveHeap, Compress: o.Compress,
	}
	if o.LiveHeap > 0 {
		r.GCBefore, r.WholeCycles = false, false
	}
	if o.Gate {
		r.Gate = o.GateTolerance
	}
	if o.Count {
		r.Measure = results.MeasureInstructions
	}
	return r
}
