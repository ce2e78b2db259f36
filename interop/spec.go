package interop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// DefaultTimeout is how long a child may stay in one case: a peer's
// start (its runtime and libraries loaded) and its answer, or one Go
// encode or decode, on a loaded machine.
const DefaultTimeout = 60 * time.Second

// Spec returns the study as a value for the study driver (package study),
// over the peers of langs (every language when empty). Its rows are the
// columns (a Go codec with one peer in one configuration), each standing
// for its Go codec, so that -codecs msgpack selects every column of
// msgpack; its cases are the probes other languages can express, each in
// its three directions, a probe's name selecting all three. One child
// runs a column's cases, and one peer process in it answers them all.
func Spec(langs []Lang) *study.Study {
	return &study.Study{
		Matrix:   Study,
		Cases:    matrixCases(Cases()),
		CaseList: "probes",
		// A codec the study takes gives a row per peer and variant of its
		// format; any other gives itself, for Takes to say why not.
		Rows: func(info codec.Info) []codec.Info {
			if Takes(info) != "" {
				return []codec.Info{info}
			}
			var rows []codec.Info
			for _, c := range Columns([]codec.Info{info}) {
				if len(langs) == 0 || slices.Contains(langs, c.Peer.Lang) {
					rows = append(rows, c.Info())
				}
			}
			return rows
		},
		Facet:    func(row codec.Info) string { return string(peerOf(row).Lang) },
		Takes:    Takes,
		Timeout:  DefaultTimeout,
		Step:     "one case: a Go encode or decode, or the peer's answer",
		Settings: []string{"peers installed in " + CacheDir()},
		PerCodec: true,
		Cell: func(_ context.Context, t study.Task, _ func(string)) (any, error) {
			return child.cell(t.Codec, t.Case), nil
		},
		Record: func(c *study.Cell, r worker.TaskResult) bool {
			if why := study.Died(r); why != "" {
				c.Result.Outcome, c.Result.Note, c.Result.Detail = Crash, "go", why
			} else if err := study.Decode(r, &c.Result); err != nil {
				c.Result.Outcome, c.Result.Detail = Crash, err.Error()
			}
			return false
		},
		After: func(_ context.Context, m *results.Matrix) error {
			m.Rollup = NewRollup(m)
			return nil
		},
	}
}

// Handler is the child's side of the study, for the worker command: it
// knows every column, whatever languages the parent chose.
var Handler = Spec(nil).Handler()

// Info returns the column as a row of the study: its Go codec's entry
// under the column's name and a label naming the peer.
func (c Column) Info() codec.Info {
	info := c.Codec
	info.Name = c.Name()
	// The peer first: the matrix header puts the Go module's version
	// after the label, where it reads as the Go codec's.
	info.Label = RuntimeOf(c.Peer.Lang).Label + " " + c.Peer.Lib
	if c.Variant.Sets != "" {
		info.Label += " (" + c.Variant.Sets + ")"
	}
	info.Label += " ↔ " + c.Codec.Label
	return info
}

// peerOf returns the peer of a row.
func peerOf(row codec.Info) Peer {
	_, pn, _ := ParseColumn(row.Name)
	p, _ := LookupPeer(pn)
	return p
}

// matrixCases returns the matrix's cases: each probe in its three
// directions, grouped by probe.
func matrixCases(probes []fidelity.Probe) []study.Case {
	var out []study.Case
	for _, p := range probes {
		for _, d := range Directions {
			out = append(out, study.Case{Name: CaseName(p.Name, d), Group: p.Name, Doc: p.Doc + " (" + strings.ReplaceAll(d, "-", " ") + ")"})
		}
	}
	return out
}

// child is the child process's state: a column's peer, started at its
// first case and kept for the others, and each probe's preparation and
// answer, kept for its other directions.
var child = &columns{m: map[string]*column{}}

type columns struct {
	mu sync.Mutex
	m  map[string]*column
}

// A column is a row's state in a child.
type column struct {
	col         Column
	model       Model // the format's, with the codec's Tags
	conn        *Conn
	unavailable string // why the peer cannot run, once Dial said so
	prepared    map[string]prepared
	answers     map[string]Response
	died        map[string]string // a probe whose answer the peer died over
}

