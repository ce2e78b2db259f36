// Package capnp adapts Cap'n Proto (capnproto.org/go/capnp/v3) with the
// structs capnpc-go generates from schema/serbench.capnp.
//
// Cap'n Proto has no message struct to convert to ahead of time: its
// structs live inside a message's arena, and filling them is the encoding.
// So Encode builds a new message from the Go value (on an arena from the
// library's pool, released after use) and marshals it; Decode unmarshals
// and reads every field into a new Go value. A Decode that stopped at
// Unmarshal would read nothing and time nothing.
package capnp
