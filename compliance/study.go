package compliance

import "github.com/serbench/serbench/results"

// The outcomes of an input, and of a cell (its worst input's), from the
// best to the worst.
const (
	NA          results.Outcome = "n/a"
	OK          results.Outcome = "ok"
	ImplDefined results.Outcome = "either"
	WrongReject results.Outcome = "wrong-reject"
	WrongAccept results.Outcome = "wrong-accept"
	Panic       results.Outcome = "panic"
	Hang        results.Outcome = "hang"
	Crash       results.Outcome = "crash"
)

// The facts of a cell (MatrixCell.Facts): how many inputs it ran, how
// many of them were accepted and rejected, and the wrong ones by name.
const (
	FactInputs   = "inputs"
	FactAccepted = "accepted"
	FactRejected = "rejected"
	FactWrong    = "wrong"
)

// Study is the JSON compliance study as data.
var Study = results.Study{
	Name:  "json-compliance",
	Title: "JSON compliance",
	About: "JSONTestSuite's cases decoded into an any by every JSON codec (serbench hostile): y_ cases are valid JSON a parser must accept, " +
		"n_ cases invalid JSON it must reject, i_ cases left to the implementation. A column is a group of cases, a cell its worst input; " +
		"the cell's facts count what was accepted and rejected and name every case the codec got wrong. " +
		"Each cell runs in a child process: a crash or a hang is the codec's, with the input that caused it. " +
		"Decoding into an any makes a number a float64: one beyond its range (y_number_huge_exp, 1E400) is rejected " +
		"by a codec that would accept it into a json.Number, and the suite counts that rejection as wrong.",
	CaseWord: "group",
	Question: "Accepts exactly the JSON RFC 8259 defines?",
	Outcomes: []results.OutcomeKind{
		{Name: NA, Code: "-", Label: "does not apply: the codec cannot decode into an any", Tone: results.ToneNone},
		{Name: OK, Code: ".", Label: "as the suite requires", Tone: results.ToneGood},
		{Name: ImplDefined, Code: "i", Label: "left to the implementation: accepted or rejected, both right", Tone: results.ToneGood},
		{Name: WrongReject, Code: "REJ", Label: "valid JSON rejected", Tone: results.ToneWarn},
		{Name: WrongAccept, Code: "ACC", Label: "invalid JSON accepted", Tone: results.ToneBad},
		{Name: Panic, Code: "PANIC", Label: "recovered panic", Tone: results.ToneWarn},
		{Name: Hang, Code: "HANG", Label: "hang", Tone: results.ToneBad},
		{Name: Crash, Code: "FATAL", Label: "fatal error", Tone: results.ToneBad, NoteNames: true,
			Codes: map[string]string{"stack overflow": "STACK", "out of memory": "OOM"}},
	},
	Rules: []results.Rule{
		{Verdict: "untested", Untried: true, Why: "It decodes no JSON into an any."},
		{Verdict: "no", When: []results.Outcome{Hang, Crash}, Detail: true,
			Why: "An input takes the process down or stalls it: {cases}."},
		{Verdict: "lenient", When: []results.Outcome{WrongAccept},
			Why: "Accepts invalid JSON: {count:wrong-accept} of the n_ cases ({cases}); rejects {count:wrong-reject} of the valid y_ ones."},
		{Verdict: "with care", When: []results.Outcome{Panic},
			Why: "Panics on {count:panic} of the cases ({cases}); recover catches it."},
		{Verdict: "strict", When: []results.Outcome{WrongReject},
			Why: "Rejects valid JSON: {count:wrong-reject} of the y_ cases ({cases}); accepts no invalid JSON."},
		{Verdict: "yes", Why: "Accepts every valid case and rejects every invalid one ({tried} groups)."},
	},
	Facts: []string{FactInputs, FactAccepted, FactRejected, FactWrong},
}

// worse reports whether outcome a is worse than b.
func worse(a, b results.Outcome) bool { return Study.Severity(a) > Study.Severity(b) }
