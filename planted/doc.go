// Package planted holds deliberately broken codecs, "planted faults", that
// serbench's tests and a developer build use to prove that the harness
// catches codecs that cheat and survives codecs that crash or hang.
//
// Every planted codec is encoding/json (Family "planted", Module "std",
// API reflection) with one fault, described in its Info.Notes; apart from
// that fault it encodes and decodes exactly as json.Marshal and
// json.Unmarshal do. The package is imported only by tests and by a
// build-tagged file, never by the registry.
//
// The cheaters run without crashing and must be flagged failed or
// implausible:
//
//   - planted-input: Value returns the very pointer handed to Prepare; Decode
//     unmarshals into a throwaway value.
//   - planted-cached-encode: Encode marshals once and returns the cached
//     bytes forever after, even when the value changes.
//   - planted-memo-decode: the first Decode is honest; later ones do nothing,
//     and Value keeps returning the first decoded value.
//   - planted-lossy-later: the first Decode of a Case is honest; every later
//     one corrupts the decoded value (see below).
//   - planted-growing: the k-th Encode of a Case returns the json followed
//     by k-1 trailing spaces, so each encoding is one byte longer than the
//     last (json.Unmarshal accepts trailing white space).
//   - planted-rare-loss: Decode calls 1000, 2000, 3000, ... of a Case
//     corrupt the decoded value; every other call is honest.
//   - planted-noop: Prepare marshals and unmarshals once; Encode returns the
//     stored bytes, Decode does nothing and returns nil, Value returns the
//     stored decoded value.
//
// The evaders (Evaders) cheat where an older runner did not look, each
// exploiting one weakness (Weakness) of the runner that issue 31 audited,
// and must now be failed or flagged implausible, never ranked:
//
//   - planted-memo-content (two fixed messages): a two-entry memo of
//     decoded values keyed by the input's content.
//   - planted-tell (checks told from timing): the third Decode in a row
//     with no Encode or Value between, and every one after, does nothing.
//   - planted-lazy-value (Value not timed): Decode copies; Value decodes.
//   - planted-loop-short and planted-loop-gzip (self-timed loops
//     trusted): declared self-timed, the first's loops run a thousandth of
//     the iterations; the second encodes gzipped json and its own loop
//     compresses only the last encoding.
//   - planted-handle (encode and decode in one process): the encoding is
//     an 8-byte handle to the value's json kept in the process.
//   - planted-rewrite-input (decode writes into the messages): Decode
//     rewrites the caller's buffer as an index into its memo.
//   - planted-large-loss (few round trips of large messages): every 50th
//     decode of a message over 4 KiB is corrupted.
//   - planted-alias and planted-reuse (values alias the input, or one
//     target is reused): undeclared.
//
// The round-two evaders (RoundTwo) cheat where the runner of issue 31's
// round did not look, each exploiting one weakness (WeaknessTwo) that
// issue 41 names, and must now be failed, flagged implausible, or find
// nothing to cheat on:
//
//   - planted-replay (the checks show nothing new): each case's first
//     Encode is honest, every later one copies it (a memcpy, past the
//     copy floor).
//   - planted-memo-address (the same): Decode hands back the value it
//     decoded from a buffer at the same address, after copying the input.
//   - planted-defer-value (deferred work is free): a Decode after a Decode
//     keeps its input and leaves the decoding to Value.
//   - planted-index (deterministic builds): a value that is one of a
//     dataset's first builds is encoded as its 3-byte index and rebuilt
//     from it in any process.
//   - planted-small-first (the size is message 0's): the first case a
//     codec prepares encodes gzipped json, every other plain json.
//
// The round-three evaders (RoundThree) cheat where the checks of issue
// 41's first sessions did not look (WeaknessThree):
//
//   - planted-stream-memo (the stream ops had no calls on unseen builds):
//     its stream Encoder writes a value it wrote before, by address, from
//     a memo, and its Decoder hands back a copy of a message's value it
//     decoded before, by the message's text.
//   - planted-replay-reuse (an encode declared ReusesBuffer was not held
//     to its unseen calls): planted-replay, declaring ReusesBuffer.
//   - planted-defer-converts (ValueConverts believed): declares
//     ValueConverts; Decode keeps a reference to its input, Value decodes.
//
// The round-four evaders (RoundFour) cheat where the checks of issue
// 41's second round did not look (WeaknessFour):
//
//   - planted-copy-converts (a Decode declared ValueConverts that copies):
//     declares ValueConverts; Decode copies its input into a buffer of its
//     own, Value decodes the copy, so overwriting the input changes
//     nothing.
//   - planted-hide-converts (the same): planted-copy-converts whose Value
//     hands back the last value it decoded, or a zero one, and no error
//     when the copy does not decode.
//   - planted-replay-prepare (a converting codec's Encode declared
//     ReusesBuffer was not held): converts its value when prepared, keeps
//     its buffer, and replays each case's first encoding.
//   - planted-replay-reload (the same, behind codec.Reloader): its Reload
//     converts the value again and makes the next Encode honest, every
//     later one a replay.
//   - planted-warm-prepare (cold calls timed after an untimed Prepare):
//     Prepare encodes and decodes the value once, warming encoding/json's
//     caches of the type; a cold call's figure holds its Prepare.
//
// Three more attack serbench's supervisor and registry, not the runner:
//
//   - planted-scaler (in Workers; the worker is believed on its word):
//     its first Encode in a worker puts a pipe of its own in place of the
//     events pipe and divides every result's figures by ScalerFactor on
//     the way to the parent; the parent's own clocks flag it.
//   - the rewriter (RewriteEnv; an adapter's init rewrites a rival's
//     registry entry): this package's init, when the variable is set,
//     replaces json's New with one that sleeps before each call; the
//     registry's entries as built refuse it (registry.Intact).
//   - registryinit (package planted/registryinit; a package the registry
//     imports rewrites a rival's entry before the registry is built): the
//     registry's tests import it, and its init, when its variable is set,
//     replaces json's New as the rewriter does; json's declaration
//     (codec.Declare) refuses it.
//
// The corruption of planted-lossy-later and planted-rare-loss is made at
// the top level of the decoded value: a struct loses its first exported
// field that is not already zero (set to zero); a slice loses its last
// element (an empty slice gains a zero element); a map loses its first key
// in fmt order (an empty map gains a zero entry); a time.Time moves one
// second later; a scalar changes (numbers +1 or negated, a bool flips, a
// string gains an "x").
//
// The crashers are honest json on every value except those of their
// trigger type (Triggers): a value is of type T when it is a *T, *[]T or
// *[]*T. On its trigger, a crasher's Encode is honest and its Decode never
// returns:
//
//   - planted-stack (dataset.Tiny): Decode recurses without bound until
//     Go's unrecoverable "fatal error: stack overflow".
//   - planted-oom (dataset.Medium): Decode allocates 1 TiB and touches it:
//     "fatal error: runtime: out of memory" (unrecoverable) on Linux with
//     the default heuristic overcommit; where the kernel always overcommits
//     (vm.overcommit_memory=1) the touching exhausts memory and the OOM
//     killer ends the process instead.
//   - planted-hang (dataset.Big): Decode spins on the CPU forever.
//   - planted-mapwrite (dataset.User): Decode writes one map from two
//     goroutines until the unrecoverable "fatal error: concurrent map
//     writes".
package planted
