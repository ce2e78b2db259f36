package runner

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/capnp"
	"github.com/serbench/serbench/codecs/flatbuffers"
	"github.com/serbench/serbench/codecs/gjson"
	"github.com/serbench/serbench/codecs/jsonparser"
	"github.com/serbench/serbench/codecs/kelindar"
	"github.com/serbench/serbench/codecs/msgp"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
)

// readJob returns the job of info on dataset name in shape sh, with the
// dataset's paths, as preset builds it.
func readJob(t *testing.T, info codec.Info, name string, sh dataset.Shape) *Job {
	t.Helper()
	d, err := dataset.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return &Job{Codec: info, Dataset: d.Name, Shape: string(sh), Items: d.Count(sh), Reads: d.Reads(),
		Value: func() (any, error) { return d.Value(sh) }, ValueAt: func(k int) (any, error) { return d.ValueAt(sh, k) }}
}

var jsonInfo = codec.Info{Name: "json", Family: "json", API: codec.Reflection,
	New: func() codec.Codec { return codec.Reflect(json.Marshal, json.Unmarshal) }}

// cased returns json's Info whose cases are wrapped by wrap.
func cased(name string, api codec.APIKind, wrap func(codec.Case) codec.Case) codec.Info {
	info := jsonInfo
	info.Name, info.API = name, api
	info.New = func() codec.Codec {
		return codec.Func(func(v any) (codec.Case, error) {
			c, err := jsonInfo.New().Prepare(v)
			if err != nil {
				return nil, err
			}
			return wrap(c), nil
		})
	}
	return info
}

// plainCase hides every optional method of a case.
type plainCase struct{ codec.Case }

// lyingGetter reads every field as its type's zero value.
type lyingGetter struct{ plainCase }

func (lyingGetter) Reader(fields []codec.Field) (*codec.Reader, error) {
	return &codec.Reader{Via: "zeros", Read: func(_ []byte, out []any) error {
		for i, f := range fields {
			out[i] = reflect.Zero(f.Type).Interface()
		}
		return nil
	}}, nil
}

// memoAny decodes into generic values once, and hands back that first
// value for every message after.
type memoAny struct {
	plainCase
	first any
}

func (c *memoAny) DecodeAny(data []byte) (any, error) {
	if c.first == nil {
		if err := json.Unmarshal(data, &c.first); err != nil {
			return nil, err
		}
	}
	return c.first, nil
}

// runOp builds op for job and runs its timed loop over a few batches,
// each verifying one iteration (as the sampler draws them), then the
// checks' judgement; it returns the result, or the status and reason of
// a build or loop that failed.
func runOp(t *testing.T, job *Job, op results.Op) results.Result {
	t.Helper()
	p, err := Prepare(job)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	res := job.result(op, results.OK, "")
	lp, ctl, _, err := operations[op].build(p, opInput{job: job, seed: 7, now: time.Now})
	var ce *CheckError
	if errors.As(err, &ce) {
		res.Status, res.Reason = ce.Status, ce.Reason
		return res
	}
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	for range 8 {
		ctl.force = true
		ctl.arm(5)
		if err := lp(5); err != nil {
			res.Status, res.Reason = results.Failed, err.Error()
			return res
		}
	}
	res.NsPerOp.Median = 1
	operations[op].judge(p, &res, func(ds []time.Duration) float64 { return float64(len(ds)) })
	return res
}

