package evolve

import "github.com/serbench/serbench/results"

// The outcomes of a cell, from the best to the worst.
const (
	NA      results.Outcome = "n/a"
	AsRules results.Outcome = "as-rules-say"
	Error   results.Outcome = "error"
	Changed results.Outcome = "changed"
	Loss    results.Outcome = "silent-loss"
	Crash   results.Outcome = "crash"
)

// The facts of a cell (MatrixCell.Facts): the buf rules that flag the
// change of a Protobuf cell, and the Avro compatibility mode the change
// satisfies of an Avro cell.
const (
	FactBuf  = "buf_rule"
	FactAvro = "avro_compat"
)

// Study is the evolution study as data: its outcomes, the rule of its
// verdict and the clauses of each codec's "safe changes" profile.
var Study = results.Study{
	Name:  "evolution",
	Title: "Schema evolution",
	About: "What each codec does when the writer and the reader disagree on the schema (serbench evolve): every change run both ways, " +
		"an old reader on new data and a new reader on old data, each cell in a child process. " +
		"\"as the rules say\" means the shared fields read equal and the reader's own fields read zero or their default; " +
		"a value no reader field can hold should be an error.",
	CaseWord: "case",
	Question: "Which schema changes read back right?",
	Outcomes: []results.OutcomeKind{
		{Name: NA, Code: "-", Label: "the codec cannot express the change", Tone: results.ToneNone},
		{Name: AsRules, Code: ".", Label: "read as the rules say", Tone: results.ToneGood},
		{Name: Error, Code: "e", Label: "an error", Tone: results.ToneWarn},
		{Name: Changed, Code: "c", Label: "read with a changed value", Tone: results.ToneBad},
		{Name: Loss, Code: "L", Label: "a value lost silently", Tone: results.ToneBad},
		{Name: Crash, Code: "X", Label: "the reader crashed", Tone: results.ToneBad, NoteNames: true},
	},
	Rules: []results.Rule{
		{Verdict: "untested", Untried: true, Why: "No case applied."},
		{Verdict: "unsafe", When: []results.Outcome{Crash}, Detail: true,
			Why: "A schema change crashes the reader: {cases}."},
		{Verdict: "silent", When: []results.Outcome{Changed, Loss}, Groups: true,
			Why: "Some changes read back wrong without an error: {cases}. Check what each reader gets before making one of them."},
		{Verdict: "strict", When: []results.Outcome{Error}, Groups: true,
			Why: "What it cannot read as the rules say is an error ({cases}); no change of the {tried} tried reads back wrong silently."},
		{Verdict: "tolerant", Why: "Every change tried ({tried}) reads as the rules say."},
	},
	Facts:        []string{FactBuf, FactAvro},
	ProfileTitle: "Safe changes",
	Profile: []results.Clause{
		{Say: "safe", When: []results.Outcome{AsRules}},
		{Say: "an error", When: []results.Outcome{Error}},
		{Say: "read changed", When: []results.Outcome{Changed}},
		{Say: "lost silently", When: []results.Outcome{Loss}},
		{Say: "crash", When: []results.Outcome{Crash}},
	},
}
