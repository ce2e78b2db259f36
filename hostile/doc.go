// Package hostile runs a codec's decoder over malformed and malicious
// input and says what happened: a matrix of codecs by input classes.
//
// Each Class generates inputs from the codec's own valid encodings of
// dataset values: prefixes, flipped bits, lengths declared far beyond the
// input in the format's own framing, nesting ladders, alias bombs. Every
// cell (one codec, one class) runs in a child process of its own, a
// worker task under a memory cap, a stack cap and a per-input timeout, so
// that a decoder that crashes the Go runtime, blows up its memory or hangs
// costs its cell and nothing else.
//
// Spec is the study as a value, run by the one study driver (study.Run).
// A cell's Outcome is the worst outcome of its inputs; its reproducer is
// the smallest input with that outcome. The result is a results.Matrix
// of the hostile Study: its outcomes, and the rule of each codec's
// verdict, "safe to decode untrusted input?", as data.
package hostile
