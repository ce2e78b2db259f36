// Package runner measures codecs. A Runner takes Jobs (a codec and a way to
// build a value), verifies each round trip before timing it, then samples
// each operation adaptively until the confidence interval of the median
// is within the target or the budget runs out. It returns a results.Run
// and never writes files: renderers do that.
//
// A codec that returns an error, panics, hangs or fails verification is
// recorded with the reason, and the run goes on.
package runner
