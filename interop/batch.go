package interop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// Cases returns the probes other languages can express, in catalogue
// order: those that encode a value and decode it as its own type, whose
// value has a neutral form (Neutral) in some format.
func Cases() []fidelity.Probe {
	var out []fidelity.Probe
	for _, p := range fidelity.Probes {
		if p.Kind != "" && p.Kind != fidelity.RoundTrip || p.Value == nil || p.Check != nil {
			continue
		}
		if _, err := Neutral(p.Value(), Model{}); err != nil {
			continue
		}
		out = append(out, p)
	}
	return out
}

// CaseName is the name of a matrix case: the probe and the direction,
// "uint64-max/peer-reads".
func CaseName(probe, dir string) string { return probe + "/" + dir }

// A Column is a Go codec with one peer in one configuration: a column
// of the study (a row of its matrix).
type Column struct {
	Codec   codec.Info
	Peer    Peer
	Variant Variant
}

// Name names the column: "msgpack@python-msgpack", with "+careful" for
// the careful variant.
func (c Column) Name() string {
	n := c.Codec.Name + "@" + c.Peer.Name
	if c.Variant.Name != "" {
		n += "+" + c.Variant.Name
	}
	return n
}

// Columns returns the study's columns for codecs: every peer of each
// codec's format, in each of its variants. A codec takes part when it
// reads any Go value (a reflection codec, not an in-place reader) and its
// format has peers.
func Columns(codecs []codec.Info) []Column {
	var out []Column
	for _, info := range codecs {
		if !Takes(info) {
			continue
		}
		for _, p := range Peers {
			if p.Family != info.Family {
				continue
			}
			for _, v := range p.Variants {
				out = append(out, Column{info, p, v})
			}
		}
	}
	return out
}

// Takes says whether the study takes the codec: a reflection codec, not
// an in-place reader, of a format with a model and peers.
func Takes(info codec.Info) bool {
	if info.API != codec.Reflection || info.ReadsOnly != "" {
		return false
	}
	_, ok := Models[info.Family]
	return ok && slices.ContainsFunc(Peers, func(p Peer) bool { return p.Family == info.Family })
}

// LookupPeer returns the peer named name.
func LookupPeer(name string) (Peer, error) {
	for _, p := range Peers {
		if p.Name == name {
			return p, nil
		}
	}
	return Peer{}, fmt.Errorf("interop: no peer %q", name)
}

// A Batch is the input of one child: every case of one column.
type Batch struct {
	Codec   string        `json:"codec"`
	Peer    string        `json:"peer"`
	Variant string        `json:"variant,omitempty"`
	Cases   []string      `json:"cases"` // probe names
	Timeout time.Duration `json:"timeout"`
}

// DefaultTimeout is how long a peer may take over one batch.
const DefaultTimeout = 60 * time.Second

// prepared is one case on Go's side before the peer sees it.
type prepared struct {
	probe fidelity.Probe
	value any
	data  []byte // Go's encoding; nil when Go cannot write it
	want  Value
	// na says why the case cannot cross at all; wrote, why Go's
	// encoding is missing.
	na, wrote string
	wroteOut  results.Outcome
	// self is the normalisation Go's own round trip needs ("any-types"):
	// a crossing that needs no more adds nothing to it.
	self string
}

// RunBatch runs a batch in this process: Go writes each case, one peer
// process reads, writes back and writes each case, and Go reads what it
// wrote. It calls step before each part that may crash or hang, naming
// the case ("decode uint64-max"), and returns the cells, three a case.
func RunBatch(ctx context.Context, b Batch, step func(string)) ([]results.MatrixCell, error) {
	fidelity.PinZone()
	info, err := registry.Lookup(b.Codec)
	if err != nil {
		return nil, err
	}
	peer, err := LookupPeer(b.Peer)
	if err != nil {
		return nil, err
	}
	vi := slices.IndexFunc(peer.Variants, func(v Variant) bool { return v.Name == b.Variant })
	if vi < 0 {
		return nil, fmt.Errorf("interop: peer %s has no variant %q", peer.Name, b.Variant)
	}
	col := Column{info, peer, peer.Variants[vi]}
	probes, err := fidelity.Lookup(b.Cases)
	if err != nil {
		return nil, err
	}
	model := Models[info.Family]
	var cases []prepared
	var reqs []Request
	for _, p := range probes {
		step("encode " + p.Name)
		c := prepare(info, p, model)
		cases = append(cases, c)
		if c.na == "" {
			reqs = append(reqs, Request{Case: p.Name, Data: c.data, Want: c.want})
		}
	}
	var sess *Session
	var unavailable error
	if len(reqs) > 0 {
		step("peer")
		sess, err = Talk(ctx, peer, col.Variant, reqs, cmpOr(b.Timeout, DefaultTimeout))
		if err != nil {
			if !errors.Is(err, ErrUnavailable) {
				return nil, err
			}
			unavailable = err
		}
	}
	var cells []results.MatrixCell
	k := 0 // the next response
	for _, c := range cases {
		name := c.probe.Name
		cell := func(dir string, o results.Outcome, note, detail string) {
			mc := results.MatrixCell{Codec: col.Name(), Case: CaseName(name, dir), Outcome: o, Note: note, Detail: detail}
			if sess != nil && sess.Version != "" {
				mc.Facts = map[string]string{FactVersion: sess.Version}
			}
			cells = append(cells, mc)
		}
		switch {
		case c.na != "":
			for _, d := range Directions {
				cell(d, NA, "", c.na)
			}
			continue
		case unavailable != nil:
			for _, d := range Directions {
				cell(d, Skipped, "", unavailable.Error())
			}
			continue
		}
		var res *Response
		if k < len(sess.Responses) && sess.Responses[k].Case == name {
			res = &sess.Responses[k]
			k++
		}
		if res == nil {
			for _, d := range Directions {
				cell(d, Crash, "peer", cmpOr(sess.Died, "the peer gave no answer for the case"))
			}
			continue
		}
		// Go wrote it; the peer read it.
		switch {
		case c.data == nil:
			cell(PeerReads, c.wroteOut, "", c.wrote)
			cell(RoundTrip, NA, "", "Go wrote nothing to read back: "+c.wrote)
		case res.ReadErr != "":
			cell(PeerReads, RefusedPeer, "", res.ReadErr)
			cell(RoundTrip, NA, "", "the peer read nothing to write back")
		default:
			o, note, detail := judgeRead(c, *res.Read, model, info.Losses)
			cell(PeerReads, o, note, detail)
			if res.BackErr != "" {
				cell(RoundTrip, RefusedPeer, "", "writing back what it read: "+res.BackErr)
			} else {
				step("decode back " + name)
				o, note, detail := goReads(info, c, res.Back)
				cell(RoundTrip, o, note, detail)
			}
		}
		// The peer wrote it; Go read it.
		if res.OwnErr != "" {
			cell(GoReads, RefusedPeer, "", res.OwnErr)
		} else {
			step("decode own " + name)
			o, note, detail := goReads(info, c, res.Own)
			cell(GoReads, o, note, detail)
		}
	}
	return cells, nil
}

