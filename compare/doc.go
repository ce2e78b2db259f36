// Package compare compares two benchmark result files with benchstat's
// semantics and judges the difference as a CI gate.
//
// Per benchmark and unit it gives the median of each side with its 95%
// confidence interval, and the delta only where a Mann-Whitney U test
// rejects "same distribution" at α = 0.05 (benchmath.AssumeNothing), as
// benchstat does. A Gate then calls a significant change a regression only
// when it is also larger than a threshold, the share of the median that
// the machine's drift between two runs moves it: two runs of the same
// code, compared, must not fail the gate. Geomeans give each codec's
// change over all its benchmarks, and Ranking reports the codec pairs
// whose order flipped with both runs sure of it.
//
// An Interleave measures two builds of serbench (two commits, or one
// commit with two versions of a library) alternately in one session, so
// that a drift of the machine falls on both sides alike instead of on
// whichever ran later.
package compare
