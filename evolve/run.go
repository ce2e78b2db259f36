package evolve

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/evolve/change"
	"github.com/serbench/serbench/internal/buildinfo"
	"github.com/serbench/serbench/internal/suggest"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
	"github.com/serbench/serbench/worker"
)

// Options select a run's codecs and cases and set its limits.
type Options struct {
	Codecs []string // registry names; default: every participant
	Cases  []string // default: every case
	// Timeout is how long one cell may stay in one step before its child
	// is killed as hung. Default DefaultTimeout.
	Timeout time.Duration
	// Progress, if set, is called after each cell.
	Progress func(done, total int, c results.MatrixCell)
}

// DefaultTimeout is the default per-step timeout of a cell.
const DefaultTimeout = 10 * time.Second

// Participants returns the codecs of the study, in registry order: each
// reflection codec with two Go types, Protobuf and vtprotobuf with two
// generated schemas, Avro with schema resolution, and Avro read with the
// reader's schema alone.
func Participants() []Participant {
	var ps []Participant
	for _, info := range registry.Codecs {
		p := Participant{Name: info.Name, Label: info.Label, Family: info.Family, Module: info.Module, Codec: info.Name, Losses: info.Losses}
		switch {
		case info.Name == "gob-stream":
			// Its messages are not self-contained: its type descriptors
			// pass once per stream.
			p.Kind, p.NA = change.GoTypes, "a gob stream sends its type descriptors once, before its first message, so another stream cannot read one of its messages alone"
		case info.API == codec.Reflection:
			p.Kind, p.format = change.GoTypes, reflectFormat{info}
		case info.Name == "proto":
			p.Kind, p.format = change.Proto, protoFormat{}
		case info.Name == "vtproto":
			p.Kind, p.format = change.Proto, protoFormat{vt: true}
		case info.Name == "msgp":
			p.Kind, p.format = change.GoTypes, genFormat{}
		case info.Name == "easyjson":
			p.Kind, p.format = change.GoTypes, genFormat{easyjson: true}
		case info.Name == "flatbuffers":
			p.Kind, p.format = change.FlatBuffers, fbFormat{}
		case info.Name == "capnp":
			p.Kind, p.format = change.CapnProto, capnpFormat{}
		case info.Name == "avro":
			p.Kind, p.format, p.Label = change.Avro, avroFormat{resolve: true}, info.Label+" (writer's and reader's schemas)"
			ps = append(ps, p)
			p.Name, p.Label, p.format = "avro-reader-only", info.Label+" (the reader's schema alone)", avroFormat{}
		default:
			continue
		}
		ps = append(ps, p)
	}
	return ps
}

// Lookup returns the participant named name.
func Lookup(name string) (Participant, error) {
	for _, p := range Participants() {
		if p.Name == name {
			return p, nil
		}
	}
	return Participant{}, fmt.Errorf("evolve: %q takes no part in the study", name)
}

// CheckCodecs returns an error naming every one of names that is not a
// registered codec, or a registered one the study cannot take.
func CheckCodecs(names []string) error {
	if err := registry.Check(names); err != nil {
		return err
	}
	var bad []string
	for _, n := range names {
		if !slices.ContainsFunc(Participants(), func(p Participant) bool { return p.Codec == n }) {
			bad = append(bad, n)
		}
	}
	if len(bad) > 0 {
		var can []string
		for _, p := range Participants() {
			if !slices.Contains(can, p.Codec) {
				can = append(can, p.Codec)
			}
		}
		return fmt.Errorf("evolve cannot take %s: it takes the reflection codecs, proto, vtproto, msgp, easyjson, avro, flatbuffers and capnp (%s)", strings.Join(bad, ", "), strings.Join(can, ", "))
	}
	return nil
}

// CheckCases returns an error naming every one of names that is not a
// case.
func CheckCases(names []string) error {
	return suggest.Check("case", names, change.Names(), nil, "serbench list cases")
}

// CaseName is the name of a matrix case: the change and the direction,
// "rename/old-reads-new".
func CaseName(c string, d change.Direction) string { return c + "/" + string(d) }

// Handler is the worker task that runs one cell in a child process; the
// worker command must serve it.
var Handler = worker.Handler{Name: "evolve", Run: runTask}

// A cellTask is the input of the Handler.
type cellTask struct {
	Codec     string           `json:"codec"`
	Case      string           `json:"case"`
	Direction change.Direction `json:"direction"`
}

