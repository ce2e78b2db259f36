package interop

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// Cases returns the study's cases: the probes other languages can
// express, in catalogue order (those that encode a value and decode it as
// its own type, whose value has a neutral form (Neutral) in some format),
// then the datasets (DatasetCases).
var Cases = sync.OnceValue(func() []fidelity.Probe {
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
	return append(out, DatasetCases()...)
})

// maxNodes bounds the size of a dataset case: the values of its neutral
// form. A case crosses the peer's pipe as neutral JSON three times, so a
// dataset of thousands of records (huge, the complex maps) would cost the
// study its speed and show nothing its records do not show one by one.
const maxNodes = 5000

// DatasetCases returns the datasets as cases, "dataset-NAME": each
// generated dataset's single value whose neutral form has at most
// maxNodes values. A corpus is left out: its types keep Go's own JSON
// (custom marshalers), which no schema of another language has. The
// datasets are what a format whose codecs read their own types (Model's
// Messages) crosses: its schema has messages for them, not for the probes.
func DatasetCases() []fidelity.Probe {
	var out []fidelity.Probe
	for _, name := range dataset.Names() {
		d, err := dataset.Lookup(name)
		if err != nil || d.Corpus != nil {
			continue
		}
		value := func() any {
			v, err := d.Value(dataset.Single)
			if err != nil {
				panic(err) // every dataset has the single shape
			}
			return v
		}
		v := value()
		if size(reflect.ValueOf(v), maxNodes+1) > maxNodes {
			continue
		}
		if _, err := Neutral(v, Model{}); err != nil {
			continue
		}
		out = append(out, fidelity.Probe{Name: "dataset-" + name, Group: "dataset", Doc: d.Doc, Value: value})
	}
	return out
}

// size counts the values v holds as its neutral form would (itself, each
// element, each map key and element, each field), up to limit: a walk
// that stops there, so that a dataset of millions of values costs no more
// than limit steps.
func size(v reflect.Value, limit int) int {
	n := 0
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if n >= limit || !v.IsValid() {
			return
		}
		n++
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			if v.Type() == timeType {
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next() && n < limit; {
				n++
				walk(it.Value())
			}
		case reflect.Slice, reflect.Array:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				return
			}
			for i := 0; i < v.Len() && n < limit; i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(v)
	return n
}

