package runner

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// decode-any decodes each message of the pool into generic values
// (codec.AnyDecoder) and verifies the result against the typed value's
// generic form: the reference through encoding/json into any, numbers
// kept exact (json.Number). Both sides are normalised before the
// comparison (generic), so that what differs is the value, not the Go
// types the library chose for it; those types are what the result
// reports (Result.Numbers, Result.Maps).
func init() {
	registerOp(results.DecodeAny, operation{build: buildAny, judge: judgeSeen(results.DecodeAny)})
}

func buildAny(p *Prepared, o opInput) (loop, *control, loop, error) {
	ad, ok := p.Case.(codec.AnyDecoder)
	if !ok {
		return nil, nil, nil, checkErr(results.Skipped, "%s decodes only into typed values (its case is no codec.AnyDecoder)", p.info.Name)
	}
	wants := make([]any, len(p.Msgs))
	for k := range p.Msgs {
		w, err := genericForm(p.refs[k])
		if err != nil {
			return nil, nil, nil, checkErr(results.Skipped, "the value has no generic form to check against: %v", err)
		}
		wants[k] = w
	}
	var last any
	var checkAny func(k int, ref, want any, what string) error
	types := newTypeSet()
	// A library that writes structs as maps keyed by their Go field
	// names (no JSON tags) is checked against the form with those keys,
	// once its first message shows it.
	goNames := false
	// A library that turns every number into a float64 is checked at
	// that precision (an integer beyond 2^53 rounds), and says so.
	asFloats := false
	check := func(k int) error {
		return checkAny(k, p.refs[k], wants[k], fmt.Sprintf("message %d of %d", k+1, len(p.Msgs)))
	}
	checkAny = func(k int, ref, want any, what string) error {
		types.add(last)
		if k == 0 && types.numbers() == "float64" {
			asFloats = true
		}
		got := generic(last)
		if goNames {
			want = generic(byGoName(reflect.ValueOf(ref)))
		}
		if asFloats {
			got, want = floats(got), floats(want)
		}
		err := verify.Equal(want, got, p.info.Losses)
		if err != nil && k == 0 && !goNames {
			byName := generic(byGoName(reflect.ValueOf(ref)))
			if asFloats {
				byName = floats(byName)
			}
			if verify.Equal(byName, got, p.info.Losses) == nil {
				goNames, err = true, nil
			}
		}
		return compared(err, "the generic value of %s (normalised: numbers exact, times parsed, bytes in base64)", what)
	}
	read := func(data []byte, _ []any) error {
		var err error
		last, err = ad.DecodeAny(data)
		return err
	}
	if err := read(p.Msgs[0], nil); err != nil {
		return nil, nil, nil, checkErr(results.Skipped, "%s does not decode into any: %v", p.info.Name, err)
	}
	for k := range p.Msgs {
		if err := read(p.Msgs[k], nil); err != nil {
			return nil, nil, nil, checkErr(results.Failed, "decoding message %d into any: %v", k+1, err)
		}
		if err := check(k); err != nil {
			return nil, nil, nil, err
		}
	}
	seen := p.seenOf(results.DecodeAny)
	seen.note = func(res *results.Result) {
		res.SelfTimed = false
		res.Numbers, res.Maps = types.numbers(), types.maps()
		res.Via = "numbers: " + orNone(res.Numbers) + "; maps: " + orNone(res.Maps)
		if asFloats {
			res.Via += " (checked as float64: an integer beyond 2^53 rounds)"
		}
		if goNames {
			res.Via += "; keys: Go field names"
		}
	}
	verify := func(k int, _ []byte) error {
		if err := check(k); err != nil {
			return err
		}
		t0 := p.now()
		err := read(p.Msgs[k], nil)
		seen.times = append(seen.times, p.now().Sub(t0))
		if err != nil {
			return checkErr(results.Failed, "decoding message %d into any: %v", k+1, err)
		}
		return check(k)
	}
	seen.unseen = func(msg []byte, ref any) (time.Duration, error) {
		want, err := genericForm(ref)
		if err != nil {
			return 0, checkErr(results.Error, "the generic form of a build it never saw: %v", err)
		}
		t0 := p.now()
		err = read(msg, nil)
		d := p.now().Sub(t0)
		if err != nil {
			return d, checkErr(results.Failed, "decoding a build it never saw into any: %v", err)
		}
		return d, checkAny(-1, ref, want, "a build it never saw")
	}
	ctl := newControl(len(p.Msgs), o.seed, o.now, verify)
	return readLoop(read, p.Msgs, nil, ctl), ctl, nil, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// genericForm returns v's generic form: v through encoding/json into any,
// numbers as json.Number, then normalised (generic).
func genericForm(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return generic(out), nil
}

// generic normalises a generic value so that two libraries' forms of one
// value compare equal: maps become map[string]any (keys written with
// fmt), lists []any, numbers int64 when integral and within its range,
// uint64 above it, float64 otherwise; strings that are RFC 3339 times and
// time.Time values become time.Time (compared modulo the codec's time
// losses); []byte becomes its standard base64, as JSON writes it.
func generic(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		if t, ok := rfc3339(x); ok {
			return t
		}
		return x
	case json.Number:
		return number(string(x))
	case bool:
		return x
	case time.Time:
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = generic(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = generic(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := rv.Uint(); u > math.MaxInt64 {
			return u
		} else {
			return int64(u)
		}
	case reflect.Float32, reflect.Float64:
		return float(rv.Float())
	case reflect.String:
		return generic(rv.String())
	case reflect.Map:
		out := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			out[fmt.Sprint(it.Key().Interface())] = generic(it.Value().Interface())
		}
		return out
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = generic(rv.Index(i).Interface())
		}
		return out
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return generic(rv.Elem().Interface())
	}
	return v
}