// cell runs one case of a row in this process: the child's side.
func (cs *columns) cell(row codec.Info, kase string) results.MatrixCell {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	fidelity.PinZone()
	cell := results.MatrixCell{Codec: row.Name, Case: kase}
	st, err := cs.column(row)
	if err != nil {
		cell.Outcome, cell.Detail = Crash, err.Error()
		return cell
	}
	probe, dir, _ := strings.Cut(kase, "/")
	c, ok := st.prepared[probe]
	if !ok {
		p, err := lookupCase(probe)
		if err != nil {
			cell.Outcome, cell.Detail = Crash, err.Error()
			return cell
		}
		c = prepare(st.col.Codec, p, st.model)
		st.prepared[probe] = c
	}
	if c.na != "" {
		cell.Outcome, cell.Detail = NA, c.na
		return cell
	}
	res, err := st.answer(c)
	switch {
	case errors.Is(err, ErrUnavailable):
		cell.Outcome, cell.Detail = Skipped, err.Error()
		return cell
	case err != nil:
		cell.Outcome, cell.Note, cell.Detail = Crash, "peer", err.Error()
		return cell
	}
	if st.conn != nil && st.conn.Version != "" {
		cell.Facts = map[string]string{FactVersion: st.conn.Version}
	}
	cell.Outcome, cell.Note, cell.Detail = judgeDir(st.col.Codec, c, res, dir, st.model)
	cell.Detail = truncate(results.Printable(cell.Detail), maxDetail)
	return cell
}

// column returns the state of row, made at its first case.
func (cs *columns) column(row codec.Info) (*column, error) {
	if st, ok := cs.m[row.Name]; ok {
		return st, nil
	}
	cn, pn, vn := ParseColumn(row.Name)
	info, err := registry.Lookup(cn)
	if err != nil {
		return nil, err
	}
	p, err := LookupPeer(pn)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(p.Variants, func(v Variant) bool { return v.Name == vn })
	if i < 0 {
		return nil, fmt.Errorf("interop: peer %s has no variant %q", p.Name, vn)
	}
	m := Models[info.Family]
	if m.Schema == "" {
		m.Tags = KeyTags(func(v any) ([]byte, error) {
			return codec.GuardValue(func() ([]byte, error) {
				cs, err := info.New().Prepare(v)
				if err != nil {
					return nil, err
				}
				return cs.Encode()
			})
		})
	}
	st := &column{col: Column{info, p, p.Variants[i]}, model: m, prepared: map[string]prepared{}, answers: map[string]Response{}, died: map[string]string{}}
	cs.m[row.Name] = st
	return st, nil
}

// answer returns the peer's answer for c, asking it once per probe; the
// peer starts at the first question. A peer that dies over a probe
// costs that probe; the next question starts a new one.
func (st *column) answer(c prepared) (Response, error) {
	name := c.probe.Name
	if res, ok := st.answers[name]; ok {
		return res, nil
	}
	if why, ok := st.died[name]; ok {
		return Response{}, errors.New(why)
	}
	if st.unavailable != "" {
		return Response{}, fmt.Errorf("%w: %s", ErrUnavailable, st.unavailable)
	}
	if st.conn == nil {
		conn, err := Dial(st.col.Peer, st.col.Variant)
		if errors.Is(err, ErrUnavailable) {
			st.unavailable = strings.TrimPrefix(err.Error(), ErrUnavailable.Error()+": ")
		}
		if err != nil {
			return Response{}, err
		}
		st.conn = conn
	}
	res, err := st.conn.Ask(Request{Case: name, Type: c.typ, Data: c.data, Want: c.want})
	if err != nil {
		st.conn = nil
		st.died[name] = err.Error()
		return Response{}, err
	}
	st.answers[name] = res
	return res, nil
}

// ParseColumn splits a column's name into its codec, peer and variant.
func ParseColumn(name string) (codecName, peer, variant string) {
	codecName, rest, _ := strings.Cut(name, "@")
	peer, variant, _ = strings.Cut(rest, "+")
	return codecName, peer, variant
}

// LangNames lists the languages' names.
func LangNames() []string {
	var out []string
	for _, r := range Runtimes {
		out = append(out, string(r.Lang))
	}
	return out
}

// ParseLangs reads a -langs list, or says which names are not languages.
func ParseLangs(names []string) ([]Lang, error) {
	var out []Lang
	for _, n := range names {
		if !slices.Contains(LangNames(), n) {
			return nil, fmt.Errorf("no language %q; interop has %s", n, strings.Join(LangNames(), ", "))
		}
		out = append(out, Lang(n))
	}
	return out, nil
}

// maxDetail is the most of a cell's detail kept: a diff of a megabyte's
// string says what it needs in its start.
const maxDetail = 1500

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "... (truncated)"
}
