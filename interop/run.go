package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/internal/buildinfo"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// TaskName names the worker task that runs a Batch.
const TaskName = "interop"

// Handler is the child's side of the study: it runs a Batch.
var Handler = worker.Handler{Name: TaskName, Run: func(ctx context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
	var b Batch
	if err := json.Unmarshal(input, &b); err != nil {
		return nil, fmt.Errorf("interop: reading the task: %w", err)
	}
	cells, err := RunBatch(ctx, b, step)
	if err != nil {
		return nil, err
	}
	return json.Marshal(cells)
}}

// Options select a run's codecs, languages and cases and set its limits.
type Options struct {
	Codecs []string // registry names; default: every codec the study takes
	Langs  []Lang   // default: every language
	Cases  []string // probe names; default: Cases()
	// Timeout is how long one peer may take over a column's batch.
	// Default DefaultTimeout.
	Timeout time.Duration
	// Progress, if set, is called after each column.
	Progress func(column string, done, total int)
}

// Selected returns the columns and probes opts select, or an error
// naming what does not exist or takes no part.
func (opts Options) Selected() ([]Column, []fidelity.Probe, error) {
	if err := registry.Check(opts.Codecs); err != nil {
		return nil, nil, err
	}
	var infos []codec.Info
	var bad []string
	for _, info := range registry.Codecs {
		if len(opts.Codecs) > 0 && !slices.Contains(opts.Codecs, info.Name) {
			continue
		}
		if !Takes(info) && len(opts.Codecs) > 0 {
			bad = append(bad, info.Name)
		}
		infos = append(infos, info)
	}
	if len(bad) > 0 {
		return nil, nil, fmt.Errorf("interop cannot take %s: it takes the reflection codecs of a format with peers (%s)", strings.Join(bad, ", "), strings.Join(Formats(), ", "))
	}
	for _, l := range opts.Langs {
		if !slices.ContainsFunc(Runtimes, func(r Runtime) bool { return r.Lang == l }) {
			return nil, nil, fmt.Errorf("interop has no language %q; it has %s", l, strings.Join(LangNames(), ", "))
		}
	}
	var cols []Column
	for _, c := range Columns(infos) {
		if len(opts.Langs) == 0 || slices.Contains(opts.Langs, c.Peer.Lang) {
			cols = append(cols, c)
		}
	}
	probes := Cases()
	if len(opts.Cases) > 0 {
		var err error
		if probes, err = fidelity.Lookup(opts.Cases); err != nil {
			return nil, nil, err
		}
		all := fidelity.Names(Cases())
		for _, p := range probes {
			if !slices.Contains(all, p.Name) {
				return nil, nil, fmt.Errorf("probe %q is Go's alone: no other language can express it; interop runs %s", p.Name, strings.Join(all, ", "))
			}
		}
	}
	return cols, probes, nil
}

// Formats lists the formats with peers.
func Formats() []string {
	var out []string
	for _, p := range Peers {
		if !slices.Contains(out, p.Family) {
			out = append(out, p.Family)
		}
	}
	return out
}

// LangNames lists the languages' names.
func LangNames() []string {
	var out []string
	for _, r := range Runtimes {
		out = append(out, string(r.Lang))
	}
	return out
}