// lookupCase returns the case named name.
func lookupCase(name string) (fidelity.Probe, error) {
	for _, p := range Cases() {
		if p.Name == name {
			return p, nil
		}
	}
	return fidelity.Probe{}, errors.New("interop: no case " + name)
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
// codec's format, in each of its variants, for each codec the study
// takes (Takes).
func Columns(codecs []codec.Info) []Column {
	var out []Column
	for _, info := range codecs {
		if Takes(info) != "" {
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

// Takes says why the study does not take a codec, or "" when it does: it
// takes a codec (not an in-place reader) of a format with peers and a
// model, that reads any Go value (a reflection codec) or whose format's
// model carries the cases as types of the project's schema (Model.Schema).
func Takes(info codec.Info) string {
	switch m, ok := Models[info.Family]; {
	case info.ReadsOnly != "":
		return "an in-place reader of " + info.ReadsOnly + "'s encodings: its round trips are " + info.ReadsOnly + "'s"
	case info.API != codec.Reflection && m.Schema == "":
		return "its " + string(info.API) + " API reads its own types, not the probes'"
	case !ok || !slices.ContainsFunc(Peers, func(p Peer) bool { return p.Family == info.Family }):
		return "no peer in another language reads " + info.Family + " here (peers read " + strings.Join(Formats(), ", ") + ")"
	}
	return ""
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

// LookupPeer returns the peer named name.
func LookupPeer(name string) (Peer, error) {
	for _, p := range Peers {
		if p.Name == name {
			return p, nil
		}
	}
	return Peer{}, errors.New("interop: no peer " + name)
}

// A prepared case is one probe on Go's side before the peer sees it.
type prepared struct {
	probe fidelity.Probe
	value any
	data  []byte // Go's encoding; nil when Go cannot write it
	want  Value
	// na says why the case cannot cross at all; wrote, why Go's
	// encoding is missing, and wroteOut the outcome it gives.
	na, wrote string
	wroteOut  results.Outcome
	// self is the normalisation Go's own round trip needs ("any-types"):
	// a crossing that needs no more adds nothing to it.
	self string
	// typ names the case's type in the schema and bind binds it, for a
	// model of a Schema.
	typ  string
	bind binding
}

// prepare builds a case on Go's side: its value, Go's encoding, and the
// neutral form of the value in the format's model.
func prepare(info codec.Info, p fidelity.Probe, m Model) prepared {
	c := prepared{probe: p, value: p.Value()}
	if m.Schema != "" {
		b, err := m.bind(c.value)
		if err != nil {
			c.na = "the schema has no type for it: " + err.Error()
			return c
		}
		c.bind, c.typ, c.want = b, b.typ, b.want
	} else {
		want, err := Neutral(c.value, m)
		if err != nil {
			c.na = "the format cannot hold it: " + err.Error()
			return c
		}
		c.want = want
	}
	t := reflect.TypeOf(c.value)
	if err := info.Supports(t.String(), codec.FeaturesOf(t)); err != nil {
		c.na = "Go's codec declares it unsupported: " + err.(*codec.UnsupportedError).Reason
		return c
	}
	data, err := codec.GuardValue(func() ([]byte, error) {
		cs, err := info.New().Prepare(c.value)
		if err != nil {
			return nil, err
		}
		b, err := cs.Encode()
		return bytes.Clone(b), err
	})
	var pe *codec.PanicError
	switch {
	case errors.As(err, &pe):
		c.wrote, c.wroteOut = "Go's encoder panicked: "+err.Error(), Crash
	case err != nil && codec.IsUnsupported(err):
		c.na = "Go's codec cannot hold it: " + err.Error()
	case err != nil:
		// What Go itself cannot write is the fidelity matrix's to show.
		c.na = "Go's codec refuses to write it: " + err.Error()
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

// judgeDir judges one direction of a prepared case from the peer's
// answer res.
func judgeDir(info codec.Info, c prepared, res Response, dir string, m Model) (results.Outcome, string, string) {
	switch dir {
	case PeerReads:
		switch {
		case c.data == nil:
			return c.wroteOut, "", c.wrote
		case res.ReadErr != "":
			return RefusedPeer, "", res.ReadErr
		case res.Read == nil:
			return Crash, "peer", "the peer answered neither a value nor an error"
		}
		o, note, detail := judgeRead(c, *res.Read, m)
		var mm *mismatch
		if o == Changed && errors.As(readErr(c, *res.Read, m), &mm) && res.BackErr == "" {
			// The peer read another type than the model has for the
			// value (a time as Unix seconds, a duration as text): the
			// value is the same when what it writes back of it reads
			// back so.
			if back, _, _ := goReads(info, c, res.Back); back == SameBytes || back == SameValue {
				return SameValue, "read as " + string(mm.read.Kind), ""
			}
		}
		return o, note, detail
	case RoundTrip:
		switch {
		case c.data == nil:
			return NA, "", "Go wrote nothing to read back: " + c.wrote
		case res.ReadErr != "":
			return NA, "", "the peer read nothing to write back"
		case res.BackErr != "":
			return RefusedPeer, "", "writing back what it read: " + res.BackErr
		}
		return goReads(info, c, res.Back)
	}
	if res.OwnErr != "" {
		return RefusedPeer, "", res.OwnErr
	}
	return goReads(info, c, res.Own)
}

// readErr is the error of Into on what the peer read, if any.
func readErr(c prepared, read Value, m Model) error {
	_, err := c.into(read, m)
	return err
}

// into returns the Go value a program gets from the peer's reading: Into
// the case's type, or, for a model of a Schema, the binding's.
func (c prepared) into(read Value, m Model) (any, error) {
	if m.Schema == "" {
		return Into(read, reflect.TypeOf(c.value).Elem(), m)
	}
	return c.bind.into(read)
}

// judgeRead compares what the peer read with the value Go wrote, through
// the value a Go program gets from the reading (Into).
func judgeRead(c prepared, read Value, m Model) (results.Outcome, string, string) {
	got, err := c.into(read, m)
	if err != nil {
		return Changed, "", err.Error()
	}
	return c.judge(reflect.ValueOf(c.value).Elem().Interface(), got)
}

// goReads decodes data with Go's codec into a new value of the case's
// type and compares it with the value. Data equal to Go's own encoding
// is the same bytes.
func goReads(info codec.Info, c prepared, data []byte) (results.Outcome, string, string) {
	got, err := codec.GuardValue(func() (any, error) {
		cs, err := info.New().Prepare(c.probe.Value())
		if err != nil {
			return nil, err
		}
		if err := cs.Decode(data); err != nil {
			return nil, err
		}
		return cs.Value()
	})
	var pe *codec.PanicError
	switch {
	case errors.As(err, &pe):
		return Crash, "panic", "Go's decoder: " + err.Error() + "\n" + pe.Stack
	case err != nil:
		return RefusedGo, "", err.Error()
	}
	o, note, detail := c.judge(c.value, got)
	if o == SameValue && note == "" && c.data != nil && bytes.Equal(data, c.data) {
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