// Run runs the matrix of opts, each cell in a child of pool, and returns
// it. pool's TaskTimeout is set from opts.
func Run(ctx context.Context, pool *worker.Pool, opts Options) (*results.Matrix, error) {
	if err := CheckCodecs(opts.Codecs); err != nil {
		return nil, err
	}
	if err := CheckCases(opts.Cases); err != nil {
		return nil, err
	}
	cases := opts.Cases
	if len(cases) == 0 {
		cases = change.Names()
	}
	var ps []Participant
	for _, p := range Participants() {
		if len(opts.Codecs) == 0 || slices.Contains(opts.Codecs, p.Codec) {
			ps = append(ps, p)
		}
	}
	m := NewMatrix(ps, cases)
	timeout := cmp.Or(opts.Timeout, DefaultTimeout)
	m.Settings = []string{"per-step timeout " + timeout.String()}
	var tasks []worker.Task
	for _, p := range ps {
		for _, c := range cases {
			for _, d := range change.Directions {
				in, _ := json.Marshal(cellTask{Codec: p.Name, Case: c, Direction: d})
				tasks = append(tasks, worker.Task{Name: Handler.Name, Input: in})
				m.Cells = append(m.Cells, results.MatrixCell{Codec: p.Name, Case: CaseName(c, d), Outcome: NA})
			}
		}
	}
	pool.TaskTimeout = timeout
	done := 0
	start := time.Now()
	_, err := pool.RunTasksEach(ctx, tasks, func(i int, r worker.TaskResult) {
		m.Cells[i] = cellOf(m.Cells[i], r)
		done++
		if opts.Progress != nil {
			opts.Progress(done, len(tasks), m.Cells[i])
		}
	})
	m.Elapsed = time.Since(start).Round(time.Second).String()
	for i := range m.Cells {
		m.Cells[i].Detail = results.Printable(m.Cells[i].Detail)
	}
	m.JudgeAll()
	return m, err
}

// NewMatrix returns the empty matrix of participants ps by cases, each
// case in both directions, grouped by case.
func NewMatrix(ps []Participant, cases []string) *results.Matrix {
	var mcodecs []results.MatrixCodec
	for _, p := range ps {
		mcodecs = append(mcodecs, results.MatrixCodec{Name: p.Name, Label: p.Label, Family: p.Family, Module: p.Module, Version: registry.Version(p.Module)})
	}
	var mcases []results.MatrixCase
	for _, name := range cases {
		c, _ := change.Lookup(name)
		for _, d := range change.Directions {
			mcases = append(mcases, results.MatrixCase{Name: CaseName(name, d), Group: name, Doc: c.Doc + " (" + strings.ReplaceAll(string(d), "-", " ") + ")"})
		}
	}
	m := results.NewMatrix(Study, mcodecs, mcases)
	m.Go, m.Serbench = runtime.Version(), buildinfo.Main()
	return m
}

// cellOf turns a task's result into the cell c.
func cellOf(c results.MatrixCell, r worker.TaskResult) results.MatrixCell {
	switch {
	case r.Exit != nil:
		c.Outcome, c.Note = Crash, r.Exit.Kind
		c.Detail = fmt.Sprintf("the child died in step %q: %s", r.Step, r.Exit.Detail)
	case r.Err != "":
		c.Outcome, c.Detail = Crash, "the task failed: "+r.Err
	default:
		var out results.MatrixCell
		if err := json.Unmarshal(r.Output, &out); err != nil {
			c.Outcome, c.Detail = Crash, "unreadable task output: "+err.Error()
			return c
		}
		out.Codec, out.Case = c.Codec, c.Case
		return out
	}
	return c
}

// runTask is the child's side: it runs one cell.
func runTask(_ context.Context, task json.RawMessage, step func(string)) (json.RawMessage, error) {
	var t cellTask
	if err := json.Unmarshal(task, &t); err != nil {
		return nil, err
	}
	p, err := Lookup(t.Codec)
	if err != nil {
		return nil, err
	}
	c, err := change.Lookup(t.Case)
	if err != nil {
		return nil, err
	}
	cell := RunCell(p, c, t.Direction, step)
	return json.Marshal(cell)
}