// Run runs the study opts select, each column in a child of pool, and
// returns its matrix. A child that dies costs the case it was in; the
// column's other cases run again in a new child.
func Run(ctx context.Context, pool *worker.Pool, opts Options) (*results.Matrix, error) {
	cols, probes, err := opts.Selected()
	if err != nil {
		return nil, err
	}
	timeout := cmpOr(opts.Timeout, DefaultTimeout)
	m := NewMatrix(cols, probes)
	m.Settings = []string{"per-batch peer timeout " + timeout.String()}
	left := make([][]string, len(cols))
	for i := range cols {
		left[i] = fidelity.Names(probes)
	}
	got := make([][]results.MatrixCell, len(cols))
	done := 0
	start := time.Now()
	pool.TaskTimeout = timeout + 30*time.Second
	err = pool.RunRounds(ctx, func() ([]worker.Task, func(int, worker.TaskResult)) {
		var tasks []worker.Task
		var of []int
		for i, ps := range left {
			if len(ps) == 0 {
				continue
			}
			c := cols[i]
			in, _ := json.Marshal(Batch{Codec: c.Codec.Name, Peer: c.Peer.Name, Variant: c.Variant.Name, Cases: ps, Timeout: timeout})
			tasks = append(tasks, worker.Task{Name: TaskName, Input: in})
			of = append(of, i)
		}
		return tasks, func(t int, r worker.TaskResult) {
			i := of[t]
			cells, rest := cellsOf(cols[i].Name(), left[i], r)
			got[i], left[i] = append(got[i], cells...), rest
			if len(rest) == 0 {
				done++
				if opts.Progress != nil {
					opts.Progress(cols[i].Name(), done, len(cols))
				}
			}
		}
	})
	m.Elapsed = time.Since(start).Round(time.Second).String()
	for _, cells := range got {
		for _, c := range cells {
			m.Add(c)
		}
	}
	m.JudgeAll()
	m.Rollup = NewRollup(m)
	return m, err
}

// cellsOf reads the end of a child that ran probes of a column: the cells
// it settled and the probes left for a new child. A child that died in a
// probe's step costs that probe (its three cells crash).
func cellsOf(col string, probes []string, r worker.TaskResult) (cells []results.MatrixCell, left []string) {
	crash := func(p, why string) {
		for _, d := range Directions {
			cells = append(cells, results.MatrixCell{Codec: col, Case: CaseName(p, d), Outcome: Crash, Note: "go", Detail: why})
		}
	}
	switch {
	case r.Exit == nil && r.Err == "":
		if err := json.Unmarshal(r.Output, &cells); err != nil {
			for _, p := range probes {
				crash(p, "unreadable output of the child: "+err.Error())
			}
		}
		return cells, nil
	case r.Exit == nil:
		for _, p := range probes {
			crash(p, r.Err)
		}
		return cells, nil
	}
	why := fmt.Sprintf("the Go child died in step %q (%s): %s", r.Step, r.Exit.Kind, r.Exit.Detail)
	_, name, _ := strings.Cut(r.Step, " ")
	name = strings.TrimPrefix(strings.TrimPrefix(name, "back "), "own ")
	k := slices.Index(probes, name)
	if k < 0 { // before the first probe, or while the peer ran
		for _, p := range probes {
			crash(p, why)
		}
		return cells, nil
	}
	crash(probes[k], why)
	return cells, slices.Delete(slices.Clone(probes), k, k+1)
}

// NewMatrix returns the empty matrix of columns by probes, each probe in
// its three directions, grouped by probe.
func NewMatrix(cols []Column, probes []fidelity.Probe) *results.Matrix {
	var mcodecs []results.MatrixCodec
	for _, c := range cols {
		r := RuntimeOf(c.Peer.Lang)
		label := fmt.Sprintf("%s ↔ %s %s", c.Codec.Label, r.Label, c.Peer.Lib)
		if c.Variant.Sets != "" {
			label += " (" + c.Variant.Sets + ")"
		}
		mcodecs = append(mcodecs, results.MatrixCodec{Name: c.Name(), Label: label, Family: c.Codec.Family,
			API: string(c.Codec.API), Module: c.Codec.Module, Version: registry.Version(c.Codec.Module), Facet: string(c.Peer.Lang)})
	}
	var mcases []results.MatrixCase
	for _, p := range probes {
		for _, d := range Directions {
			mcases = append(mcases, results.MatrixCase{Name: CaseName(p.Name, d), Group: p.Name, Doc: p.Doc + " (" + strings.ReplaceAll(d, "-", " ") + ")"})
		}
	}
	m := results.NewMatrix(Study, mcodecs, mcases)
	m.Go, m.Serbench = runtime.Version(), buildinfo.Main()
	return m
}