// TestReadOps runs the get and decode-any ops on codecs that read in
// place, through a partial struct, by a full decode, or not at all, and
// on codecs that lie: every result is checked against the original.
func TestReadOps(t *testing.T) {
	for _, tc := range []struct {
		name    string
		info    codec.Info
		dataset string
		shape   dataset.Shape
		op      results.Op
		status  results.Status
		want    string // in the result's Via, or in its reason
		raw     int
	}{
		{"partial struct", jsonInfo, "big", dataset.Single, results.Get7, results.OK, "partial struct", 0},
		{"full decode", cased("gen", codec.Codegen, func(c codec.Case) codec.Case { return plainCase{c} }), "big", dataset.Single, results.Get1, results.OK, "full decode", 0},
		{"gjson in place", gjson.Reader, "big", dataset.Single, results.GetAll, results.OK, "in place: gjson.GetBytes", 0},
		{"jsonparser raw slices", jsonparser.Reader, "big", dataset.Single, results.Get7, results.OK, "in place: jsonparser.EachKey", 3},
		{"jsonparser one field", jsonparser.Reader, "complexdata", dataset.Single, results.Get1, results.OK, "in place: jsonparser.Get", 0},
		{"msgp in place", msgp.Tinylib, "big", dataset.Single, results.Get7, results.OK, "in place: msgp.Locate", 3},
		{"msgp element", msgp.Tinylib, "complexdata", dataset.Single, results.GetAll, results.OK, "in place: msgp.Locate", 3},
		{"flatbuffers in place", flatbuffers.Default, "big", dataset.Single, results.GetAll, results.OK, "in place: generated accessors", 4},
		{"flatbuffers without accessors", flatbuffers.Default, "complexdata", dataset.Single, results.Get1, results.OK, "full decode (codec: unsupported type dataset.ComplexData: no accessors written for count)", 0},
		{"capnp in place", capnp.Default, "big", dataset.Single, results.GetAll, results.OK, "in place: capnp.Unmarshal", 4},
		{"msgp decode-any", msgp.Tinylib, "complexdata", dataset.Single, results.DecodeAny, results.OK, "numbers: ", 0},
		{"positional format", kelindar.Default, "big", dataset.Single, results.Get7, results.OK, "full decode (a struct of only the fields read does not decode", 0},
		{"floor", jsonInfo, "big", dataset.Single, results.GetFloor, results.OK, "empty struct", 0},
		{"floor of a reader", gjson.Reader, "big", dataset.Single, results.GetFloor, results.Skipped, "reflection library's", 0},
		{"no paths", jsonInfo, "tiny", dataset.Single, results.Get1, results.Skipped, "names no fields", 0},
		{"slice shape", jsonInfo, "big", dataset.Slice, results.Get1, results.Skipped, "shape slice", 0},
		{"lying getter", cased("liar", codec.Codegen, func(c codec.Case) codec.Case { return lyingGetter{plainCase{c}} }), "big", dataset.Single, results.Get1, results.Failed, "field big_id", 0},
		{"decode-any", jsonInfo, "big", dataset.Single, results.DecodeAny, results.OK, "numbers: float64; maps: map[string]interface {}", 0},
		{"decode-any of a reader", gjson.Reader, "complexdata", dataset.Single, results.DecodeAny, results.OK, "numbers: float64", 0},
		{"no decode-any", cased("gen", codec.Codegen, func(c codec.Case) codec.Case { return plainCase{c} }), "big", dataset.Single, results.DecodeAny, results.Skipped, "typed values", 0},
		{"memo decode-any", cased("memo", codec.Reflection, func(c codec.Case) codec.Case { return &memoAny{plainCase: plainCase{c}} }), "big", dataset.Single, results.DecodeAny, results.Failed, "message 2", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runOp(t, readJob(t, tc.info, tc.dataset, tc.shape), tc.op)
			if res.Status != tc.status {
				t.Fatalf("status %s (%s), want %s", res.Status, res.Reason, tc.status)
			}
			if got := res.Via + res.Reason; !strings.Contains(got, tc.want) {
				t.Errorf("via and reason %q, want them to contain %q", got, tc.want)
			}
			if res.Raw != tc.raw {
				t.Errorf("%d raw slices, want %d", res.Raw, tc.raw)
			}
			if res.Status == results.OK && res.CheckNsPerOp == 0 {
				t.Errorf("the checks timed no call of the op")
			}
		})
	}
}

