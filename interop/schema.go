package interop

import "errors"

// The schemas of Model.Schema.
const (
	SchemaProto  = "serbench.proto"
	SchemaAvro   = "dataset.avsc"
	SchemaThrift = "serbench.thrift"
	SchemaFlat   = "serbench.fbs"
	SchemaCapnp  = "serbench.capnp"
)

// A binding is a case's value as its type of a format's schema: the
// type's name as the peer looks it up, the value's neutral form as the
// peers read it, and into, which returns the Go value a program gets from
// a peer's reading, or how the reading differs.
type binding struct {
	typ  string
	want Value
	into func(read Value) (any, error)
}

// bind binds v, a pointer to a case's value, to its type of m's schema.
func (m Model) bind(v any) (binding, error) {
	switch m.Schema {
	case SchemaProto:
		return bindMessage(v)
	case SchemaAvro:
		return bindAvro(v)
	case SchemaThrift:
		return bindThrift(v)
	case SchemaFlat:
		return flatSchema().bind(v)
	case SchemaCapnp:
		return capnpSchema().bind(v)
	}
	return binding{}, errors.New("interop: no schema " + m.Schema)
}

// schemaText is the schema a peer of m's format is started with:
// Protobuf's a serialized FileDescriptorSet, FlatBuffers' tables as
// tableSchema.peerJSON gives them, Cap'n Proto's serbench.capnp as
// pycapnp loads it beside its structs as the Node peer walks them
// (capnpPeerSchema); nil for a format whose cases name their schema
// themselves (Avro's and Thrift's, self-contained).
func (m Model) schemaText() []byte {
	switch m.Schema {
	case SchemaProto:
		return protoSchema()
	case SchemaFlat:
		return flatSchema().peerJSON()
	case SchemaCapnp:
		return capnpPeerSchema()
	}
	return nil
}
