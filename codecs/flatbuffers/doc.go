// Package flatbuffers adapts FlatBuffers (github.com/google/flatbuffers/go)
// with the tables flatc generates from schema/serbench.fbs.
//
// FlatBuffers has no message struct to convert to ahead of time: building
// the buffer through the generated builder functions is the encoding. So
// Encode writes the Go value into a Builder that the case keeps and resets,
// and Decode reads every field back through the generated accessors into a
// new Go value. A Decode that only wrapped the buffer in an accessor would
// read nothing and time nothing.
package flatbuffers
