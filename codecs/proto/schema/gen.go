// Package schema holds serbench's datasets as Protocol Buffers messages
// (serbench.proto), the Go code protoc-gen-go and protoc-gen-go-vtproto
// generate from them, and the conversions between the dataset types and
// the generated ones that the proto and vtproto codecs share.
//
// Regenerate with `go generate ./...` from the module root. protoc and the
// well-known types come from Debian (scripts/ensure-compilers installs
// them); the plugins are the versions pinned by go.mod's tool directives,
// built by `go tool -n`.
package schema

//go:generate ../../../scripts/ensure-compilers
//go:generate sh -c "protoc -I. -I/usr/include --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) --plugin=protoc-gen-go-vtproto=$(go tool -n protoc-gen-go-vtproto) --go_out=. --go_opt=paths=source_relative --go-vtproto_out=. --go-vtproto_opt=paths=source_relative,features=marshal+unmarshal+unmarshal_unsafe+size+pool,pool=github.com/serbench/serbench/codecs/proto/schema.* serbench.proto"
