package compliance

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// DefaultTimeout is the default per-input timeout.
const DefaultTimeout = 10 * time.Second

// Family is the codec family the study applies to.
const Family = "json"

// Spec returns the JSON compliance study as a value (package study):
// JSONTestSuite's groups of cases through every JSON codec that makes
// round trips of its own, each cell in a child of its own, the step an
// input. A cell whose child an input killed runs again, passing over
// every input that killed one (a child's outcomes come back only when it
// ends), until maxDeaths have.
func Spec() (*study.Study, error) {
	suite, err := Load()
	if err != nil {
		return nil, err
	}
	var cases []study.Case
	for _, g := range suite.Groups {
		cases = append(cases, study.Case{Name: g.Name, Group: g.Name[:1] + "_", Doc: g.Doc})
	}
	return &study.Study{
		Matrix:  Study,
		Cases:   cases,
		Takes:   takes,
		Timeout: DefaultTimeout,
		Step:    "one input",
		Settings: []string{fmt.Sprintf("%d cases of JSONTestSuite, from bytedance/sonic's copy; %d left out, whose invalid UTF-8 that copy replaced by U+FFFD",
			inputsOf(suite), len(suite.LeftOut))},
		Input: func(c *study.Cell) any { return cellTask{Skip: stateOf(c).skip} },
		Cell:  runCell,
		Record: func(c *study.Cell, r worker.TaskResult) bool {
			st := stateOf(c)
			g, _ := suite.Lookup(c.Case.Name)
			killer, done := tally1(st.t, g, r)
			if killer >= 0 {
				st.skip = append(st.skip, killer)
			}
			c.Result = cellOf(c.Codec.Name, c.Case.Name, st.t)
			return !done && len(st.skip) <= maxDeaths
		},
	}, nil
}

// takes says why a codec takes no part: an in-place reader, or not JSON.
func takes(info codec.Info) string {
	if why := study.RoundTrips(info); why != "" {
		return why
	}
	if info.Family != Family {
		return "not a JSON codec: JSONTestSuite's cases are JSON text"
	}
	return ""
}

// A cellState is what the parent keeps of a cell between its tasks.
type cellState struct {
	t    *tally
	skip []int // the inputs that killed a child
}

func stateOf(c *study.Cell) *cellState {
	if c.State == nil {
		c.State = &cellState{t: &tally{outcome: NA, counts: map[results.Outcome]int{}}}
	}
	return c.State.(*cellState)
}

// A cellTask is the input of a cell's task, besides its codec and group:
// the inputs to pass over, each of which killed a child before.
type cellTask struct {
	Skip []int `json:"skip,omitempty"`
}

// cellOut is the output of a cell's task: each input's outcome, in
// order, those passed over as skipped.
type cellOut struct {
	Outcomes []results.Outcome `json:"outcomes"`
	Accepted []bool            `json:"accepted"`
	Details  []string          `json:"details"`
}

// JSONCodecs returns the names among names of the codecs the study takes
// (every one it takes when names is empty).
func JSONCodecs(names []string) []string {
	var out []string
	for _, c := range registry.Codecs {
		if takes(c) == "" && (len(names) == 0 || slices.Contains(names, c.Name)) {
			out = append(out, c.Name)
		}
	}
	return out
}

// A tally is what the parent has gathered of a cell.
type tally struct {
	outcome            results.Outcome
	counts             map[results.Outcome]int
	accepted, rejected int
	wrong              []string
	inputs             int
	note, detail       string
	repro              []byte
}

func (t *tally) add(o results.Outcome, accepted bool, name string) {
	t.counts[o]++
	t.inputs++
	if accepted {
		t.accepted++
	} else if o != Panic && o != Hang && o != Crash && o != NA {
		t.rejected++
	}
	switch o {
	case WrongAccept:
		t.wrong = append(t.wrong, name+" (accepted)")
	case WrongReject:
		t.wrong = append(t.wrong, name+" (rejected)")
	case Panic, Hang, Crash:
		t.wrong = append(t.wrong, name+" ("+string(o)+")")
	}
	if worse(o, t.outcome) {
		t.outcome = o
	}
}

func inputsOf(s *Suite) int {
	n := 0
	for _, g := range s.Groups {
		n += len(g.Inputs)
	}
	return n
}

// maxDeaths is how many inputs may kill a cell's children before the
// cell stops: each death reruns the inputs before it.
const maxDeaths = 8

// tally1 adds a task's result to t: the input that killed its child
// (-1 if none), and whether the cell is done (its outcomes are in).
func tally1(t *tally, g *Group, r worker.TaskResult) (killer int, done bool) {
	switch {
	case r.Exit != nil:
		at, err := strconv.Atoi(r.Step)
		if err != nil || at < 0 || at >= len(g.Inputs) {
			t.add(Crash, false, "(before its first input)")
			t.note, t.detail = r.Exit.Kind, "the child died before an input: "+r.Exit.String()
			return -1, true
		}
		o := Crash
		if r.Exit.Kind == worker.ExitTimeout {
			o = Hang
		}
		in := g.Inputs[at]
		t.add(o, false, in.Name)
		if t.note == "" {
			t.note, t.detail, t.repro = r.Exit.Kind, in.Name+": "+r.Exit.String(), in.Data
		}
		return at, false
	case r.Err != "":
		t.add(Crash, false, "(the task)")
		t.detail = "the task failed: " + r.Err
		return -1, true
	}
	var out cellOut
	if err := json.Unmarshal(r.Output, &out); err != nil || len(out.Outcomes) != len(g.Inputs) {
		t.add(Crash, false, "(the task)")
		t.detail = fmt.Sprintf("unreadable task output (%d outcomes for %d inputs): %v", len(out.Outcomes), len(g.Inputs), err)
		return -1, true
	}
	for i, o := range out.Outcomes {
		if o == skipped {
			continue // an input that killed a child: tallied then
		}
		t.add(o, out.Accepted[i], g.Inputs[i].Name)
		if o == Panic && t.detail == "" {
			t.detail, t.repro = g.Inputs[i].Name+": "+out.Details[i], g.Inputs[i].Data
		}
	}
	return -1, true
}

