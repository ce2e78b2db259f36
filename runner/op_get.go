package runner

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// The get ops read the first, the first seven and all of the fields a
// dataset names (Job.Reads) from each message of the pool, the way the
// codec reads best: in place where its case is a codec.Getter, through a
// struct holding only the fields read where it is a reflection library
// (codec.TypeDecoder), by a full decode otherwise. Each result is checked
// against the field of the message's reference: every message once before
// timing, and random timed iterations on the spot, as encode and decode
// do. getfloor decodes into an empty struct: no honest read of a
// reflection library's fields is cheaper.
func init() {
	for _, g := range []struct {
		op results.Op
		n  int // fields read; 0 for all
	}{{results.Get1, 1}, {results.Get7, 7}, {results.GetAll, 0}} {
		registerOp(g.op, operation{build: buildGet(g.op, g.n), judge: judgeSeen(g.op)})
	}
	registerOp(results.GetFloor, operation{build: buildFloor, judge: judgeSeen(results.GetFloor)})
}

// buildGet returns the build of a get op reading the first n fields (all
// for 0).
func buildGet(op results.Op, n int) func(p *Prepared, o opInput) (loop, *control, loop, error) {
	return func(p *Prepared, o opInput) (loop, *control, loop, error) {
		paths, err := readPaths(o.job, n)
		if err != nil {
			return nil, nil, nil, err
		}
		fields, err := fieldsOf(reflect.TypeOf(p.refs[0]), paths)
		if err != nil {
			return nil, nil, nil, err
		}
		wants := make([][]any, len(p.Msgs))
		for k := range p.Msgs {
			if wants[k], err = fieldValues(p.refs[k], fields); err != nil {
				return nil, nil, nil, checkErr(results.Error, "reading the reference of message %d: %v", k+1, err)
			}
		}
		out := make([]any, len(fields))
		seen := p.seenOf(op)
		raw := 0
		check := func(k int) error {
			r, err := checkRead(p, k, fields, wants[k], out)
			raw = r
			return err
		}
		// precheck reads and checks every message once, before timing.
		precheck := func(rd *codec.Reader) error {
			for k := range p.Msgs {
				if err := rd.Read(p.Msgs[k], out); err != nil {
					return checkErr(results.Failed, "%s of message %d: %v", rd.Via, k+1, err)
				}
				if err := check(k); err != nil {
					return err
				}
			}
			return nil
		}
		rd, err := p.getReader(fields, true)
		if err == nil {
			err = precheck(rd)
		}
		if err != nil && rd != nil && rd.Via == viaPartial {
			// A format that writes fields by position, not by name,
			// cannot decode into a struct of some of them: a full decode
			// is its way.
			why := err.Error()
			if rd, err = p.getReader(fields, false); err == nil {
				rd.Via = fmt.Sprintf("full decode (a struct of only the fields read does not decode: %.120s)", why)
				err = precheck(rd)
			}
		}
		if err != nil {
			return nil, nil, nil, err
		}
		inPlace := strings.HasPrefix(rd.Via, inPlace)
		seen.note = func(res *results.Result) {
			res.Via, res.Raw, res.SelfTimed = rd.Via, raw, false
			if inPlace { // it need not read every byte: no copy of them bounds it
				res.CopyNs, res.CopyBaseNs = 0, 0
			}
		}
		verify := func(k int, _ []byte) error {
			if err := check(k); err != nil {
				return err
			}
			t0 := p.now()
			err := rd.Read(p.Msgs[k], out)
			seen.times = append(seen.times, p.now().Sub(t0))
			if err != nil {
				return checkErr(results.Failed, "%s of message %d: %v", rd.Via, k+1, err)
			}
			return check(k)
		}
		seen.unseen = func(msg []byte, ref any) (time.Duration, error) {
			want, err := fieldValues(ref, fields)
			if err != nil {
				return 0, checkErr(results.Error, "reading the reference: %v", err)
			}
			t0 := p.now()
			err = rd.Read(msg, out)
			d := p.now().Sub(t0)
			if err != nil {
				return d, checkErr(results.Failed, "%s: %v", rd.Via, err)
			}
			_, err = checkFields(p, msg, fields, want, out, "a build it never saw")
			return d, err
		}
		ctl := newControl(len(p.Msgs), o.seed, o.now, verify)
		return readLoop(rd.Read, p.Msgs, out, ctl), ctl, nil, nil
	}
}

