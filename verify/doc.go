// Package verify is serbench's one comparer: it says whether a decoded
// value equals the original, modulo the losses a codec declares. The
// runner's checks, the hostile matrix and the fidelity matrix all judge
// through it, and loss.go is the one place that says what each codec.Loss
// lets differ.
//
// The comparison walks both values with a stack of its own, not by
// recursion, so that a value nested 100,000 levels deep (as a decoder may
// return from hostile input) costs memory in proportion and never
// overflows the goroutine's stack.
package verify
