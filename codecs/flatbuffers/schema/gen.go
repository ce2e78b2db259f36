// Package schema holds serbench's datasets as FlatBuffers tables
// (serbench.fbs) and the Go code flatc generates from them.
//
// Regenerate with `go generate ./...` from the module root. flatc comes
// from Debian's flatbuffers-compiler (scripts/ensure-compilers installs
// it); gofmt then tidies flatc's output, which is not gofmt-clean.
package schema

//go:generate ../../../scripts/ensure-compilers
//go:generate flatc --go --gen-onefile --go-namespace schema -o . serbench.fbs
//go:generate gofmt -w serbench_generated.go

import _ "embed" // Text

// Text is serbench.fbs, which serbench interop reads for its tables.
//
//go:embed serbench.fbs
var Text string
