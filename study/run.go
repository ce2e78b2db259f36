package study

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/buildinfo"
	"github.com/serbench/serbench/internal/suggest"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// Options are how one run of a study goes: which codecs and cases, the
// step timeout, and where its cells go as they end.
type Options struct {
	// Codecs names the codecs to run, by registry name. Default: every
	// codec the study takes.
	Codecs []string
	// Cases names the cases to run, or groups of them (Case.Group): a
	// name that is a group selects every case of it. Default: every case.
	Cases []string
	// Timeout is how long a child may stay in one step before it is
	// killed as hung. Default: the study's Timeout.
	Timeout time.Duration
	// Done are the cells a previous run of the same study finished (its
	// journal, read back by -resume): they are kept, not run again.
	Done []results.MatrixCell
	// Journal, if set, is given each cell the moment it ends; an error
	// stops the run, the cells done kept.
	Journal func(results.MatrixCell) error
	// Progress, if set, is called as each cell ends, one call at a time,
	// with how many cells are done of how many.
	Progress func(done, total int, c results.MatrixCell)
	// Started, if set, is called before any cell runs (and before the
	// study's Before hook) with how many cells the run has and how many
	// of them it runs (the others were Done): what an estimate counts.
	Started func(total, pending int)
	// Running, if set, is called once the study's Before hook is done,
	// as the cells start: the time before it is the hook's, which a pace
	// of cells leaves out.
	Running func()
	// Task, if set, is called as each task of a cell ends, one call at a
	// time, with its wall time, whether it was the cell's first, and
	// whether the cell runs again: what an estimate of work counts, the
	// re-runs left for later rounds included (Study.Rerun). A task of
	// several cells (PerCodec) is told once per cell, its wall time
	// shared among them.
	Task func(wall time.Duration, first, again bool)
	// Now is the clock the elapsed time is read from. Default time.Now.
	Now func() time.Time
}

// A NameError says that a codec or case named is not one the study can
// run: unknown (with the closest names), or a codec the study does not
// take (with why). The CLI reports it as misuse.
type NameError struct{ Err error }

func (e *NameError) Error() string { return e.Err.Error() }
func (e *NameError) Unwrap() error { return e.Err }

// Check returns a *NameError when o names a codec or a case that s
// cannot run, nil otherwise.
func Check(s *Study, o Options) error {
	_, _, err := s.selection(o)
	return err
}

