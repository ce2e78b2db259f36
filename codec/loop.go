package codec

// A Looper is a Case that runs the timed loops itself. The runner's own
// loop calls Encode and Decode through the Case interface, an indirect
// call of a nanosecond or two per iteration: for an operation of a few
// nanoseconds that call is most of the figure. A Looper's loops call the
// operation directly (devirtualised, and inlined where the compiler
// chooses), so the figure reported is the operation's.
//
// The runner uses a Case's Looper methods in place of its own loop when
// they are there, and marks the results self-timed. Verification is
// unchanged: before timing it goes through Encode, Decode and Value; after
// timing it checks the last encoding EncodeLoop returned and the value
// DecodeLoop decoded last.
type Looper interface {
	// EncodeLoop encodes the prepared value n times (n >= 1), exactly as
	// n calls of Encode would, and returns the last encoding.
	EncodeLoop(n int) ([]byte, error)

	// DecodeLoop decodes n times (n >= 1), exactly as n calls of Decode
	// would, alternating the two messages: call i decodes msgs[i&1]. Value
	// then returns the value of the last decode.
	DecodeLoop(n int, msgs [2][]byte) error
}
