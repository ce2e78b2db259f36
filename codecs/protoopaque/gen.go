package protoopaque

// The schemas are the proto codec's serbench.proto under other Protobuf
// packages (a file and package may be registered once per binary), the
// lazy one with [lazy = true] on every message-typed field. protoc-gen-go
// generates both with the Opaque API (default_api_level=API_OPAQUE).
//go:generate ../../scripts/ensure-compilers
//go:generate sh -c "sed -e 's/^package serbench;/package serbench.opaque;/' -e 's|^option go_package = .*|option go_package = \"github.com/serbench/serbench/codecs/protoopaque/schema\";|' ../proto/schema/serbench.proto > schema/serbench_opaque.proto"
//go:generate sh -c "sed -E -e 's/^package serbench;/package serbench.lazy;/' -e 's|^option go_package = .*|option go_package = \"github.com/serbench/serbench/codecs/protoopaque/lazyschema\";|' -e 's/^( +(repeated )?(Tiny|Medium|Big|Huge|User|B|Metric|ComplexMap|A) [a-z_0-9]+ = [0-9]+);/\\1 [lazy = true];/' ../proto/schema/serbench.proto > lazyschema/serbench_lazy.proto"
//go:generate sh -c "protoc -Ischema -I/usr/include --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) --go_out=schema --go_opt=paths=source_relative,default_api_level=API_OPAQUE serbench_opaque.proto"
//go:generate sh -c "protoc -Ilazyschema -I/usr/include --plugin=protoc-gen-go=$(go tool -n protoc-gen-go) --go_out=lazyschema --go_opt=paths=source_relative,default_api_level=API_OPAQUE serbench_lazy.proto"
