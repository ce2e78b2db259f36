// Package harnessbench times the operations of serbench's "harness" preset
// with testing.B, exactly as the runner prepares them (runner.Prepare), and
// names them as serbench does: `go test -bench . ./cmd/harnessbench`
// runs them under go test, and the pair command (scripts/harness-check)
// alternates them with serbench's runner in one process and compares
// medians, rankings and wall time.
package harnessbench
