package matrix_test

import (
	"os"

	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/results"
)

// A new study brings its outcomes and its verdict rule as data, fills a
// results.Matrix, and every renderer draws it.
func Example() {
	study := results.Study{
		Name: "evolution", Title: "Schema evolution", CaseWord: "change",
		Question: "Does a newer writer's message reach an older reader?",
		Outcomes: []results.OutcomeKind{
			{Name: "reads", Code: "=", Label: "read", Tone: results.ToneGood},
			{Name: "refused", Code: "E", Label: "refused with an error", Tone: results.ToneWarn},
			{Name: "wrong", Code: "≠", Label: "read as another value", Tone: results.ToneBad},
		},
		Rules: []results.Rule{
			{Verdict: "no", When: []results.Outcome{"wrong"}, Why: "It reads another value, without an error, after: {cases}."},
			{Verdict: "yes", Why: "Every change tried ({tried}) is read, or refused with an error."},
		},
	}
	m := results.NewMatrix(study,
		[]results.MatrixCodec{{Name: "json"}, {Name: "gob"}},
		[]results.MatrixCase{{Name: "add-field", Doc: "a field added"}, {Name: "retype", Doc: "an int field made a string"}})
	m.Add(results.MatrixCell{Codec: "json", Case: "add-field", Outcome: "reads"})
	m.Add(results.MatrixCell{Codec: "json", Case: "retype", Outcome: "refused", Detail: "cannot unmarshal string into int"})
	m.Add(results.MatrixCell{Codec: "gob", Case: "add-field", Outcome: "reads"})
	m.Add(results.MatrixCell{Codec: "gob", Case: "retype", Outcome: "wrong"})
	matrix.Write(os.Stdout, m, false)
	// Output:
	//       12
	// json  =E
	// gob   =≠
	//
	// = read  E refused with an error  ≠ read as another value
	//
	//   1 add-field  a field added
	//   2 retype     an int field made a string
	//
	// Does a newer writer's message reach an older reader?
	//   json  yes  Every change tried (2) is read, or refused with an error.
	//   gob   no   It reads another value, without an error, after: retype.
}