// skipped is the outcome a child gives an input it passes over.
const skipped results.Outcome = "skipped"

// cellOf turns a tally into the matrix cell of codec and group.
func cellOf(codec, group string, t *tally) results.MatrixCell {
	c := results.MatrixCell{Codec: codec, Case: group, Outcome: t.outcome, Counts: t.counts, Note: t.note, Detail: t.detail}
	if t.outcome == NA {
		c.Counts = nil
		return c
	}
	c.Facts = map[string]string{
		FactInputs: strconv.Itoa(t.inputs), FactAccepted: strconv.Itoa(t.accepted),
		FactRejected: strconv.Itoa(t.rejected), FactWrong: strings.Join(t.wrong, ", "),
	}
	if len(t.wrong) > 0 {
		wrong := "wrong: " + strings.Join(t.wrong, ", ")
		if c.Detail == "" {
			c.Detail = wrong
		} else {
			c.Detail += "; " + wrong
		}
	}
	if t.repro != nil {
		c.Repro = &results.Reproducer{Size: len(t.repro), Hex: hex.Dump(t.repro[:min(len(t.repro), 128)]), Data: t.repro}
	}
	return c
}

// anyType is what every input is decoded into.
var anyType = reflect.TypeFor[*any]()

// runCell is the child's side: it decodes each input of the cell from the
// task's From, announcing each as a step, and returns their outcomes.
func runCell(_ context.Context, task study.Task, step func(string)) (any, error) {
	var t cellTask
	if err := json.Unmarshal(task.Input, &t); err != nil {
		return nil, err
	}
	info := task.Codec
	suite, err := Load()
	if err != nil {
		return nil, err
	}
	g, ok := suite.Lookup(task.Case)
	if !ok {
		return nil, fmt.Errorf("compliance: no group %q", task.Case)
	}
	var out cellOut
	c, na := prepare(info)
	for i, in := range g.Inputs {
		if slices.Contains(t.Skip, i) {
			out.Outcomes, out.Accepted, out.Details = append(out.Outcomes, skipped), append(out.Accepted, false), append(out.Details, "")
			continue
		}
		step(strconv.Itoa(i))
		if na {
			out.Outcomes, out.Accepted, out.Details = append(out.Outcomes, NA), append(out.Accepted, false), append(out.Details, "")
			continue
		}
		o, accepted, detail := judge(c, in)
		out.Outcomes, out.Accepted, out.Details = append(out.Outcomes, o), append(out.Accepted, accepted), append(out.Details, detail)
	}
	return out, nil
}

// prepare returns a case of info decoding into an any, or na when the
// codec cannot decode into one.
func prepare(info codec.Info) (c codec.Case, na bool) {
	if info.Supports(anyType.String(), codec.FeaturesOf(anyType)) != nil {
		return nil, true
	}
	c, err := info.New().Prepare(new(any))
	if err != nil {
		return nil, true
	}
	return c, false
}

// judge decodes one input, through the one guard (codec.Guard), and
// says what its outcome is.
func judge(c codec.Case, in Input) (o results.Outcome, accepted bool, detail string) {
	// A copy, so that a decoder that writes into its input or keeps it
	// cannot change the suite.
	err := codec.Guard(func() error { return c.Decode(append([]byte(nil), in.Data...)) })
	if pe := (*codec.PanicError)(nil); errors.As(err, &pe) {
		return Panic, false, fmt.Sprint(pe.Value)
	}
	accepted = err == nil
	switch {
	case in.Want == Either:
		return ImplDefined, accepted, ""
	case in.Want == Accept && !accepted:
		return WrongReject, false, err.Error()
	case in.Want == Reject && accepted:
		return WrongAccept, true, ""
	}
	return OK, accepted, ""
}

// Annotate adds to the verdict of each JSON codec in the hostile matrix h
// the invalid JSON it accepts in the compliance matrix c: "Accepts invalid
// JSON: 12 cases (json-compliance)."
func Annotate(h, c *results.Matrix) {
	if len(h.Verdicts) != len(h.Codecs) {
		h.JudgeAll()
	}
	for i, v := range h.Verdicts {
		n := 0
		for _, cell := range c.Row(v.Codec) {
			if cell != nil {
				n += cell.Counts[WrongAccept]
			}
		}
		switch {
		case n == 1:
			h.Verdicts[i].Why += fmt.Sprintf(" Accepts invalid JSON: 1 case (%s).", Study.Name)
		case n > 1:
			h.Verdicts[i].Why += fmt.Sprintf(" Accepts invalid JSON: %d cases (%s).", n, Study.Name)
		}
	}
}
