// Package summary writes summary.md: the findings a serbench run supports,
// each with its figures. They are the fastest and smallest codec per
// dataset and shape, how each codec scales along the size ladder, where
// gob overtakes JSON (one-shot and stream), what gob's stream buys over
// one-shot, the seed articles' claims set against the run, and the
// failures and skips.
//
// It opens with the answer (Answers): the smallest encoding, the fastest
// encode and decode and the best balance, each naming a winner only when
// a runner-up stands behind it beyond noise; otherwise it says there is
// no clear winner, and why.
//
// It states only what the run measured: a finding whose data is missing
// from the run is left out, and two times count as different only when
// their confidence intervals are apart (results.Compare; a time without
// an interval is apart from nothing). Codecs that crashed, errored or
// gave an implausible figure on a dataset shape are not ranked there, and
// the text says so. The same run always gives the same text.
package summary
