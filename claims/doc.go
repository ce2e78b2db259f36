// Package claims holds every claim of the five seed articles as data: the
// article and its exact words, the figure it gave, the experiment that
// tests it on serbench's datasets and codecs, and the rule that turns a
// run's results into a verdict.
//
// A verdict is one of four: the claim holds, holds with a caveat (in most
// of the cases it names but not all, or by a margin far from the
// article's), does not hold, or cannot be tested here. A claim that does
// not hold, or holds with a caveat, carries the reason the article's
// experiment differed (a new encoder per message, zero padding, an
// unchecked decode, the Go version, the hardware).
package claims
