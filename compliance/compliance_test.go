package compliance

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

func TestStudy(t *testing.T) {
	if err := Study.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestSuite checks the suite as loaded: every case in the group its name
// says, the cases the copy broke left out, and none lost.
func TestSuite(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range s.Groups {
		if len(g.Inputs) == 0 || g.Doc == "" {
			t.Errorf("group %s: %d inputs, doc %q", g.Name, len(g.Inputs), g.Doc)
		}
		for _, in := range g.Inputs {
			n++
			if in.Name[0] != g.Name[0] || byte(in.Want) != in.Name[0] {
				t.Errorf("%s is in group %s, expecting %c", in.Name, g.Name, in.Want)
			}
			if strings.ContainsRune(string(in.Data), '\uFFFD') {
				t.Errorf("%s holds U+FFFD", in.Name)
			}
		}
	}
	if n+len(s.LeftOut) != 318 || len(s.LeftOut) != 25 || len(s.Groups) != 13 {
		t.Errorf("%d cases in %d groups, %d left out; want 293 in 13, 25 left out", n, len(s.Groups), len(s.LeftOut))
	}
	for _, name := range s.LeftOut {
		if !strings.HasPrefix(name, "n_") {
			t.Errorf("left out %s, which is not an n_ case", name)
		}
	}
	if _, _, ok := groupOf("x_nothing"); ok {
		t.Error("groupOf accepts a name without y_, n_ or i_")
	}
	if g, want, _ := groupOf("n_single_space"); g != "n_structure" || want != Reject {
		t.Errorf("groupOf(n_single_space) = %s, %c", g, want)
	}
}

// A fakeCase decodes as its function says.
type fakeCase struct{ decode func([]byte) error }

func (f fakeCase) Encode() ([]byte, error) { return nil, nil }
func (f fakeCase) Decode(b []byte) error   { return f.decode(b) }
func (f fakeCase) Value() (any, error)     { return nil, nil }
func accept([]byte) error                  { return nil }
func reject([]byte) error                  { return errors.New("no") }
func explode([]byte) error                 { panic("boom") }
func TestJudge(t *testing.T) {
	for i, tc := range []struct {
		want   Expect
		decode func([]byte) error
		out    results.Outcome
		accept bool
	}{
		{Accept, accept, OK, true},
		{Accept, reject, WrongReject, false},
		{Reject, reject, OK, false},
		{Reject, accept, WrongAccept, true},
		{Either, accept, ImplDefined, true},
		{Either, reject, ImplDefined, false},
		{Accept, explode, Panic, false},
	} {
		o, acc, _ := judge(fakeCase{tc.decode}, Input{Name: "x", Data: []byte("[]"), Want: tc.want})
		if o != tc.out || acc != tc.accept {
			t.Errorf("#%d: %s, accepted %v; want %s, %v", i, o, acc, tc.out, tc.accept)
		}
	}
}

// TestTally checks how a cell is put together from its children: a death
// at an input counts it and passes over it in the next child, whose
// outcomes fill the rest.
func TestTally(t *testing.T) {
	g := &Group{Name: "n_x", Inputs: []Input{{Name: "n_a"}, {Name: "n_b", Data: []byte("[[[")}, {Name: "n_c"}}}
	tl := &tally{outcome: NA, counts: map[results.Outcome]int{}}
	killer, done := tally1(tl, g, worker.TaskResult{Exit: &worker.Exit{Kind: worker.ExitStackOverflow}, Step: "1"})
	if killer != 1 || done {
		t.Fatalf("a death at input 1: killer %d, done %v", killer, done)
	}
	out, _ := json.Marshal(cellOut{Outcomes: []results.Outcome{OK, skipped, WrongAccept}, Accepted: []bool{false, false, true}, Details: []string{"", "", ""}})
	if killer, done = tally1(tl, g, worker.TaskResult{Output: out}); killer != -1 || !done {
		t.Fatalf("a child that ends: killer %d, done %v", killer, done)
	}
	c := cellOf("j", "n_x", tl)
	if c.Outcome != Crash || c.Note != worker.ExitStackOverflow || c.Repro == nil || c.Repro.Size != 3 ||
		c.Counts[Crash] != 1 || c.Counts[OK] != 1 || c.Counts[WrongAccept] != 1 ||
		c.Facts[FactInputs] != "3" || c.Facts[FactAccepted] != "1" || c.Facts[FactWrong] != "n_b (crash), n_c (accepted)" {
		t.Errorf("cell %+v", c)
	}
}

// TestRunCell runs the child's side in process: encoding/json over the
// valid arrays and the invalid objects gets every case right, and a
// codec that cannot decode into an any gives n/a.
func TestRunCell(t *testing.T) {
	for _, tc := range []struct {
		codec, group string
		want         results.Outcome
	}{
		{"json", "y_array", OK},
		{"json", "n_object", OK},
		{"easyjson", "y_array", NA},
	} {
		info, err := registry.Lookup(tc.codec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := runCell(context.Background(), study.Task{Codec: info, Case: tc.group, Input: json.RawMessage(`{}`)}, func(string) {})
		if err != nil {
			t.Fatal(err)
		}
		out := got.(cellOut)
		if len(out.Outcomes) == 0 {
			t.Fatalf("%s %s: no outcomes", tc.codec, tc.group)
		}
		for i, o := range out.Outcomes {
			if o != tc.want {
				t.Errorf("%s %s input %d: %s, want %s", tc.codec, tc.group, i, o, tc.want)
			}
		}
	}
}

// TestAnnotate checks the line the hostile verdicts get.
func TestAnnotate(t *testing.T) {
	h := results.NewMatrix(results.Study{Name: "h", CaseWord: "class", Outcomes: []results.OutcomeKind{{Name: "ok", Code: ".", Tone: results.ToneGood}},
		Rules: []results.Rule{{Verdict: "yes", Why: "Fine."}}}, []results.MatrixCodec{{Name: "a"}, {Name: "b"}, {Name: "c"}}, []results.MatrixCase{{Name: "k"}})
	c := results.NewMatrix(Study, []results.MatrixCodec{{Name: "a"}, {Name: "b"}}, []results.MatrixCase{{Name: "n_x"}, {Name: "n_y"}})
	c.Add(results.MatrixCell{Codec: "a", Case: "n_x", Outcome: WrongAccept, Counts: map[results.Outcome]int{WrongAccept: 2}})
	c.Add(results.MatrixCell{Codec: "a", Case: "n_y", Outcome: WrongAccept, Counts: map[results.Outcome]int{WrongAccept: 10, OK: 3}})
	c.Add(results.MatrixCell{Codec: "b", Case: "n_x", Outcome: OK, Counts: map[results.Outcome]int{OK: 4}})
	Annotate(h, c)
	for _, tc := range []struct{ codec, why string }{
		{"a", "Fine. Accepts invalid JSON: 12 cases (json-compliance)."},
		{"b", "Fine."},
		{"c", "Fine."},
	} {
		if v := h.Verdict(tc.codec); v.Why != tc.why {
			t.Errorf("%s: %q, want %q", tc.codec, v.Why, tc.why)
		}
	}
	if v := c.Judge("a"); !strings.HasPrefix(v.Why, "Accepts invalid JSON: 12 of the n_ cases (n_x, n_y)") {
		t.Errorf("compliance verdict of a: %q", v.Why)
	}
}
