package evolve

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/evolve/change"
	"github.com/serbench/serbench/internal/buildinfo"

	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/verify"
	"github.com/serbench/serbench/worker"
)

// DefaultTimeout is the default per-step timeout of a cell.
const DefaultTimeout = 10 * time.Second

// generated lists the code evolve holds for the cases' schemas, by the
// module whose generator wrote it or which reads the schema at run time
// (evolve/pb, evolve/gotypes, evolve/fb, evolve/capnproto; Avro's schemas
// are built at run time): the code a codec of that module, in its
// default usage, runs in the study. Each reading is a row of the matrix;
// its suffix, if any, is added to the codec's name and its words to its
// label. A reflection codec needs none of it: it runs on the cases' Go
// types (evolve/gotypes) through its registry entry.
var generated = map[string]struct {
	kind     string
	readings []reading
}{
	"google.golang.org/protobuf":        {change.Proto, []reading{{format: protoFormat{}}}},
	"github.com/planetscale/vtprotobuf": {change.Proto, []reading{{format: protoFormat{vt: true}}}},
	"buf.build/go/hyperpb":              {change.Proto, []reading{{format: protoFormat{hyper: true}}}},
	"github.com/tinylib/msgp":           {change.GoTypes, []reading{{format: genFormat{}}}},
	"github.com/mailru/easyjson":        {change.GoTypes, []reading{{format: genFormat{easyjson: true}}}},
	"github.com/google/flatbuffers":     {change.FlatBuffers, []reading{{format: fbFormat{}}}},
	"capnproto.org/go/capnp/v3":         {change.CapnProto, []reading{{format: capnpFormat{}}}},
	"github.com/hamba/avro/v2": {change.Avro, []reading{
		{words: " (writer's and reader's schemas)", format: avroFormat{resolve: true}},
		{suffix: "-reader-only", words: " (the reader's schema alone)", format: avroFormat{}},
	}},
}

// A reading is one way a codec reads the cases: a row of the matrix.
type reading struct {
	suffix, words string
	format        format
}

// participate returns the ways info's codec takes part in the study, from
// what its codec.Info declares, or why it takes none.
func participate(info codec.Info) ([]Participant, string) {
	p := Participant{Name: info.Name, Label: info.Label, Family: info.Family, Module: info.Module, Codec: info.Name, Losses: info.Losses}
	switch {
	case info.ReadsOnly != "":
		return nil, study.RoundTrips(info)
	case info.Stateful:
		return nil, "its messages are not self-contained (codec.Info.Stateful): only the decoder that read a stream's earlier messages reads one, so another version cannot read it alone"
	case info.API == codec.Reflection:
		p.Kind, p.format = change.GoTypes, reflectFormat{info}
		return []Participant{p}, ""
	case info.API == codec.Manual:
		return nil, "hand-written code for each of the datasets' types (API manual): it has none for the cases' types"
	}
	g, ok := generated[info.Module]
	switch {
	case !ok:
		return nil, fmt.Sprintf("a %s codec of %s, for which evolve holds no reading of the cases' schemas, generated or at run time (docs/evolution.md says how to add one)", info.API, info.Module)
	case info.Variant != "" && defaultOf(info.Module) != "":
		return nil, fmt.Sprintf("a variant of %s's code (%s): evolve runs that code in its default usage, %s", info.Module, info.Variant, defaultOf(info.Module))
	}
	var ps []Participant
	for _, r := range g.readings {
		q := p
		q.Name, q.Label, q.Kind, q.format = info.Name+r.suffix, info.Label+r.words, g.kind, r.format
		ps = append(ps, q)
	}
	return ps, ""
}

// defaultOf returns the codec of module in its default usage (no
// Variant), or "".
func defaultOf(module string) string {
	for _, c := range registry.Codecs {
		if c.Module == module && c.Variant == "" {
			return c.Name
		}
	}
	return ""
}

// Participants returns the codecs of the study, in registry order: each
// way of reading the cases of every codec that takes part (participate).
func Participants() []Participant {
	var ps []Participant
	for _, info := range registry.Codecs {
		p, _ := participate(info)
		ps = append(ps, p...)
	}
	return ps
}

