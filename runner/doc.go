// Package runner measures codecs. A Runner takes Jobs (a codec and a way to
// build a value), verifies each round trip before timing it, then samples
// each operation adaptively until the confidence interval of the median
// is within the target or the budget runs out. It returns a results.Run
// and never writes files: renderers do that.
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
//   - with Options.Gate, a gauge (gauge.go) probes the machine before and
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