// inPlace starts the Via of a get that read with the codec's Getter;
// viaPartial is that of a get through a struct of the fields read.
const (
	inPlace    = "in place: "
	viaPartial = "partial struct"
)

// buildFloor is getfloor's build: each message decoded into an empty
// struct.
func buildFloor(p *Prepared, o opInput) (loop, *control, loop, error) {
	td, ok := p.Case.(codec.TypeDecoder)
	if !ok || p.info.API != codec.Reflection {
		return nil, nil, nil, checkErr(results.Skipped, "the empty-struct floor is a reflection library's: %s decodes only into its own types", p.info.Name)
	}
	if _, err := readPaths(o.job, 0); err != nil {
		return nil, nil, nil, err
	}
	read := func(data []byte, _ []any) error {
		var empty struct{}
		return td.DecodeAs(data, &empty)
	}
	seen := p.seenOf(results.GetFloor)
	seen.note = func(res *results.Result) { res.Via, res.SelfTimed = "empty struct", false }
	for k := range p.Msgs {
		if err := read(p.Msgs[k], nil); err != nil {
			return nil, nil, nil, checkErr(results.Skipped, "%s does not decode message %d into an empty struct: %v", p.info.Name, k+1, err)
		}
	}
	verify := func(k int, _ []byte) error {
		t0 := p.now()
		err := read(p.Msgs[k], nil)
		seen.times = append(seen.times, p.now().Sub(t0))
		if err != nil {
			return checkErr(results.Failed, "decoding message %d into an empty struct: %v", k+1, err)
		}
		return nil
	}
	seen.unseen = func(msg []byte, _ any) (time.Duration, error) {
		t0 := p.now()
		err := read(msg, nil)
		d := p.now().Sub(t0)
		if err != nil {
			return d, checkErr(results.Failed, "decoding a build it never saw into an empty struct: %v", err)
		}
		return d, nil
	}
	ctl := newControl(len(p.Msgs), o.seed, o.now, verify)
	return readLoop(read, p.Msgs, nil, ctl), ctl, nil, nil
}

// judgeSeen returns the judge of an op whose checks record what they saw
// in Prepared.seenOf(op).
func judgeSeen(op results.Op) func(p *Prepared, res *results.Result, q func([]time.Duration) float64) string {
	return func(p *Prepared, res *results.Result, q func([]time.Duration) float64) string {
		s := p.seenOf(op)
		res.CheckNsPerOp = q(s.times)
		if s.note != nil {
			s.note(res)
		}
		return ""
	}
}

// readLoop is the timed loop of an op that reads: n calls of read on the
// pool's messages, in the control's order.
func readLoop(read func([]byte, []any) error, msgs [][]byte, out []any, ctl *control) loop {
	return func(n int) error {
		order, at := ctl.order, ctl.at
		j := 0
		for i := range n {
			k := order[j]
			if err := read(msgs[k], out); err != nil {
				return err
			}
			if i == at {
				if err := ctl.check(k, nil); err != nil {
					return err
				}
			}
			if j++; j == len(order) {
				j = 0
			}
		}
		return nil
	}
}

// readPaths returns the first n of the job's paths (all for 0), or a
// skip saying why the job has none.
func readPaths(job *Job, n int) ([]codec.Path, error) {
	if job.Shape != "single" {
		return nil, checkErr(results.Skipped, "the get ops read fields of the single value; shape %s names none", job.Shape)
	}
	if len(job.Reads) == 0 {
		return nil, checkErr(results.Skipped, "dataset %s names no fields to read (dataset.Dataset.Reads)", job.Dataset)
	}
	reads := job.Reads
	if n > 0 && n < len(reads) {
		reads = reads[:n]
	}
	paths := make([]codec.Path, len(reads))
	for i, s := range reads {
		var err error
		if paths[i], err = codec.ParsePath(s); err != nil {
			return nil, checkErr(results.Error, "dataset %s: %v", job.Dataset, err)
		}
	}
	return paths, nil
}

