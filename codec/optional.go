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

// A Reloader is a Case that converts its value when it is prepared (a
// codec with types of its own, generated or read from a schema, copies
// the value handed to Prepare into them) and can convert it again: Reload
// converts that value as it is now, changed in place by the caller since,
// keeping what the case keeps across calls (the buffer Encode writes
// into, Info.ReusesBuffer).
//
// The runner needs it of a case that keeps its buffer and does not read
// its value at each Encode: after timing it changes the value of such a
// case in place to one the codec never saw and holds the case's next
// Encode, a later call on a grown buffer, to the timed figure; an Encode
// that replays an earlier output is slow or wrong there. A case that
// reads its value at each Encode needs no Reloader.
type Reloader interface {
	// Reload converts the value the case was prepared on again.
	Reload() error
}
