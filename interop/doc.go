// Package interop is the cross-language study: what crosses between a Go
// codec and the most used libraries of its format in Python,
// JavaScript and Java (the peers, pinned in peers/ and installed by
// scripts/interop-peers into a cache outside the tree).
//
// Its cases are the fidelity probes another language can express and the
// datasets (Cases), each run three ways: Go writes and the peer reads
// (PeerReads), the peer writes back what it read and Go reads
// (RoundTrip), the peer writes the value and Go reads (GoReads). A peer
// learns the value from its neutral form (Value): typed JSON, exact in
// every language. What a peer reads comes back in that form, and Into
// turns it into the Go value a program gets, which verify compares with
// the value written; a format without a type of its own for a Go type
// carries it as its Model says (JSON's times as RFC 3339 text).
//
// A format whose Go codecs read their own types (Protobuf, Avro, Thrift,
// FlatBuffers, Cap'n Proto) crosses as the project's schema's types
// (Model.Schema): serbench.proto's messages, which the peers build from
// the descriptor protobuf-go's generated code holds; dataset.avsc's
// records and serbench.thrift's structs, each case sent with its schema;
// serbench.fbs's tables and serbench.capnp's structs, which interop reads
// from the schema files themselves (tables.go). Its cases are the
// datasets the schema has types for.
//
// A column is a Go codec with one peer in one configuration (Variant,
// declared as data); each runs in a child process of a worker.Pool, and
// that child runs one peer process for all the column's cases (RunBatch,
// Talk). A peer whose runtime or packages are missing is a skipped
// column naming the command that installs it.
package interop
