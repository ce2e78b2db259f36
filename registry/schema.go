package registry

import "github.com/serbench/serbench/codec"

// schema lists the codecs that compile a schema or generate code:
// Protobuf, vtprotobuf, FlatBuffers, Cap'n Proto, msgp, easyjson, Avro.
var schema = []codec.Info{}
