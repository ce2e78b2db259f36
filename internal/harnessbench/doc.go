// Package harnessbench times the operations of serbench's "harness" preset
// with testing.B, exactly as the runner prepares them (runner.Prepare), and
// names them as serbench does. scripts/harness-check runs these benchmarks
// with `go test -bench . -count=10` beside `serbench run -preset harness`
// and compares medians and wall time with `serbench compare`.
package harnessbench
