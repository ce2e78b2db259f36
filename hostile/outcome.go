package hostile

// An Outcome is what a decoder did with one input, or the worst of what
// it did with a cell's inputs.
type Outcome string

// The outcomes, from the best to the worst; Severity orders them.
const (
	NA       Outcome = "n/a"      // the class does not apply to the codec's format
	OK       Outcome = "ok"       // a valid input decoded to its value
	Clean    Outcome = "clean"    // the decoder returned an error
	Changed  Outcome = "changed"  // no error, a value other than the one the input came from
	Accepted Outcome = "accepted" // no error on bytes that are not an encoding of the value, and the value came back: garbage silently accepted
	Panic    Outcome = "panic"    // the decoder panicked; recover caught it
	Memory   Outcome = "memory"   // the decoder allocated over 1,000 times the input's size (and over 64 MiB)
	Hang     Outcome = "hang"     // no answer within the timeout; the child was killed
	Crash    Outcome = "crash"    // a fatal error recover cannot catch killed the child (see Cell.Crash)
)

// Outcomes lists every outcome from the best to the worst.
var Outcomes = []Outcome{NA, OK, Clean, Changed, Accepted, Panic, Memory, Hang, Crash}

// Severity orders outcomes: a higher severity is worse.
func (o Outcome) Severity() int {
	for i, x := range Outcomes {
		if x == o {
			return i
		}
	}
	return -1
}

// Unsafe reports whether the outcome lets a bad input take down or stall
// a process that decodes it: a crash, a hang or a memory blow-up.
func (o Outcome) Unsafe() bool { return o == Crash || o == Hang || o == Memory }

// Clean reports whether the outcome needs no reproducer: the decoder
// refused the input, decoded a valid one, or the class did not apply.
func (o Outcome) Clean() bool { return o == NA || o == OK || o == Clean }
