// Package runner measures codecs. A Runner takes Jobs (a codec and a way to
// build a value), verifies each round trip before timing it, then samples
// each operation adaptively until the confidence interval of the median
// is within the target or the budget runs out. It returns a results.Run
// and never writes files: renderers do that.
//
// What is timed, and how it is checked:
//
//   - a job's pool holds up to PoolSize distinct builds of its value
//     (Job.ValueAt), each with its own case and its encoding in a buffer
//     of its own; the encode loop encodes them and the decode loop decodes
//     them in an order drawn anew for each sample, so that no call knows
//     which message comes next and a memo or cache gains nothing;
//   - one batch in four, drawn at random (and one in every sample),
//     verifies one of its iterations on the spot, off the clock, with the
//     calls of the timed loop itself: the codec cannot tell the timed
//     calls from the checked ones; a self-timed loop (codec.Looper, only
//     for a codec that declares Info.SelfTimed) has every call's last
//     result verified, and is timed beside the same operation through
//     Encode and Decode;
//   - after timing, a job's benchmarks make checkRoundTrips round trips
//     between them (as many as checkBytes of messages hold, never fewer
//     than twenty a bench; of a message of LargeBytes or more, two a
//     bench, then as many as its budget holds), on the pool's own
//     buffers, each call timed on its own: a figure far below what the
//     checks saw, or a Value costing more than Decode, is flagged
//     (Result.Flagged); the messages must be as they were made (Decode
//     must not write into them); a decoded value must not change when its
//     input is overwritten (unless Info.Aliases) nor with the next decode
//     (unless Info.ReusesTarget), and two decodes must not hand back the
//     same value;
//   - the verified encodings go with the result (Result.Verified) to be
//     decoded in a process that never saw the value (FreshDecode, run as
//     a worker task by package measure): an encoding must carry its value;
//   - each sample records the process's CPU time beside its wall time; a
//     figure whose CPU time exceeds its wall time is multi-threaded.
//
// How a figure is made:
//
//   - calibration grows the iteration count until one batch lasts
//     Options.BatchTime, then warms up for a sample's length;
//   - a sample is a garbage collection, then batches for SampleTime; its
//     ns/op, B/op and allocs/op are the whole sample's, as testing.B
//     reports them. An operation that allocates fast (a heap goal within
//     ten sample times) is sampled without the collection, from the end of
//     one of its own collection cycles to the end of another, so that it
//     pays for whole cycles as a program does: after a collection a short
//     sample would pay for almost none (Options.GCFirst does that);
//   - with Options.Gate, a gauge (machine.Gauge) probes the machine before and
//     after each sample; samples are taken while it runs at full speed,
//     and those that end in a busy phase are set aside;
//   - the interval is checked after MinSamples samples spanning half
//     of the budget, so that they do not all fall in one phase of a
//     shared machine;
//   - the budget is wall time, waits included, so a busy machine gives
//     wider intervals rather than a longer run;
//   - the benchmarks of one dataset shape are sampled interleaved, in a
//     shuffled order each round;
//   - the figure is the median of the samples with its confidence interval
//     (golang.org/x/perf/benchmath, as benchstat computes it).
//
// A codec that returns an error, panics, hangs or fails verification is
// recorded with the reason, and the run goes on.
package runner
