package registry

import "github.com/serbench/serbench/codec"

// reflection lists the maintained reflection-based codecs beyond the
// standard library: JSON rivals, MessagePack, CBOR, BSON, YAML, TOML and
// binary formats.
var reflection = []codec.Info{}
