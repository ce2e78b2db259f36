package study

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// A Study is a study as a value: its matrix as data, its cases, the
// codecs it takes, what one cell does in a child and how its outcome is
// recorded. Run runs it; the CLI's study template makes it a command.
// Only Matrix, Cases, Cell and Record are required.
type Study struct {
	// Matrix is what the study's matrix means: its name (of its files,
	// its worker task and its command), its outcomes and verdict rules.
	Matrix results.Study
	// Cases are the study's cases, in matrix order.
	Cases []Case
	// CaseList is what a flag and `serbench list` call the cases:
	// "probes" for -probes and `serbench list probes`. Default "cases".
	CaseList string
	// Takes says whether a codec takes part, from what its codec.Info
	// declares, never from its name: "" when it does, else why not, in a
	// phrase a user reads after "json cannot take part: ". Default: every
	// codec that makes round trips of its own (not an in-place reader).
	Takes func(codec.Info) string
	// Codecs returns the rows the study may take, in order. Default:
	// registry.Codecs. A study whose rows are not plain registry entries
	// (one codec read two ways) returns its own.
	Codecs func() []codec.Info
	// Rows, if set, returns the rows a codec gives the study, each a
	// codec.Info of its own name (Avro read with the writer's schema and
	// with the reader's alone); -codecs NAME selects every row of the
	// codec NAME, or one row by its name. Default: the codec alone.
	Rows func(codec.Info) []codec.Info
	// Facet, if set, is the value of a row a reader may filter the rows
	// by (results.MatrixCodec.Facet, which Matrix.FacetWord names): the
	// language of an interop row's peer.
	Facet func(row codec.Info) string
	// Timeout is the default time a child may stay in one step before it
	// is killed as hung; Options.Timeout overrides it. Default
	// worker.DefaultTaskTimeout.
	Timeout time.Duration
	// Step says in a few words what one step of a child is, for the
	// -timeout help and the settings: "one probe".
	Step string
	// Settings say how the study runs, a phrase each, beside the
	// driver's own ("per-step timeout 10s") in the matrix.
	Settings []string
	// PerCodec makes one child run every case left of a codec, the driver
	// announcing each case as a step (a child that dies costs the case it
	// was in; the others go to the next round). Without it every cell has
	// a child of its own, and Cell announces its own steps.
	PerCodec bool
	// Input, if set, returns what a new task of cell c carries besides
	// its codec and case (Task.Input): the study's own options, or the
	// input to go on from that Record kept in c.State.
	Input func(c *Cell) any
	// Limits, if set, returns the caps of a new task of cell c (from what
	// Record kept in c.State: a replay in a default Go process, say).
	// Default: the zero worker.Limits, worker.DefaultLimits.
	Limits func(c *Cell) worker.Limits
	// Before, if set, runs once before the first round with the cells to
	// run (a resumed run's cells done are not among them). It may run
	// tasks of the study's own child side through run (all at once on
	// the pool, each under its Task.Limits; Cell gets each Task), keep
	// what a cell's tasks need in its State, and finish a cell without a
	// task by setting its Result.Outcome (a case that does not apply):
	// such a cell is journaled as done and runs no task.
	Before func(ctx context.Context, cells []*Cell, run func(context.Context, []Task) ([]worker.TaskResult, error)) error
	// Cell is the child's side: it runs t's case through t's codec,
	// calling step before each part that may crash or hang (a PerCodec
	// study's step is the driver's and Cell's calls are ignored), and
	// returns what Record reads, as any JSON value.
	Cell func(ctx context.Context, t Task, step func(string)) (any, error)
	// Record is the parent's side: it reads the end of a task of c into
	// c.Result (Codec and Case are set already) and returns true to run
	// the cell again in the next round. A round ends when every child of
	// it has, so a cell run again waits for the round's slowest.
	Record func(c *Cell, r worker.TaskResult) (again bool)
	// Rerun is, for an estimate, what the tasks a cell runs after its
	// first cost when Record asks for more after it, as a multiple of the
	// first task's wall time (Options.Task). Zero: about the first's, once.
	Rerun float64
	// After, if set, runs once every cell is in, before the verdicts,
	// with the matrix: a study's own facts drawn from several cells.
	After func(ctx context.Context, m *results.Matrix) error
}

// A Case is one case of a study: a probe, an input class, a schema change.
type Case = results.MatrixCase

// A Cell is one case through one codec as the driver holds it while the
// study runs.
type Cell struct {
	Codec codec.Info
	Case  Case
	// Result is the cell as Record last wrote it.
	Result results.MatrixCell
	// Tasks counts the tasks the cell has ended, the one Record reads
	// included.
	Tasks int
	// State is the study's own, kept between rounds.
	State any
}

