package codec

// An Into is a Case that also decodes into a value the caller owns, which
// may already hold data: the way a server decodes every message into one
// reused value. What the library leaves of the old content (a field the
// message does not mention, the keys of a map) is the library's own
// behaviour, which the fidelity matrix reports.
type Into interface {
	// DecodeInto decodes data, produced by Encode, into v: a non-nil
	// pointer to a value of the prepared value's type, decoded as is,
	// without zeroing it first.
	DecodeInto(data []byte, v any) error
}

// A Forwarder is a Codec whose format carries fields its reader's schema
// does not know: a program built with an older schema decodes a message
// written with a newer one, then encodes it again (a proxy, a store that
// upgrades records lazily), and the newer field may survive the trip.
//
// Codecs that decode into Go types, which have nowhere to keep a field
// they do not declare, do not implement it.
type Forwarder interface {
	// Forward encodes the message {a, b} with a schema of two fields,
	// decodes it with a schema that has only the first, encodes that
	// value again and decodes the result with the first schema,
	// returning what it holds. discard asks the decoder to drop unknown
	// fields, with the library's own option for it.
	Forward(a string, b int64, discard bool) (gotA string, gotB int64, err error)
}