// TestPartialType checks the struct a reflection library decodes a get's
// fields into: only the fields on a path, the end of each path whole.
func TestPartialType(t *testing.T) {
	var paths []codec.Path
	for _, s := range []string{"the_biggest_slice.999.big_id", "big_ptr_slice.7.medium.first_name", "the_biggest_slice.3"} {
		p, err := codec.ParsePath(s)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	pt, err := partialType(reflect.TypeFor[dataset.Huge](), paths)
	if err != nil {
		t.Fatal(err)
	}
	want := "struct { BigPtrSlice []*struct { Medium struct { FirstName string \"json:\\\"first_name\\\" xml:\\\"first_name\\\" yaml:\\\"first_name\\\"\" } \"json:\\\"medium\\\" xml:\\\"medium\\\" yaml:\\\"medium\\\"\" } \"json:\\\"big_ptr_slice\\\" xml:\\\"big_ptr_slice\\\" yaml:\\\"big_ptr_slice\\\"\"; TheBiggestSlice []dataset.Big \"json:\\\"the_biggest_slice\\\" xml:\\\"the_biggest_slice\\\" yaml:\\\"the_biggest_slice\\\"\" }"
	if got := pt.String(); got != want {
		t.Errorf("partial type\n%s\nwant\n%s", got, want)
	}
}

// TestGeneric checks the normalisation both sides of a decode-any
// comparison go through.
func TestGeneric(t *testing.T) {
	when := time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC)
	for _, tc := range []struct {
		in, want any
	}{
		{json.Number("42"), int64(42)},
		{float64(42), int64(42)},
		{uint64(1 << 63), uint64(1 << 63)},
		{json.Number("18446744073709551615"), uint64(18446744073709551615)},
		{1.5, 1.5},
		{"2024-01-02T03:04:05.000000006Z", when},
		{when, when},
		{[]byte("hi"), "aGk="},
		{map[any]any{1: "a"}, map[string]any{"1": "a"}},
		{[]string{"x"}, []any{"x"}},
		{"plain", "plain"},
	} {
		if got := generic(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("generic(%#v) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}

// TestPromoted checks that a path reaches a field promoted from an
// embedded struct, as encoding/json sees it, and that the partial struct
// holds it: an unexported embedded struct's fields as its own, an
// exported one embedded, reduced, so that gob, which reads an embedded
// struct as a field of its own, finds it there.
func TestPromoted(t *testing.T) {
	type inner struct {
		ID   int64  `json:"id"`
		Note string `json:"note"`
	}
	type outer struct {
		inner
		Name string `json:"name"`
	}
	p, _ := codec.ParsePath("id")
	w, err := compileWalk(reflect.TypeFor[*outer](), p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := w.at(reflect.ValueOf(&outer{inner: inner{ID: 7}})); err != nil || got != int64(7) {
		t.Errorf("at = %v, %v; want 7", got, err)
	}
	pt, err := partialType(reflect.TypeFor[outer](), []codec.Path{p})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pt.String(), "struct { ID int64 \"json:\\\"id\\\"\" }"; got != want {
		t.Errorf("partial type %s, want %s", got, want)
	}
	// The partial struct decodes as the whole: encoding/json promotes the
	// embedded struct's fields.
	v := reflect.New(pt)
	if err := json.Unmarshal([]byte(`{"id":7,"note":"n","name":"x"}`), v.Interface()); err != nil {
		t.Fatal(err)
	}
	pw, err := compileWalk(v.Type(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := pw.at(v); err != nil || got != int64(7) {
		t.Errorf("read from the partial struct: %v, %v; want 7", got, err)
	}

	type Tweet struct {
		ID   int64  `json:"id"`
		Text string `json:"text"`
	}
	type status struct {
		Tweet
		Lang string `json:"lang"`
	}
	et, err := partialType(reflect.TypeFor[status](), []codec.Path{p})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(status{Tweet: Tweet{ID: 9, Text: "t"}, Lang: "ja"}); err != nil {
		t.Fatal(err)
	}
	ev := reflect.New(et)
	if err := gob.NewDecoder(&buf).Decode(ev.Interface()); err != nil {
		t.Fatal(err)
	}
	ew, err := compileWalk(ev.Type(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ew.at(ev); err != nil || got != int64(9) {
		t.Errorf("gob into the partial struct %s: %v, %v; want 9", et, got, err)
	}
}

// TestReads checks the paths every dataset names for the get ops: each
// reaches a value in its first two builds, and the first is a scalar.
func TestReads(t *testing.T) {
	for _, d := range dataset.All {
		if len(d.Reads()) == 0 {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			job := readJob(t, jsonInfo, d.Name, dataset.Single)
			paths, err := readPaths(job, 0)
			if err != nil {
				t.Fatal(err)
			}
			fields, err := fieldsOf(reflect.PointerTo(d.Type()), paths)
			if err != nil {
				t.Fatal(err)
			}
			if k := fields[0].Type.Kind(); k == reflect.Struct || k == reflect.Slice || k == reflect.Map {
				t.Errorf("the first path, %s, reads a %s: a one-field get reads a scalar", fields[0].Path, fields[0].Type)
			}
			for k := range 2 {
				v, err := d.ValueAt(dataset.Single, k)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := fieldValues(v, fields); err != nil {
					t.Errorf("build %d: %v", k, err)
				}
			}
		})
	}
}
