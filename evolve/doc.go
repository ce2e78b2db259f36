// Package evolve is the schema-evolution study: what each codec does when
// the writer and the reader of a value disagree on its schema. Each case
// of package evolve/change (a field added, removed, renamed, retyped ...)
// runs both ways, an old reader on new data and a new reader on old data,
// through every codec that can express it: the reflection codecs with two
// Go types, Protobuf and vtprotobuf with two generated schemas (package
// evolve/pb), Avro with the writer's and the reader's schemas through
// hamba/avro's resolution, Avro read with the reader's schema alone, and
// FlatBuffers and Cap'n Proto with two generated schemas (packages
// evolve/fb and evolve/capnproto). Every schema is generated from the
// cases (evolve/internal/genproto, genfb, gencapnp), so one statement of
// a change serves every format.
//
// A cell reads as the rules say (the shared fields equal, a new field zero
// or its default), reads a changed value, loses a value silently, fails
// with an error, or crashes its child process. Study says so as data; Run
// runs each cell in a child of a worker.Pool (Handler), and values are
// compared with package verify.
package evolve