// fieldsOf returns the fields at paths in values of type t.
func fieldsOf(t reflect.Type, paths []codec.Path) ([]codec.Field, error) {
	fields := make([]codec.Field, len(paths))
	for i, p := range paths {
		w, err := compileWalk(t, p)
		if err != nil {
			return nil, checkErr(results.Error, "path %s: %v", p, err)
		}
		fields[i] = codec.Field{Path: p, Type: w.leaf}
	}
	return fields, nil
}

// fieldValues reads fields from v, a reference value.
func fieldValues(v any, fields []codec.Field) ([]any, error) {
	out := make([]any, len(fields))
	for i, f := range fields {
		w, err := compileWalk(reflect.TypeOf(v), f.Path)
		if err != nil {
			return nil, err
		}
		if out[i], err = w.at(reflect.ValueOf(v)); err != nil {
			return nil, fmt.Errorf("%s: %v", f.Path, err)
		}
	}
	return out, nil
}

// checkRead compares what a get read from message k (out) with the
// reference's fields (want), and counts the raw slices of the message
// among them. A raw slice read for a string field is compared as the
// string of its bytes.
func checkRead(p *Prepared, k int, fields []codec.Field, want, out []any) (raw int, err error) {
	return checkFields(p, p.Msgs[k], fields, want, out, fmt.Sprintf("message %d of %d", k+1, len(p.Msgs)))
}

// checkFields compares the fields read from msg (out) with want, as
// checkRead does; what names the message.
func checkFields(p *Prepared, msg []byte, fields []codec.Field, want, out []any, what string) (raw int, err error) {
	for i, w := range want {
		got := out[i]
		if b, ok := got.([]byte); ok {
			if within(b, msg) {
				raw++
			}
			if _, str := w.(string); str {
				got = string(b)
			}
		}
		if err := verify.Equal(w, got, p.info.Losses); err != nil {
			return raw, compared(err, "field %s of %s", fields[i].Path, what)
		}
		out[i] = nil // a read that leaves a field unset fails the next check
	}
	return raw, nil
}

// within reports whether b is a non-empty slice of msg's memory.
func within(b, msg []byte) bool {
	if len(b) == 0 || len(msg) == 0 {
		return false
	}
	start, end := uintptr(unsafe.Pointer(unsafe.SliceData(msg))), uintptr(unsafe.Pointer(unsafe.SliceData(msg)))+uintptr(len(msg))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return at >= start && at < end
}

// getReader returns the way the case reads fields: its Getter's reader,
// else (with partial) a struct holding only the fields read for a
// reflection library, else a full decode. An in-place reader entry (codec.Info.ReadsOnly)
// that cannot read the fields in place is skipped.
func (p *Prepared) getReader(fields []codec.Field, partial bool) (*codec.Reader, error) {
	var why string
	if g, ok := p.Case.(codec.Getter); ok {
		rd, err := g.Reader(fields)
		switch {
		case err == nil:
			return &codec.Reader{Read: rd.Read, Via: inPlace + rd.Via}, nil
		case !codec.IsUnsupported(err):
			return nil, checkErr(results.Error, "preparing the reader: %v", err)
		}
		why = err.Error()
	}
	if p.info.ReadsOnly != "" {
		return nil, checkErr(results.Skipped, "%s cannot read these fields in place: %s", p.info.Name, why)
	}
	t := reflect.TypeOf(p.refs[0])
	if td, ok := p.Case.(codec.TypeDecoder); ok && partial && p.info.API == codec.Reflection {
		paths := make([]codec.Path, len(fields))
		for i, f := range fields {
			paths[i] = f.Path
		}
		pt, err := safePartialType(t.Elem(), paths)
		if err != nil {
			return nil, checkErr(results.Error, "a struct of the fields read: %v", err)
		}
		walks, err := compileWalks(reflect.PointerTo(pt), fields)
		if err != nil {
			return nil, err
		}
		return &codec.Reader{Via: viaPartial, Read: func(data []byte, out []any) error {
			v := reflect.New(pt)
			if err := td.DecodeAs(data, v.Interface()); err != nil {
				return err
			}
			return readWalks(walks, v, out)
		}}, nil
	}
	walks, err := compileWalks(t, fields)
	if err != nil {
		return nil, err
	}
	via := "full decode"
	if p.info.ValueConverts {
		via += " and Value's conversion from the generated types"
	}
	if why != "" {
		via += " (" + why + ")"
	}
	return &codec.Reader{Via: via, Read: func(data []byte, out []any) error {
		if err := p.Case.Decode(data); err != nil {
			return err
		}
		v, err := p.Case.Value()
		if err != nil {
			return err
		}
		return readWalks(walks, reflect.ValueOf(v), out)
	}}, nil
}

