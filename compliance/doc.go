// Package compliance is the JSON compliance study: JSONTestSuite's cases
// (y_: valid JSON a parser must accept, n_: invalid JSON it must reject,
// i_: either is right) decoded into an any by every JSON codec, each cell
// in a child process of package worker, as one more results.Matrix.
//
// The cases come from bytedance/sonic's copy of the suite
// (testdata/jsontestsuite.json.gz, MIT: testdata/LICENSE; its README says
// how the expectations follow RFC 8259). That copy holds each case as a
// JSON string, and its invalid UTF-8 bytes were replaced by U+FFFD on
// the way: the 25 cases that hold U+FFFD no longer test what they name,
// and the study leaves them out (Suite.LeftOut).
package compliance
