package results_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

// study is a study of three outcomes and every kind of rule.
var study = results.Study{
	Name: "toy", CaseWord: "case",
	Outcomes: []results.OutcomeKind{
		{Name: "skip", Code: "-", Label: "does not apply", Tone: results.ToneNone},
		{Name: "ok", Code: ".", Label: "fine", Tone: results.ToneGood},
		{Name: "odd", Code: "?", Label: "odd", Tone: results.ToneWarn},
		{Name: "dead", Code: "X", Label: "fatal", Tone: results.ToneBad, NoteNames: true, Codes: map[string]string{"stack overflow": "S"}},
	},
	Rules: []results.Rule{
		{Verdict: "untested", Untried: true, Why: "Nothing applied."},
		{Verdict: "no", When: []results.Outcome{"dead"}, Detail: true, Why: "It dies: {cases}."},
		{Verdict: "maybe", When: []results.Outcome{"odd"}, Why: "Odd on {cases} of {tried}."},
		{Verdict: "yes", Why: "All {tried} fine."},
	},
}

func TestJudge(t *testing.T) {
	var cases []results.MatrixCase
	for i := range 12 {
		cases = append(cases, results.MatrixCase{Name: fmt.Sprint("c", i)})
	}
	m := results.NewMatrix(study, []results.MatrixCodec{{Name: "fine"}, {Name: "odd"}, {Name: "dead"}, {Name: "none"}, {Name: "many"}}, cases)
	m.Add(results.MatrixCell{Codec: "fine", Case: "c0", Outcome: "ok"})
	m.Add(results.MatrixCell{Codec: "fine", Case: "c1", Outcome: "skip"})
	m.Add(results.MatrixCell{Codec: "odd", Case: "c0", Outcome: "odd"})
	m.Add(results.MatrixCell{Codec: "odd", Case: "c1", Outcome: "ok"})
	m.Add(results.MatrixCell{Codec: "dead", Case: "c0", Outcome: "odd"})
	m.Add(results.MatrixCell{Codec: "dead", Case: "c1", Outcome: "dead", Note: "stack overflow", Repro: &results.Reproducer{Size: 9}})
	m.Add(results.MatrixCell{Codec: "dead", Case: "c2", Outcome: "dead"})
	m.Add(results.MatrixCell{Codec: "none", Case: "c0", Outcome: "skip"})
	for _, c := range cases {
		m.Add(results.MatrixCell{Codec: "many", Case: c.Name, Outcome: "odd"})
	}
	for _, tc := range []struct{ codec, verdict, why string }{
		{"fine", "yes", "All 1 fine."},
		{"odd", "maybe", "Odd on c0 of 2."},
		{"dead", "no", "It dies: c1 (stack overflow, 9-byte input); c2 (fatal)."},
		{"none", "untested", "Nothing applied."},
		{"many", "maybe", "Odd on c0, c1, c2, c3, c4, c5, c6, c7, and 4 more of 12."},
	} {
		if v := m.Judge(tc.codec); v.Verdict != tc.verdict || v.Why != tc.why {
			t.Errorf("%s: %s, %q; want %s, %q", tc.codec, v.Verdict, v.Why, tc.verdict, tc.why)
		}
	}
	if c := m.Cell("dead", "c1"); c == nil || study.Code(c) != "S" || study.Code(m.Cell("dead", "c2")) != "X" {
		t.Errorf("a crash's note does not select its code")
	}
	shows := results.Study{Outcomes: []results.OutcomeKind{{Name: "size", Code: "#", ShowNote: true}}}
	if got := shows.Code(&results.MatrixCell{Outcome: "size", Note: "+1.2 MB"}); got != "+1.2 MB" {
		t.Errorf("a cell of an outcome that shows notes has mark %q, want its note", got)
	}
	if got := shows.Code(&results.MatrixCell{Outcome: "size"}); got != "#" {
		t.Errorf("a cell without a note has mark %q, want its outcome's code", got)
	}
	if got := study.Text(m.Cell("dead", "c1")); got != "fatal (stack overflow)" {
		t.Errorf("Text = %q", got)
	}
	if k := study.Kind("unknown"); k.Code != "?" || k.Label != "unknown" || study.Severity("unknown") != -1 || study.Severity("dead") != 3 {
		t.Errorf("an unknown outcome: %+v", k)
	}
}

// TestValidate: what makes a study unusable is named.
func TestValidate(t *testing.T) {
	if err := study.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := study
	bad.Name = "../x"
	bad.Outcomes = append(slices.Clone(study.Outcomes), results.OutcomeKind{Name: "ok", Code: "o", Tone: "pink"})
	bad.Rules = []results.Rule{{Verdict: "v", When: []results.Outcome{"nope"}}}
	err := bad.Validate()
	for _, want := range []string{`name "../x"`, `outcome "ok" is listed twice`, `tone "pink"`, `outcome "nope", which the study does not list`, "no last rule that always applies"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v; want it to say %q", err, want)
		}
	}
}