// prepare builds a case on Go's side: its value, Go's encoding, and the
// neutral form of the value in the format's model.
func prepare(info codec.Info, p fidelity.Probe, m Model) prepared {
	c := prepared{probe: p, value: p.Value()}
	want, err := Neutral(c.value, m)
	if err != nil {
		c.na = "the format cannot hold it: " + err.Error()
		return c
	}
	c.want = want
	t := reflect.TypeOf(c.value)
	if err := info.Supports(t.String(), codec.FeaturesOf(t)); err != nil {
		c.na = "Go's codec declares it unsupported: " + err.(*codec.UnsupportedError).Reason
		return c
	}
	data, err := guard(func() ([]byte, error) {
		cs, err := info.New().Prepare(c.value)
		if err != nil {
			return nil, err
		}
		b, err := cs.Encode()
		return bytes.Clone(b), err
	})
	var pe panicked
	switch {
	case errors.As(err, &pe):
		c.wrote, c.wroteOut = "Go's encoder panicked: "+err.Error(), Crash
	case err != nil && codec.IsUnsupported(err):
		c.na = "Go's codec cannot hold it: " + err.Error()
	case err != nil:
		c.wrote, c.wroteOut = "Go refuses to write it: "+err.Error(), RefusedGo
	default:
		c.data = data
		// What Go itself does not keep is the fidelity matrix's to show,
		// not a difference between languages.
		o, norm, detail := goReads(info, c, data)
		if o != SameBytes && o != Loss {
			c.data, c.na = nil, "Go's own round trip does not keep it ("+string(o)+"): "+detail
		}
		c.self = norm
	}
	return c
}

// judgeRead compares what the peer read with the value Go wrote, through
// the value a Go program gets from the reading (Into).
func judgeRead(c prepared, read Value, m Model, losses []codec.Loss) (results.Outcome, string, string) {
	got, err := Into(read, reflect.TypeOf(c.value).Elem(), m)
	if err != nil {
		return Changed, "", err.Error()
	}
	return c.judge(reflect.ValueOf(c.value).Elem().Interface(), got)
}

// goReads decodes data with Go's codec into a new value of the case's
// type and compares it with the value. Data equal to Go's own encoding
// is the same bytes.
func goReads(info codec.Info, c prepared, data []byte) (results.Outcome, string, string) {
	got, err := guard(func() (any, error) {
		cs, err := info.New().Prepare(c.probe.Value())
		if err != nil {
			return nil, err
		}
		if err := cs.Decode(data); err != nil {
			return nil, err
		}
		return cs.Value()
	})
	var pe panicked
	switch {
	case errors.As(err, &pe):
		return Crash, "panic", "Go's decoder: " + err.Error()
	case err != nil:
		return RefusedGo, "", err.Error()
	}
	o, note, detail := c.judge(c.value, got)
	if o == SameValue && c.data != nil && bytes.Equal(data, c.data) {
		o = SameBytes
	}
	return o, note, detail
}

// judge compares got with want: the same value, equal after a
// normalisation of serbench's loss kinds (named), or changed (the diff).
// A normalisation Go's own round trip needs too is the same value, noted.
func (c prepared) judge(want, got any) (results.Outcome, string, string) {
	if verify.Equal(want, got, nil) == nil {
		return SameValue, "", ""
	}
	norm, err := fidelity.Normalise(want, got)
	var mm *verify.MismatchError
	switch {
	case errors.As(err, &mm):
		return Changed, "", mm.Diff
	case err != nil:
		return Changed, "", err.Error()
	case norm != "" && within(norm, c.self):
		return SameValue, "as Go's own: " + norm, ""
	case norm != "":
		return Loss, norm, ""
	}
	return SameValue, "", ""
}

// within says whether every part of the normalisation norm is one of
// self's ("UTC" within "UTC,1ms").
func within(norm, self string) bool {
	parts := strings.Split(self, ",")
	for _, p := range strings.Split(norm, ",") {
		if !slices.Contains(parts, p) {
			return false
		}
	}
	return true
}

// A panicked error is a panic of a codec, recovered.
type panicked struct{ v any }

func (e panicked) Error() string { return fmt.Sprintf("panic: %v", e.v) }

// guard calls f, recovering a panic as a panicked error.
func guard[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked{r}
		}
	}()
	return f()
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}