func compileWalks(t reflect.Type, fields []codec.Field) ([]pathWalk, error) {
	walks := make([]pathWalk, len(fields))
	for i, f := range fields {
		var err error
		if walks[i], err = compileWalk(t, f.Path); err != nil {
			return nil, checkErr(results.Error, "path %s in %s: %v", f.Path, t, err)
		}
	}
	return walks, nil
}

func readWalks(walks []pathWalk, v reflect.Value, out []any) error {
	for i, w := range walks {
		var err error
		if out[i], err = w.at(v); err != nil {
			return err
		}
	}
	return nil
}

// A pathWalk reads the value at a path of values of one type: each step's
// struct field index, slice index or map key, found once.
type pathWalk struct {
	steps []walkStep
	leaf  reflect.Type // the type read, pointers followed
}

type walkStep struct {
	field []int         // struct field index (reflect.Value.FieldByIndex), or nil
	index int           // slice or array index when field and key are unset
	key   reflect.Value // map key, or invalid
	name  string        // the step as written, for errors
}

// compileWalk returns the pathWalk of path p in values of type t.
func compileWalk(t reflect.Type, p codec.Path) (pathWalk, error) {
	var w pathWalk
	for _, st := range p {
		t = derefType(t)
		name := codec.Path{st}.String()
		ws := walkStep{index: st.Index, name: name}
		switch t.Kind() {
		case reflect.Struct:
			f, ok := fieldOf(t, name)
			if !ok {
				return w, fmt.Errorf("%s has no field %q", t, name)
			}
			ws.field, t = f.Index, f.Type
		case reflect.Slice, reflect.Array:
			if st.Field != "" {
				return w, fmt.Errorf("%s is indexed by numbers, not %q", t, name)
			}
			t = t.Elem()
		case reflect.Map:
			k, err := mapKey(t.Key(), name)
			if err != nil {
				return w, err
			}
			ws.key = k
			t = t.Elem()
		default:
			return w, fmt.Errorf("%s has no parts to read %q from", t, name)
		}
		w.steps = append(w.steps, ws)
	}
	w.leaf = derefType(t)
	return w, nil
}

// at returns the value the pathWalk reaches in v, pointers followed.
func (w pathWalk) at(v reflect.Value) (any, error) {
	var err error
	for _, st := range w.steps {
		if v = deref(v); !v.IsValid() {
			return nil, fmt.Errorf("nil before %s", st.name)
		}
		switch {
		case st.field != nil:
			if v, err = v.FieldByIndexErr(st.field); err != nil {
				return nil, fmt.Errorf("%s: %v", st.name, err)
			}
		case st.key.IsValid():
			v = v.MapIndex(st.key)
			if !v.IsValid() {
				return nil, fmt.Errorf("no key %s", st.name)
			}
		default:
			if st.index >= v.Len() {
				return nil, fmt.Errorf("index %d of %d elements", st.index, v.Len())
			}
			v = v.Index(st.index)
		}
	}
	if v = deref(v); !v.IsValid() {
		return nil, fmt.Errorf("nil at the end of the path")
	}
	return v.Interface(), nil
}

func deref(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// fields returns the fields of struct type t as the encodings see them:
// its own and those promoted from embedded structs (as encoding/json
// promotes them), not the embedded structs themselves.
func fields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous && derefType(f.Type).Kind() == reflect.Struct && f.Tag.Get("json") == "" || !f.IsExported() {
			continue
		}
		out = append(out, f)
	}
	return out
}