// byGoName returns v's generic form with structs as maps keyed by their
// Go field names (promoted fields as their own), the form of a library
// that ignores JSON tags; generic normalises the rest.
func byGoName(v reflect.Value) any {
	if t, ok := v.Interface().(time.Time); ok {
		return t
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return byGoName(v.Elem())
	case reflect.Struct:
		out := map[string]any{}
		for _, f := range fields(v.Type()) {
			out[f.Name] = byGoName(v.FieldByIndex(f.Index))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := map[string]any{}
		for it := v.MapRange(); it.Next(); {
			out[fmt.Sprint(it.Key().Interface())] = byGoName(it.Value())
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Bytes()
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = byGoName(v.Index(i))
		}
		return out
	}
	return v.Interface()
}

// floats turns every number of a normalised generic value into a
// float64.
func floats(v any) any {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = floats(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = floats(e)
		}
		return out
	}
	return v
}

// number normalises a number written in decimal.
func number(s string) any {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u
	}
	f, _ := strconv.ParseFloat(s, 64)
	return float(f)
}

// float normalises a float: an integral one within int64's range as an
// int64.
func float(f float64) any {
	if f == math.Trunc(f) && math.Abs(f) < 1<<63 && !(f == 0 && math.Signbit(f)) {
		return int64(f)
	}
	return f
}

// shortestRFC3339 is the length of the shortest RFC 3339 time: a date,
// "T", a time to the second and "Z".
const shortestRFC3339 = len("yyyy-mm-ddThh:mm:ssZ")

// rfc3339 parses s as an RFC 3339 time, as encoding/json writes one.
func rfc3339(s string) (time.Time, bool) {
	if len(s) < shortestRFC3339 || s[4] != '-' || s[10] != 'T' {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// A typeSet collects the Go types a library's generic values use for
// numbers and maps.
type typeSet struct{ nums, mapTypes map[string]bool }

func newTypeSet() *typeSet { return &typeSet{nums: map[string]bool{}, mapTypes: map[string]bool{}} }

// add records the types in v, a library's generic value.
func (s *typeSet) add(v any) {
	if v == nil {
		return
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		s.nums[rv.Type().String()] = true
	case reflect.String:
		if _, ok := v.(json.Number); ok {
			s.nums["json.Number"] = true
		}
	case reflect.Map:
		s.mapTypes[rv.Type().String()] = true
		for it := rv.MapRange(); it.Next(); {
			s.add(it.Value().Interface())
		}
	case reflect.Slice, reflect.Array:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range rv.Len() {
			s.add(rv.Index(i).Interface())
		}
	case reflect.Pointer, reflect.Interface:
		if !rv.IsNil() {
			s.add(rv.Elem().Interface())
		}
	}
}

func (s *typeSet) numbers() string { return joinKeys(s.nums) }
func (s *typeSet) maps() string    { return joinKeys(s.mapTypes) }

func joinKeys(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, " ")
}
