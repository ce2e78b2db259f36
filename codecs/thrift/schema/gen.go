// Package schema holds serbench's datasets as Apache Thrift structs
// (serbench.thrift), the Go code the Thrift compiler generates from them,
// and the conversions between the dataset types and the generated ones
// that the thrift-binary and thrift-compact codecs share.
//
// Regenerate with `go generate ./...` from the module root. The compiler
// is Debian's thrift-compiler (scripts/ensure-compilers installs it); its
// output is gofmt'd.
package schema

//go:generate ../../../scripts/ensure-compilers
//go:generate thrift --gen go:package_prefix=github.com/serbench/serbench/codecs/thrift/,skip_remote -out .. serbench.thrift
//go:generate gofmt -w serbench.go serbench-consts.go GoUnusedProtection__.go
