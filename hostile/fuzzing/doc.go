// Package fuzzing holds the coverage-guided fuzz target of every
// registered decoder, FuzzDecode, which serbench hostile -fuzz runs with
// go test -fuzz for a budget per codec (hostile.Fuzz). Its tests are the
// target's seed corpus only: go test ./... decodes each codec's own
// encodings of the datasets with that codec, quickly.
package fuzzing