// A Task is what a child's Cell is given: the codec, the case, and the
// study's Input for the cell.
type Task struct {
	Codec codec.Info
	Case  string
	Input json.RawMessage
	// Limits are the caps of a task Before runs (the parent's only: a
	// child reads zero).
	Limits worker.Limits `json:"-"`
}

// Header returns the row of a matrix for a codec: the one constructor,
// so that every study's rows carry name, label, family, API, module and
// the module's version as linked.
func Header(info codec.Info) results.MatrixCodec {
	return results.MatrixCodec{
		Name: info.Name, Label: info.Label, Family: info.Family, API: string(info.API),
		Module: info.Module, Version: registry.Version(info.Module),
	}
}

// Died says how a task's child ended without an answer, the same way for
// every study: "hung: no step for 10s; killed", "the child died (stack
// overflow): ...", or the handler's error. It is "" for a task that
// answered.
func Died(r worker.TaskResult) string {
	switch {
	case r.Exit != nil && r.Exit.Kind == worker.ExitTimeout:
		return "hung: " + r.Exit.Detail
	case r.Exit != nil:
		return fmt.Sprintf("the child died (%s): %s", r.Exit.Kind, r.Exit.Detail)
	case r.Err != "":
		return "the task failed: " + r.Err
	}
	return ""
}

// Decode reads a task's output into v, the value the child's Cell
// returned.
func Decode(r worker.TaskResult, v any) error {
	if err := json.Unmarshal(r.Output, v); err != nil {
		return fmt.Errorf("unreadable output of the child: %w", err)
	}
	return nil
}

// caseList returns CaseList or its default.
func (s *Study) caseList() string {
	if s.CaseList != "" {
		return s.CaseList
	}
	return "cases"
}

// takes returns why info cannot take part, or "".
func (s *Study) takes(info codec.Info) string {
	if s.Takes != nil {
		return s.Takes(info)
	}
	return RoundTrips(info)
}

// RoundTrips is the default of Study.Takes: every codec that makes round
// trips of its own takes part; an in-place reader (codec.Info.ReadsOnly)
// does not.
func RoundTrips(info codec.Info) string {
	if info.ReadsOnly != "" {
		return "an in-place reader of " + info.ReadsOnly + "'s encodings: its round trips are " + info.ReadsOnly + "'s"
	}
	return ""
}

// A row is a row the study may take, and the codec it comes from.
type row struct {
	info codec.Info
	of   string
}

// rows returns the rows the study may take, in order.
func (s *Study) rows() []row {
	cs := registry.Codecs
	if s.Codecs != nil {
		cs = s.Codecs()
	}
	var rs []row
	for _, c := range cs {
		if s.Rows == nil {
			rs = append(rs, row{c, c.Name})
			continue
		}
		for _, r := range s.Rows(c) {
			rs = append(rs, row{r, c.Name})
		}
	}
	return rs
}

// Participants returns the codecs that take part, in order, and those
// that do not, each with why: what `serbench NAME -v` and the docs say.
func (s *Study) Participants() (in []codec.Info, out []Excluded) {
	for _, r := range s.rows() {
		c := r.info
		if why := s.takes(c); why != "" {
			out = append(out, Excluded{Codec: c.Name, Why: why})
		} else {
			in = append(in, c)
		}
	}
	return in, out
}

// Among returns the names among names (registry names, or rows' own) that
// select a row taking part in the study, in order: the codecs of a list
// the study can run.
func (s *Study) Among(names []string) []string {
	var out []string
	for _, n := range names {
		for _, r := range s.rows() {
			if (r.of == n || r.info.Name == n) && s.takes(r.info) == "" {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// An Excluded codec takes no part in a study, for the reason Why.
type Excluded struct {
	Codec, Why string
}

// String says which codec is left out and why.
func (e Excluded) String() string { return e.Codec + ": " + e.Why }

// name returns the study's name.
func (s *Study) name() string { return s.Matrix.Name }

// wrap prefixes err with the study's name, unless its message begins
// with it already (a package's own errors do).
func (s *Study) wrap(err error) error {
	if strings.HasPrefix(err.Error(), s.name()+":") {
		return err
	}
	return fmt.Errorf("%s: %w", s.name(), err)
}

// joinWhy joins the reasons codecs are refused.
func joinWhy(ex []Excluded) string {
	var parts []string
	for _, e := range ex {
		parts = append(parts, e.String())
	}
	return strings.Join(parts, "; ")
}
