package hostile

import "github.com/serbench/serbench/results"

// A Matrix is the result of a hostile run: one Cell per codec and class,
// in the results package's matrix model, so that renderers read it
// without running anything.
type (
	Matrix  = results.Matrix
	Cell    = results.MatrixCell
	Outcome = results.Outcome
)

// The outcomes, from the best to the worst (Study.Outcomes says what each
// means).
const (
	NA    Outcome = "n/a"
	OK    Outcome = "ok"
	Clean Outcome = "clean"
	// CheckFailed: the decoder returned, and serbench's own check of the
	// value it returned crashed or hung: not the codec's fault.
	CheckFailed Outcome = "check-failed"
	// Starved: the child got too little CPU time to be judged on a busy
	// machine (worker.ExitStarved): neither the codec's fault nor proof
	// of its innocence.
	Starved  Outcome = "starved"
	Changed  Outcome = "changed"
	Accepted Outcome = "accepted"
	Panic    Outcome = "panic"
	Memory   Outcome = "memory"
	Hang     Outcome = "hang"
	Crash    Outcome = "crash"
)

// The facts of a cell (Cell.Facts): the dataset shape its inputs start
// from, how many inputs it ran, the most bytes one input made the decoder
// allocate or grow the resident set by, and the child process's peak
// resident set size.
const (
	FactSeed    = "seed"
	FactInputs  = "inputs"
	FactAlloc   = "max_alloc_bytes"
	FactPeakRSS = "peak_rss_bytes"
	// FactSeedSHA is the SHA-256 of the seed's canonical encoding, which
	// the cell's inputs are generated from.
	FactSeedSHA = "seed_sha256"
)

// Study is the hostile-input study as data: its outcomes and the rule of
// its verdict, "safe to decode untrusted input?".
var Study = results.Study{
	Name:  "hostile",
	Title: "Hostile input",
	About: "What each decoder does with malformed and malicious bytes (serbench hostile): classes of input generated from the codec's own encodings, " +
		"each cell in a child process under a memory cap and a stack cap. A cell shows the worst outcome of its inputs, " +
		"and keeps the smallest input that gives it. \"no\" means a few bytes can crash, stall or exhaust a process that decodes them.",
	CaseWord: "class",
	Question: "Safe to decode untrusted input?",
	Outcomes: []results.OutcomeKind{
		{Name: NA, Code: "-", Label: "does not apply", Tone: results.ToneNone},
		{Name: OK, Code: "ok", Label: "valid input decoded", Tone: results.ToneGood},
		{Name: Clean, Code: ".", Label: "clean error", Tone: results.ToneGood},
		// Tried, and kept with its input, but not the codec's doing: no
		// rule names it.
		{Name: CheckFailed, Code: "CHK", Label: "serbench's check of the value failed", Tone: results.ToneWarn},
		{Name: Starved, Code: "SLOW", Label: "too little CPU time to judge, on a busy machine", Tone: results.ToneWarn},
		{Name: Changed, Code: "chg", Label: "accepted as another value", Tone: results.ToneFair},
		{Name: Accepted, Code: "acc", Label: "garbage accepted silently", Tone: results.ToneFair},
		{Name: Panic, Code: "PANIC", Label: "recovered panic", Tone: results.ToneWarn},
		{Name: Memory, Code: "MEM", Label: "memory blow-up", Tone: results.ToneBad},
		{Name: Hang, Code: "HANG", Label: "hang", Tone: results.ToneBad},
		{Name: Crash, Code: "FATAL", Label: "fatal error", Tone: results.ToneBad, NoteNames: true,
			Codes: map[string]string{"stack overflow": "STACK", "out of memory": "OOM"}},
	},
	Rules: []results.Rule{
		{Verdict: "untested", Untried: true, Why: "No class applied."},
		{Verdict: "no", When: []Outcome{Memory, Hang, Crash}, Detail: true,
			Why: "A hostile input takes the process down or stalls it: {cases}. Decode untrusted bytes in a separate process, or with limits in front of it."},
		{Verdict: "with care", When: []Outcome{Panic},
			Why: "It panics on {cases}; recover catches it. Recover around every decode of untrusted bytes."},
		{Verdict: "with care", When: []Outcome{Accepted},
			Why: "It survives every class tried ({tried}), but accepts garbage without an error ({cases}): validate what it returns."},
		{Verdict: "yes", Why: "Every class tried ({tried}) ends in an error or a decoded value, never a crash, a hang or a memory blow-up."},
	},
	Facts: []string{FactSeed, FactInputs, FactAlloc, FactPeakRSS, FactSeedSHA, FactDefault},
}

// clean reports whether outcome o needs no reproducer: the decoder
// refused the input, decoded a valid one, or the class did not apply.
func clean(o Outcome) bool {
	t := Study.Kind(o).Tone
	return t == results.ToneGood || t == results.ToneNone
}

// IsClean reports whether the cell needs no reproducer (see clean).
func IsClean(c *Cell) bool { return clean(c.Outcome) }

// worse reports whether outcome a is worse than b.
func worse(a, b Outcome) bool { return Study.Severity(a) > Study.Severity(b) }
