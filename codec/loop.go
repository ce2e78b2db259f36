package codec

// A Looper is a Case that runs the timed loops itself. The runner's own
// loop calls Encode and Decode through the Case interface, an indirect
// call of a nanosecond or two per iteration: for an operation of a few
// nanoseconds that call is most of the figure. A Looper's loops call the
// operation directly (devirtualised, and inlined where the compiler
// chooses), so the figure reported is the operation's.
//
// The runner uses a Case's Looper methods in place of its own loop only
// when its codec declares them (Info.SelfTimed), and marks the results
// self-timed. It trusts them no more than Encode and Decode: it checks the
// last result of every call (every iteration count), and it times the same
// operation through Encode and Decode beside them: a self-timed figure
// faster than that path by more than the indirect call it saves is
// flagged, not ranked.
type Looper interface {
	// EncodeLoop encodes the prepared value n times (n >= 1), exactly as
	// n calls of Encode would, and returns the last encoding.
	EncodeLoop(n int) ([]byte, error)

	// DecodeLoop decodes n times (n >= 1), exactly as n calls of Decode
	// would: call i decodes msgs[order[i%len(order)]]. Value then returns
	// the value of the last decode. The runner draws a new order for each
	// sample, so that no call can know which message comes next.
	DecodeLoop(n int, msgs [][]byte, order []int) error
}