// fieldOf returns t's field named name in the encodings (its JSON name,
// else its Go name in any case), promoted ones included.
func fieldOf(t reflect.Type, name string) (reflect.StructField, bool) {
	fs := fields(t)
	for _, f := range fs {
		if fieldName(f) == name {
			return f, true
		}
	}
	for _, f := range fs {
		if f.Tag.Get("json") == "" && strings.EqualFold(f.Name, name) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// fieldName returns f's JSON name, or "" when it has no json tag.
func fieldName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// mapKey returns name as a key of a map with keys of type kt.
func mapKey(kt reflect.Type, name string) (reflect.Value, error) {
	switch kt.Kind() {
	case reflect.String:
		return reflect.ValueOf(name).Convert(kt), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(name, 10, 64)
		if err != nil {
			return reflect.Value{}, fmt.Errorf("map key %q: %v", name, err)
		}
		return reflect.ValueOf(i).Convert(kt), nil
	}
	return reflect.Value{}, fmt.Errorf("a map keyed by %s cannot be read by path", kt)
}

// safePartialType is partialType, a panic of reflect.StructOf returned
// as an error.
func safePartialType(t reflect.Type, paths []codec.Path) (reflect.Type, error) {
	pt, err := codec.GuardValue(func() (reflect.Type, error) { return partialType(t, paths) })
	if pe := (*codec.PanicError)(nil); errors.As(err, &pe) {
		return nil, fmt.Errorf("%v", pe.Value)
	}
	return pt, err
}

// partialType returns t reduced to the parts paths read: a struct keeps
// only the fields a path goes through (tags and names as they are),
// slices, arrays, maps and pointers hold the reduced element, and the
// end of a path keeps its type whole. A reflection library decodes every
// element of a slice into it, but only the fields named: valyala/fastjson's
// fair comparison for an in-place reader.
func partialType(t reflect.Type, paths []codec.Path) (reflect.Type, error) {
	for _, p := range paths {
		if len(p) == 0 {
			return t, nil
		}
	}
	tails := func() []codec.Path {
		out := make([]codec.Path, len(paths))
		for i, p := range paths {
			out[i] = p[1:]
		}
		return out
	}
	elem := func() (reflect.Type, error) { return partialType(t.Elem(), tails()) }
	switch t.Kind() {
	case reflect.Pointer:
		e, err := partialType(t.Elem(), paths)
		return reflect.PointerTo(e), err
	case reflect.Slice:
		e, err := elem()
		return reflect.SliceOf(e), err
	case reflect.Array:
		e, err := elem()
		return reflect.ArrayOf(t.Len(), e), err
	case reflect.Map:
		e, err := elem()
		return reflect.MapOf(t.Key(), e), err
	case reflect.Struct:
		// A path through a field promoted from an embedded struct keeps
		// the embedded field, reduced: encoding/json promotes its fields,
		// gob and others read it as a field of its own.
		var out []reflect.StructField
		for i := range t.NumField() {
			f := t.Field(i)
			var sub []codec.Path
			for _, p := range paths {
				g, ok := fieldOf(t, codec.Path{p[0]}.String())
				switch {
				case !ok || g.Index[0] != i:
				case len(g.Index) > 1: // promoted from f: the path goes on inside f
					sub = append(sub, p)
				default:
					sub = append(sub, p[1:])
				}
			}
			if len(sub) == 0 {
				continue
			}
			ft, err := partialType(f.Type, sub)
			if err != nil {
				return nil, err
			}
			if f.Anonymous && !f.IsExported() { // reflect makes no unexported field: its fields, promoted, stand in
				for j := range derefType(ft).NumField() {
					out = append(out, derefType(ft).Field(j))
				}
				continue
			}
			out = append(out, reflect.StructField{Name: f.Name, Type: ft, Tag: f.Tag, Anonymous: f.Anonymous})
		}
		return reflect.StructOf(out), nil
	}
	return nil, fmt.Errorf("%s has no parts to read %s from", t, paths[0])
}

// CheckOp verifies op on every message of the pool, as the op's build
// does before timing, for callers that check without timing
// (conformance). It returns nil when the op passes or is skipped (the
// codec cannot do it, or the job has nothing for it), a *CheckError
// otherwise.
func (p *Prepared) CheckOp(job *Job, op results.Op) error {
	o, ok := operations[op]
	if !ok {
		return checkErr(results.Error, "unknown op %q", op)
	}
	_, _, _, err := o.build(p, opInput{job: job, seed: 1, now: p.now})
	var ce *CheckError
	if errors.As(err, &ce) && ce.Status == results.Skipped {
		return nil
	}
	return err
}