// RunCell runs case c in direction d through participant p, in this
// process, calling step before each part that may crash or hang, and
// returns the cell.
func RunCell(p Participant, c *change.Case, d change.Direction, step func(string)) results.MatrixCell {
	cell := results.MatrixCell{Codec: p.Name, Case: CaseName(c.Name, d), Outcome: NA, Facts: map[string]string{}}
	switch p.Kind {
	case change.Proto:
		if len(c.Buf) > 0 {
			cell.Facts[FactBuf] = strings.Join(c.Buf, " ")
		} else {
			cell.Facts[FactBuf] = "none"
		}
	case change.Avro:
		if _, na := c.NA[change.Avro]; !na {
			cell.Facts[FactAvro] = AvroCompat(c)
		}
	}
	if why, ok := c.NA[p.Kind]; ok || p.NA != "" {
		cell.Detail = cmp.Or(p.NA, why)
		return cell
	}
	w, r := c.Sides(d)
	step("encode")
	data, err := p.format.encode(c, w)
	if err != nil {
		cell.Detail = "the writer cannot encode its value: " + err.Error()
		return cell
	}
	want := change.Want(w, w.Data, r)
	step("decode")
	native, err := recovered(func() (any, error) { return p.format.decode(c, w, r, data) })
	reader := r
	if err == nil && c.Reencode {
		// The reader writes what it read; the writer's version reads it.
		step("reencode")
		var again []byte
		again, err = recovered(func() ([]byte, error) { return p.format.reencode(c, r, native) })
		if err == nil {
			step("decode again")
			native, err = recovered(func() (any, error) { return p.format.decode(c, r, w, again) })
		}
		want, reader = change.Want(w, w.Data, w), w
	}
	var pe panicError
	var ne notExpressible
	switch {
	case errors.As(err, &ne):
		cell.Outcome, cell.Detail = NA, ne.why
		return cell
	case errors.As(err, &pe):
		cell.Outcome, cell.Note, cell.Detail = Crash, "panic", err.Error()
		return cell
	case err != nil:
		cell.Outcome, cell.Detail = Error, err.Error()
		if why := noneOf(want); why != "" {
			cell.Detail += " (no faithful reading exists: " + why + ")"
		}
		return cell
	}
	step("check")
	// A lazy reader (FlatBuffers, Cap'n Proto) reads here.
	got, err := recovered(func() (change.Record, error) { return p.format.record(c, reader, native) })
	if errors.As(err, &pe) {
		cell.Outcome, cell.Note, cell.Detail = Crash, "panic", "reading the fields: "+err.Error()
		return cell
	}
	if err != nil {
		cell.Outcome, cell.Detail = Error, "reading the fields: "+err.Error()
		return cell
	}
	// The data read is w's (after a re-encode too, where w reads it).
	cell.Outcome, cell.Detail = judge(w, reader, want, got, p.Losses)
	return cell
}

// judge compares each field of the reader's version: as the rules say
// when every field equals want's (verify.Equal, modulo the codec's
// losses); a value lost when a field reads zero where want is not; a
// changed value otherwise, the worst first.
//
// A map read as a list of pairs may come in any order: a map's order says
// nothing, so the pairs read are compared in key order.
func judge(writer, r change.Version, want, got change.Record, losses []codec.Loss) (results.Outcome, string) {
	out := AsRules
	var notes []string
	for _, f := range r.Fields {
		w, g := want[f.Key()], got[f.Key()]
		if wf, ok := writer.Field(f.Key()); ok && wf.Kind == change.Map && f.Kind == change.Pairs {
			if ps, ok := g.([]change.Pair); ok {
				ps = slices.Clone(ps)
				slices.SortFunc(ps, func(a, b change.Pair) int { return strings.Compare(a.Key, b.Key) })
				g = ps
			}
		}
		if none, ok := w.(change.None); ok {
			o := Changed
			if change.IsZero(g) {
				o = Loss
			}
			if none.Wrote != nil {
				notes = append(notes, fmt.Sprintf("%s: wrote %s, read %s (%s)", f.Name, change.Show(none.Wrote), change.Show(g), none.Why))
			} else {
				notes = append(notes, fmt.Sprintf("%s: read %s (%s)", f.Name, change.Show(g), none.Why))
			}
			out = worst(out, o)
			continue
		}
		if err := verify.Equal(w, g, losses); err == nil {
			continue
		}
		o := Changed
		if change.IsZero(g) {
			o = Loss
		}
		notes = append(notes, fmt.Sprintf("%s: wrote %s, read %s", f.Name, change.Show(w), change.Show(g)))
		out = worst(out, o)
	}
	return out, strings.Join(notes, "; ")
}

// worst returns the worse of two outcomes.
func worst(a, b results.Outcome) results.Outcome {
	if Study.Severity(b) > Study.Severity(a) {
		return b
	}
	return a
}

// noneOf says why want has a field without a faithful value, or "".
func noneOf(want change.Record) string {
	var whys []string
	for _, v := range want {
		if n, ok := v.(change.None); ok {
			whys = append(whys, n.Why)
		}
	}
	slices.Sort(whys)
	return strings.Join(whys, "; ")
}

// A notExpressible error says that a format cannot express the case:
// the cell is n/a, for the reason it gives.
type notExpressible struct{ why string }

func (e notExpressible) Error() string { return e.why }

// A panicError is a panic of the codec, recovered.
type panicError struct{ v any }

func (e panicError) Error() string { return fmt.Sprintf("panic: %v", e.v) }

// recovered calls f, recovering a panic as a panicError.
func recovered[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError{r}
		}
	}()
	return f()
}