// TestMatrixJSON: Add replaces a cell of the same codec and case and
// escapes its text; the JSON carries the study and the verdicts, and a
// file that is not a matrix is refused with its name.
func TestMatrixJSON(t *testing.T) {
	m := results.NewMatrix(study, []results.MatrixCodec{{Name: "a"}}, []results.MatrixCase{{Name: "c0"}, {Name: "c1"}})
	m.Add(results.MatrixCell{Codec: "a", Case: "c0", Outcome: "odd"})
	m.Add(results.MatrixCell{Codec: "a", Case: "c0", Outcome: "ok", Detail: "nul\x00"})
	if len(m.Cells) != 1 || m.Cells[0].Outcome != "ok" || m.Cells[0].Detail != `nul\x00` {
		t.Fatalf("cells after replacing one: %+v", m.Cells)
	}
	if row := m.Row("a"); len(row) != 2 || row[0] == nil || row[1] != nil {
		t.Errorf("Row = %v", row)
	}
	var b bytes.Buffer
	if err := m.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadMatrix(&b, "toy.json")
	if err != nil {
		t.Fatal(err)
	}
	if back.Study.Name != "toy" || len(back.Study.Rules) != 4 || len(back.Verdicts) != 1 || back.Verdicts[0].Verdict != "yes" {
		t.Errorf("read back: study %+v, verdicts %+v", back.Study, back.Verdicts)
	}
	for _, bad := range []string{`{"results": []}`, `{"study": {"name": "x", "outcomes": [{"name": "a"}]}, "codecs": []}`, `[`} {
		if _, err := results.ReadMatrix(strings.NewReader(bad), "bad.json"); err == nil || !strings.HasPrefix(err.Error(), "bad.json: ") {
			t.Errorf("ReadMatrix(%s): %v; want an error naming the file", bad, err)
		}
	}
}

// TestPrintable: text passes unchanged; what is not text is escaped.
func TestPrintable(t *testing.T) {
	for _, tc := range [][2]string{
		{"plain, ≈ UTF-8\nand\ttabs", "plain, ≈ UTF-8\nand\ttabs"},
		{"a\x00b\x7f", `a\x00b\x7f`},
		{"\xff", `\xff`},
		{"\u0085\u2028", `\u0085\u2028`},
		{"\uFFFD stays", "\uFFFD stays"},
	} {
		if got := results.Printable(tc[0]); got != tc[1] {
			t.Errorf("Printable(%q) = %q, want %q", tc[0], got, tc[1])
		}
	}
}

// TestJudgeCount checks the "{count:OUTCOME}" of a rule's Why: the inputs
// of that outcome over the row, a cell without counts counting one.
func TestJudgeCount(t *testing.T) {
	s := study
	s.Rules = []results.Rule{
		{Verdict: "maybe", When: []results.Outcome{"odd"}, Why: "{count:odd} odd, {count:ok} fine, {count:dead} dead."},
		{Verdict: "yes", Why: "fine"},
	}
	m := results.NewMatrix(s, []results.MatrixCodec{{Name: "a"}}, []results.MatrixCase{{Name: "c0"}, {Name: "c1"}, {Name: "c2"}})
	m.Add(results.MatrixCell{Codec: "a", Case: "c0", Outcome: "odd", Counts: map[results.Outcome]int{"odd": 3, "ok": 5}})
	m.Add(results.MatrixCell{Codec: "a", Case: "c1", Outcome: "odd"})
	m.Add(results.MatrixCell{Codec: "a", Case: "c2", Outcome: "ok", Counts: map[results.Outcome]int{"ok": 2}})
	if v := m.Judge("a"); v.Why != "4 odd, 7 fine, 0 dead." {
		t.Errorf("Why = %q", v.Why)
	}
}

// TestProfile checks a row summed up by clauses: a group named once when
// all its tried cells fall in one clause, its cases otherwise; an untried
// cell counts for no clause.
func TestProfile(t *testing.T) {
	s := study
	s.Profile = []results.Clause{{Say: "fine", When: []results.Outcome{"ok"}}, {Say: "bad", When: []results.Outcome{"odd", "dead"}}}
	cases := []results.MatrixCase{
		{Name: "a/1", Group: "a"}, {Name: "a/2", Group: "a"},
		{Name: "b/1", Group: "b"}, {Name: "b/2", Group: "b"},
		{Name: "c/1", Group: "c"}, {Name: "c/2", Group: "c"},
		{Name: "d"},
	}
	m := results.NewMatrix(s, []results.MatrixCodec{{Name: "x"}, {Name: "none"}}, cases)
	for c, o := range map[string]results.Outcome{"a/1": "ok", "a/2": "ok", "b/1": "ok", "b/2": "odd", "c/1": "skip", "c/2": "dead", "d": "ok"} {
		m.Add(results.MatrixCell{Codec: "x", Case: c, Outcome: o})
	}
	m.Add(results.MatrixCell{Codec: "none", Case: "d", Outcome: "skip"})
	for codec, want := range map[string]string{
		"x":    "fine: a, b/1, d; bad: b/2, c",
		"none": "",
	} {
		if got := m.Profile(codec); got != want {
			t.Errorf("Profile(%s) = %q; want %q", codec, got, want)
		}
	}
	m.Study.Profile = nil
	if got := m.Profile("x"); got != "" {
		t.Errorf("Profile without clauses = %q; want empty", got)
	}
}

// TestJudgeGroups checks a rule that names a group once when all its
// tried cases match, and its cases one by one otherwise.
func TestJudgeGroups(t *testing.T) {
	s := study
	s.Rules = []results.Rule{{Verdict: "odd", When: []results.Outcome{"odd"}, Groups: true, Why: "Odd: {cases}."}, {Verdict: "fine", Why: "Fine."}}
	cases := []results.MatrixCase{{Name: "a/1", Group: "a"}, {Name: "a/2", Group: "a"}, {Name: "b/1", Group: "b"}, {Name: "b/2", Group: "b"}}
	m := results.NewMatrix(s, []results.MatrixCodec{{Name: "x"}}, cases)
	for c, o := range map[string]results.Outcome{"a/1": "odd", "a/2": "odd", "b/1": "ok", "b/2": "odd"} {
		m.Add(results.MatrixCell{Codec: "x", Case: c, Outcome: o})
	}
	if v := m.Judge("x"); v.Why != "Odd: a, b/2." {
		t.Errorf("Judge = %+v; want the group a named once, and b/2", v)
	}
}