// selection returns the codecs and cases o selects, in the study's order.
func (s *Study) selection(o Options) ([]*codecRow, []Case, error) {
	all := s.rows()
	var names []string
	aliases := suggest.Aliases{}
	for _, r := range all {
		for _, n := range []string{r.of, r.info.Name} {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		aliases.Add(r.info.Family, r.of)
		aliases.Add(r.info.Label, r.info.Name)
	}
	if err := suggest.Check("codec", o.Codecs, names, aliases, "serbench list codecs"); err != nil {
		return nil, nil, &NameError{err}
	}
	var caseNames []string
	for _, c := range s.Cases {
		caseNames = append(caseNames, c.Name)
	}
	for _, c := range s.Cases {
		if c.Group != "" && !slices.Contains(caseNames, c.Group) {
			caseNames = append(caseNames, c.Group)
		}
	}
	word := cmp.Or(s.Matrix.CaseWord, "case")
	if err := suggest.Check(word, o.Cases, caseNames, nil, "serbench list "+s.caseList()); err != nil {
		return nil, nil, &NameError{err}
	}
	var rows []*codecRow
	var refused []Excluded
	for _, r := range all {
		c := r.info
		if len(o.Codecs) > 0 && !slices.Contains(o.Codecs, c.Name) && !slices.Contains(o.Codecs, r.of) {
			continue
		}
		if why := s.takes(c); why != "" {
			if len(o.Codecs) > 0 {
				refused = append(refused, Excluded{Codec: c.Name, Why: why})
			}
			continue
		}
		rows = append(rows, &codecRow{info: c})
	}
	if len(refused) > 0 {
		return nil, nil, &NameError{fmt.Errorf("%s cannot take %s", s.name(), joinWhy(refused))}
	}
	var cases []Case
	for _, c := range s.Cases {
		if len(o.Cases) == 0 || slices.Contains(o.Cases, c.Name) || c.Group != "" && slices.Contains(o.Cases, c.Group) {
			cases = append(cases, c)
		}
	}
	if len(rows) == 0 || len(cases) == 0 {
		return nil, nil, &NameError{fmt.Errorf("%s: no codec or no %s to run", s.name(), word)}
	}
	return rows, cases, nil
}

// codecRow is a codec of a run and its cells, in case order.
type codecRow struct {
	info  codec.Info
	cells []*Cell
}

// Run runs study s on pool as o says and returns its matrix, judged.
// Cells run in rounds of child processes (pool.RunRounds), in a seeded
// shuffled order, each task with o's step timeout; a cell Record asks to
// run again goes into the next round. When ctx is cancelled or the
// journal fails, Run returns the matrix of the cells done with the error;
// a cell not done is missing from the matrix.
func Run(ctx context.Context, pool *worker.Pool, s *Study, o Options) (*results.Matrix, error) {
	if err := s.Matrix.Validate(); err != nil {
		return nil, err
	}
	if s.Cell == nil || s.Record == nil {
		return nil, fmt.Errorf("study %s: no Cell or no Record", s.name())
	}
	rows, cases, err := s.selection(o)
	if err != nil {
		return nil, err
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	timeout := cmp.Or(o.Timeout, s.Timeout, worker.DefaultTaskTimeout)
	var header []results.MatrixCodec
	for _, r := range rows {
		h := Header(r.info)
		if s.Facet != nil {
			h.Facet = s.Facet(r.info)
		}
		header = append(header, h)
	}
	m := results.NewMatrix(s.Matrix, header, cases)
	m.Go, m.Serbench = runtime.Version(), buildinfo.Main()
	m.Settings = append(slices.Clone(s.Settings), fmt.Sprintf("timeout %v per step (%s)", timeout, cmp.Or(s.Step, "one step")))

	done := map[[2]string]results.MatrixCell{}
	for _, c := range o.Done {
		done[[2]string{c.Codec, c.Case}] = c
	}
	var pending []*Cell
	total, finished := 0, 0
	for _, r := range rows {
		for _, k := range cases {
			c := &Cell{Codec: r.info, Case: k, Result: results.MatrixCell{Codec: r.info.Name, Case: k.Name}}
			r.cells = append(r.cells, c)
			total++
			if d, ok := done[[2]string{c.Result.Codec, c.Result.Case}]; ok {
				c.Result, c.Tasks = d, -1
				finished++
				continue
			}
			pending = append(pending, c)
		}
	}
	if len(o.Done) > 0 {
		m.Settings = append(m.Settings, fmt.Sprintf("resumed: %d of %d cells from the journal", finished, total))
	}

	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var journalErr error
	finish := func(c *Cell) {
		c.Result.Codec, c.Result.Case = c.Codec.Name, c.Case.Name
		c.Tasks = -max(c.Tasks, 1) // done
		finished++
		if o.Journal != nil && journalErr == nil {
			if err := o.Journal(c.Result); err != nil {
				journalErr = fmt.Errorf("%s: journaling a cell: %w; the cells done before it are kept", s.name(), err)
				cancel()
			}
		}
		if o.Progress != nil {
			o.Progress(finished, total, c.Result)
		}
	}
	end := func(c *Cell, r worker.TaskResult) {
		c.Tasks++
		again := s.Record(c, r)
		if o.Task != nil {
			o.Task(r.Wall, c.Tasks == 1, again)
		}
		c.Result.Codec, c.Result.Case = c.Codec.Name, c.Case.Name
		if !again {
			finish(c)
		}
	}
	if o.Started != nil {
		o.Started(total, len(pending))
	}
	if s.Before != nil && len(pending) > 0 {
		run := func(ctx context.Context, ts []Task) ([]worker.TaskResult, error) {
			tasks := make([]worker.Task, len(ts))
			for i, t := range ts {
				tasks[i] = s.taskOf(t.Codec.Name, []taskCell{{Case: t.Case, Input: t.Input}}, timeout, t.Limits)
			}
			return pool.RunTasks(ctx, tasks)
		}
		if err := s.Before(rctx, pending, run); err != nil {
			return m, s.wrap(err)
		}
		for _, c := range pending {
			if c.Result.Outcome != "" {
				finish(c)
			}
		}
	}
	if o.Running != nil {
		o.Running()
	}
	// The tasks run in a shuffled order (seeded: two runs of one study
	// shuffle alike), so that the first tenth done is a sample of all the
	// cells, not one codec's or one class's cheapest: the pace the
	// estimate is told by.
	rng := rand.New(rand.NewPCG(uint64(total), uint64(len(pending))))
	err = pool.RunRounds(rctx, func() ([]worker.Task, func(int, worker.TaskResult)) {
		pending = slices.DeleteFunc(pending, func(c *Cell) bool { return c.Tasks < 0 })
		groups := s.groups(pending)
		rng.Shuffle(len(groups), func(i, j int) { groups[i], groups[j] = groups[j], groups[i] })
		tasks := make([]worker.Task, len(groups))
		for i, g := range groups {
			tasks[i] = s.task(g, timeout)
		}
		return tasks, func(i int, r worker.TaskResult) { s.ended(groups[i], r, end) }
	})
	err = cmp.Or(journalErr, err)
	for _, r := range rows {
		for _, c := range r.cells {
			if c.Tasks < 0 {
				m.Add(c.Result)
			}
		}
	}
	if err == nil && s.After != nil {
		err = s.After(ctx, m)
	}
	m.Elapsed = now().Sub(start).Round(time.Second).String()
	m.JudgeAll()
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) && journalErr == nil {
		err = s.wrap(err)
	}
	return m, err
}

// groups splits the cells left into tasks: one per cell, or one per codec
// for a PerCodec study.
func (s *Study) groups(cells []*Cell) [][]*Cell {
	var gs [][]*Cell
	for _, c := range cells {
		if s.PerCodec && len(gs) > 0 && gs[len(gs)-1][0].Codec.Name == c.Codec.Name {
			gs[len(gs)-1] = append(gs[len(gs)-1], c)
			continue
		}
		gs = append(gs, []*Cell{c})
	}
	return gs
}

// taskInput is the input of a study's worker task: a codec and the cases
// to run through it, each with the study's Input for its cell.
type taskInput struct {
	Codec string     `json:"codec"`
	Cells []taskCell `json:"cells"`
}

type taskCell struct {
	Case  string          `json:"case"`
	Input json.RawMessage `json:"input,omitempty"`
}

// task returns the worker task of the cells g, all of one codec.
func (s *Study) task(g []*Cell, timeout time.Duration) worker.Task {
	var cells []taskCell
	for _, c := range g {
		tc := taskCell{Case: c.Case.Name}
		if s.Input != nil {
			tc.Input, _ = json.Marshal(s.Input(c))
		}
		cells = append(cells, tc)
	}
	var limits worker.Limits
	if s.Limits != nil {
		limits = s.Limits(g[0])
	}
	return s.taskOf(g[0].Codec.Name, cells, timeout, limits)
}

// taskOf returns the worker task of cells through codec.
func (s *Study) taskOf(codec string, cells []taskCell, timeout time.Duration, limits worker.Limits) worker.Task {
	in, _ := json.Marshal(taskInput{Codec: codec, Cells: cells})
	return worker.Task{Name: s.name(), Input: in, Timeout: timeout, Limits: limits}
}

// ended hands the end of the task of cells g to end, cell by cell. A
// child that answered gives each cell its own output. One that died in a
// case of a PerCodec study costs that case, and the cases it ran before
// go to the next round, since a dead child's answers are lost with it.
func (s *Study) ended(g []*Cell, r worker.TaskResult, end func(*Cell, worker.TaskResult)) {
	if !s.PerCodec {
		end(g[0], r)
		return
	}
	share := r.Wall / time.Duration(len(g)) // the task's wall time, shared among its cells
	switch {
	case r.Exit == nil && r.Err == "":
		var outs []json.RawMessage
		err := json.Unmarshal(r.Output, &outs)
		if err == nil && len(outs) != len(g) {
			err = fmt.Errorf("%d answers for %d cases", len(outs), len(g))
		}
		for i, c := range g {
			if err != nil {
				end(c, worker.TaskResult{Err: "unreadable output of the child: " + err.Error(), Step: r.Step, PeakRSS: r.PeakRSS, Wall: share})
				continue
			}
			end(c, worker.TaskResult{Output: outs[i], Step: c.Case.Name, PeakRSS: r.PeakRSS, Wall: share})
		}
	case r.Exit != nil:
		if k := slices.IndexFunc(g, func(c *Cell) bool { return c.Case.Name == r.Step }); k >= 0 {
			end(g[k], r)
			return
		}
		fallthrough // it died before its first case
	default:
		r.Wall = share
		for _, c := range g {
			end(c, r)
		}
	}
}

// Handler returns the child's side of s, the worker task named after the
// study that runs its Cell. Register it with the worker command.
func (s *Study) Handler() worker.Handler {
	return worker.Handler{Name: s.name(), Run: func(ctx context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
		var t taskInput
		if err := json.Unmarshal(input, &t); err != nil || len(t.Cells) == 0 {
			return nil, fmt.Errorf("%s: reading the task: %v", s.name(), cmp.Or[error](err, errors.New("no cells")))
		}
		rows := s.rows()
		i := slices.IndexFunc(rows, func(r row) bool { return r.info.Name == t.Codec })
		if i < 0 {
			return nil, fmt.Errorf("%s: no codec %q in this serbench", s.name(), t.Codec)
		}
		info := rows[i].info
		if !s.PerCodec {
			out, err := s.Cell(ctx, Task{Codec: info, Case: t.Cells[0].Case, Input: t.Cells[0].Input}, step)
			if err != nil {
				return nil, err
			}
			return json.Marshal(out)
		}
		outs := make([]any, 0, len(t.Cells))
		for _, c := range t.Cells {
			step(c.Case)
			out, err := s.Cell(ctx, Task{Codec: info, Case: c.Case, Input: c.Input}, func(string) {})
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", t.Codec, c.Case, err)
			}
			outs = append(outs, out)
		}
		return json.Marshal(outs)
	}}
}

// CaseNames returns the names of the study's cases, in order.
func (s *Study) CaseNames() []string {
	names := make([]string, len(s.Cases))
	for i, c := range s.Cases {
		names[i] = c.Name
	}
	return names
}
