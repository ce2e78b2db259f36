package compliance

import (
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/buildinfo"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// Options select a run's codecs and set its limits.
type Options struct {
	// Codecs are the codecs to run; those not of the JSON family are
	// left out. Default: every JSON codec.
	Codecs []string
	// Timeout is how long one input may take before its child is killed
	// as hung. Default DefaultTimeout.
	Timeout time.Duration
}

// DefaultTimeout is the default per-input timeout.
const DefaultTimeout = 10 * time.Second

// Family is the codec family the study applies to.
const Family = "json"

// Handler is the worker task that runs one cell in a child process; the
// worker command must serve it.
var Handler = worker.Handler{Name: Study.Name, Run: runCell}

// A cellTask is the input of the Handler: a codec, a group, and the
// inputs to pass over, each of which killed a child before.
type cellTask struct {
	Codec string `json:"codec"`
	Group string `json:"group"`
	Skip  []int  `json:"skip,omitempty"`
}

// cellOut is the output of the Handler: each input's outcome, in order,
// those passed over as n/a.
type cellOut struct {
	Outcomes []results.Outcome `json:"outcomes"`
	Accepted []bool            `json:"accepted"`
	Details  []string          `json:"details"`
}

// JSONCodecs returns the names among names (every registered codec that
// makes round trips of its own when names is empty) of the JSON family.
func JSONCodecs(names []string) []string {
	if len(names) == 0 {
		for _, c := range registry.RoundTrippers() {
			names = append(names, c.Name)
		}
	}
	var out []string
	for _, n := range names {
		if info, err := registry.Lookup(n); err == nil && info.Family == Family {
			out = append(out, n)
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

// Run runs the study over the JSON codecs of opts, each cell in a child
// of pool, and returns its matrix. pool's TaskTimeout is set from opts.
func Run(ctx context.Context, pool *worker.Pool, opts Options) (*results.Matrix, error) {
	if err := registry.Check(opts.Codecs); err != nil {
		return nil, err
	}
	suite, err := Load()
	if err != nil {
		return nil, err
	}
	codecs := JSONCodecs(opts.Codecs)
	timeout := cmp.Or(opts.Timeout, DefaultTimeout)
	var mcodecs []results.MatrixCodec
	for _, name := range codecs {
		info, _ := registry.Lookup(name)
		mcodecs = append(mcodecs, results.MatrixCodec{Name: name, Label: info.Label, Family: info.Family, API: string(info.API), Module: info.Module, Version: registry.Version(info.Module)})
	}
	var cases []results.MatrixCase
	for _, g := range suite.Groups {
		cases = append(cases, results.MatrixCase{Name: g.Name, Group: g.Name[:1] + "_", Doc: g.Doc})
	}
	m := results.NewMatrix(Study, mcodecs, cases)
	m.Go, m.Serbench = runtime.Version(), buildinfo.Main()
	m.Settings = []string{"per-input timeout " + timeout.String(),
		fmt.Sprintf("%d cases of JSONTestSuite, from bytedance/sonic's copy; %d left out, whose invalid UTF-8 that copy replaced by U+FFFD", inputsOf(suite), len(suite.LeftOut))}
	type cell struct {
		codec string
		group *Group
		skip  []int // the inputs that killed a child
		done  bool
		t     *tally
	}
	var cells []*cell
	for _, co := range codecs {
		for i := range suite.Groups {
			cells = append(cells, &cell{codec: co, group: &suite.Groups[i], t: &tally{outcome: NA, counts: map[results.Outcome]int{}}})
		}
	}
	pool.TaskTimeout = timeout
	start := time.Now()
	// A round runs, in a child each, the cells not done: all of them
	// first, then again those whose child an input killed, passing over
	// every input that killed one (a child's outcomes come back only
	// when it ends).
	if err == nil {
		err = pool.RunRounds(ctx, func() ([]worker.Task, func(int, worker.TaskResult)) {
			var tasks []worker.Task
			var of []*cell
			for _, c := range cells {
				if !c.done {
					in, _ := json.Marshal(cellTask{Codec: c.codec, Group: c.group.Name, Skip: c.skip})
					tasks = append(tasks, worker.Task{Name: Handler.Name, Input: in})
					of = append(of, c)
				}
			}
			return tasks, func(i int, r worker.TaskResult) {
				c := of[i]
				killer, done := tally1(c.t, c.group, r)
				if killer >= 0 {
					c.skip = append(c.skip, killer)
				}
				c.done = done || len(c.skip) > maxDeaths
			}
		})
	}
	m.Elapsed = time.Since(start).Round(time.Second).String()
	for _, c := range cells {
		m.Add(cellOf(c.codec, c.group.Name, c.t))
	}
	m.JudgeAll()
	return m, err
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
func runCell(_ context.Context, task json.RawMessage, step func(string)) (json.RawMessage, error) {
	var t cellTask
	if err := json.Unmarshal(task, &t); err != nil {
		return nil, err
	}
	info, err := registry.Lookup(t.Codec)
	if err != nil {
		return nil, err
	}
	suite, err := Load()
	if err != nil {
		return nil, err
	}
	g, ok := suite.Lookup(t.Group)
	if !ok {
		return nil, fmt.Errorf("compliance: no group %q", t.Group)
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
	return json.Marshal(out)
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

// judge decodes one input and says what its outcome is.
func judge(c codec.Case, in Input) (o results.Outcome, accepted bool, detail string) {
	defer func() {
		if p := recover(); p != nil {
			o, accepted, detail = Panic, false, fmt.Sprint(p)
		}
	}()
	// A copy, so that a decoder that writes into its input or keeps it
	// cannot change the suite.
	err := c.Decode(append([]byte(nil), in.Data...))
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
