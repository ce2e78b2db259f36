// Package schema holds the proto codec's serbench.proto for gogo/protobuf
// (serbench_gogo.proto, under the Protobuf package serbench.gogo) and the
// Go code protoc-gen-gogofast generates from it.
//
// gogo/protobuf predates proto3's optional fields, which its plugins
// refuse: the copy drops the optional labels, so those fields have no
// presence (a pointer to a zero value is not sent). Times are gogo's own
// types.Timestamp.
package schema

//go:generate ../../../scripts/ensure-compilers
//go:generate sh -c "sed -e 's/^package serbench;/package serbench.gogo;/' -e 's|^option go_package = .*|option go_package = \"github.com/serbench/serbench/codecs/gogo/schema\";|' -e 's/^  optional /  /' ../../proto/schema/serbench.proto > serbench_gogo.proto"
//go:generate sh -c "protoc -I. -I/usr/include --plugin=protoc-gen-gogofast=$(go tool -n protoc-gen-gogofast) --gogofast_out=Mgoogle/protobuf/timestamp.proto=github.com/gogo/protobuf/types,paths=source_relative:. serbench_gogo.proto"