// WriteParticipants writes, in Markdown, which codecs take part and how
// many, and each codec that takes none with why: the section of
// docs/evolution.md that a test keeps current.
func WriteParticipants(w io.Writer) error {
	var in []string
	var out []string
	for _, info := range registry.Codecs {
		ps, why := participate(info)
		for _, p := range ps {
			in = append(in, "`"+p.Name+"`")
		}
		if why != "" {
			out = append(out, fmt.Sprintf("- `%s`: %s", info.Name, why))
		}
	}
	_, err := fmt.Fprintf(w, "%d rows of %d registered codecs take part: %s.\n\n%d codecs take no part:\n\n%s\n",
		len(in), len(registry.Codecs), strings.Join(in, ", "), len(out), strings.Join(out, "\n"))
	return err
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

// CaseName is the name of a matrix case: the change and the direction,
// "rename/old-reads-new".
func CaseName(c string, d change.Direction) string { return c + "/" + string(d) }

// Spec returns the evolution study as a value (package study): every
// case both ways through every participant, each cell in a child of its
// own, the steps its encode, decode, re-encode and check. -cases names a
// change (both directions: the case group) or one direction of it.
func Spec() *study.Study {
	var cases []study.Case
	for _, c := range change.Cases {
		for _, d := range change.Directions {
			cases = append(cases, study.Case{Name: CaseName(c.Name, d), Group: c.Name, Doc: c.Doc + " (" + strings.ReplaceAll(string(d), "-", " ") + ")"})
		}
	}
	return &study.Study{
		Matrix:  Study,
		Cases:   cases,
		Rows:    rows,
		Takes:   takes,
		Timeout: DefaultTimeout,
		Step:    "one encode or decode",
		Cell:    runTask,
		Record: func(c *study.Cell, r worker.TaskResult) bool {
			c.Result = cellOf(results.MatrixCell{Codec: c.Codec.Name, Case: c.Case.Name, Outcome: NA}, r)
			return false
		},
	}
}

// rows returns the rows of info's codec: one per way it takes part, or
// the codec itself when it takes none (takes then says why).
func rows(info codec.Info) []codec.Info {
	ps, why := participate(info)
	if why != "" {
		return []codec.Info{info}
	}
	var out []codec.Info
	for _, p := range ps {
		r := info
		r.Name, r.Label = p.Name, p.Label
		out = append(out, r)
	}
	return out
}

// takes says why a row takes no part, or "".
func takes(row codec.Info) string {
	if _, err := Lookup(row.Name); err == nil {
		return ""
	}
	_, why := participate(row)
	return cmp.Or(why, "no participant of that name")
}

// NewMatrix returns the empty matrix of participants ps by cases, each
// case in both directions, grouped by case.
func NewMatrix(ps []Participant, cases []string) *results.Matrix {
	var mcodecs []results.MatrixCodec
	for _, p := range ps {
		info, _ := registry.Lookup(p.Codec)
		info.Name, info.Label = p.Name, p.Label
		mcodecs = append(mcodecs, study.Header(info))
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
func runTask(_ context.Context, t study.Task, step func(string)) (any, error) {
	p, err := Lookup(t.Codec.Name)
	if err != nil {
		return nil, err
	}
	name, d, _ := strings.Cut(t.Case, "/")
	c, err := change.Lookup(name)
	if err != nil {
		return nil, err
	}
	return RunCell(p, c, change.Direction(d), step), nil
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
	if why, ok := c.NA[p.Kind]; ok {
		cell.Detail = why
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
	native, err := codec.GuardValue(func() (any, error) { return p.format.decode(c, w, r, data) })
	reader := r
	if err == nil && c.Reencode {
		// The reader writes what it read; the writer's version reads it.
		step("reencode")
		var again []byte
		again, err = codec.GuardValue(func() ([]byte, error) { return p.format.reencode(c, r, native) })
		if err == nil {
			step("decode again")
			native, err = codec.GuardValue(func() (any, error) { return p.format.decode(c, r, w, again) })
		}
		want, reader = change.Want(w, w.Data, w), w
	}
	var pe *codec.PanicError
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
	got, err := codec.GuardValue(func() (change.Record, error) { return p.format.record(c, reader, native) })
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
