package cli

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestSampleJSONExact checks that a JSON document is measured as it is
// written: invalid UTF-8 is an error naming its line and column, not
// U+FFFD; an integer above 2^53 stays exact, as int64 or uint64; one
// beyond 64 bits is an error, not a rounded float.
func TestSampleJSONExact(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, doc string
		want      map[string]any // nil: an error
		err       string
	}{
		{"big.json", `{"a": 9007199254740993, "b": 18446744073709551615, "c": -9223372036854775808, "d": 1.5, "e": 1e3, "f": -0}`,
			map[string]any{"a": int64(9007199254740993), "b": uint64(math.MaxUint64), "c": int64(math.MinInt64), "d": 1.5, "e": 1000.0, "f": math.Copysign(0, -1)}, ""},
		{"huge.json", `{"a": 18446744073709551616}`, nil, "the integer 18446744073709551616 is beyond 64 bits"},
		{"latin1.json", "{\"a\": 1,\n \"b\": \"caf\xe9\"}", nil, "latin1.json:2:11: invalid UTF-8 (byte 0xe9)"},
		{"lines.jsonl", "{\"a\": 1}\n{\"a\": \"\xff\"}\n", nil, "lines.jsonl:2:8: invalid UTF-8 (byte 0xff)"},
		{"two.jsonl", "{\"a\": 1} {\"a\": 2}\n", nil, "two.jsonl:1:10: malformed JSON: invalid character '{' after top-level value"},
	} {
		path := filepath.Join(dir, tc.name)
		writeFile(t, path, []byte(tc.doc))
		s, err := loadSample(path)
		if tc.want == nil {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v; want an error saying %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := *s.value.(*map[string]any); !reflect.DeepEqual(got, tc.want) || math.Signbit(got["f"].(float64)) != true {
			t.Errorf("%s loaded as %#v; want %#v", tc.name, got, tc.want)
		}
	}
}

// TestWire checks that a generic value crosses from the worker unchanged:
// empty and nil lists, maps and bytes apart, times with their offsets,
// every integer.
func TestWire(t *testing.T) {
	zone := time.FixedZone("", 5*3600+1800)
	v := map[string]any{
		"nil": nil, "t": true, "f": false, "i": int64(math.MinInt64), "u": uint64(math.MaxUint64), "x": math.Inf(-1), "s": "é",
		"b": []byte{0, 1}, "b0": []byte{}, "bn": []byte(nil), "l0": []any{}, "ln": []any(nil), "m0": map[string]any{}, "mn": map[string]any(nil),
		"utc": time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC), "zoned": time.Date(2020, 1, 2, 3, 4, 5, 6, zone),
		"deep": []any{map[string]any{"k": []any{int64(1), "2", 3.5}}},
	}
	b, err := appendWire(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeWire(b)
	if err != nil {
		t.Fatal(err)
	}
	m := got.(map[string]any)
	for _, k := range []string{"utc", "zoned"} {
		w, g := v[k].(time.Time), m[k].(time.Time)
		_, wo := w.Zone()
		_, gotOff := g.Zone()
		if !w.Equal(g) || wo != gotOff {
			t.Errorf("%s: %v; want %v", k, g, w)
		}
		delete(v, k)
		delete(m, k)
	}
	if !reflect.DeepEqual(m, v) {
		t.Errorf("decoded %#v;\nwant %#v", m, v)
	}
	for n := range b {
		if _, err := decodeWire(b[:n]); err == nil {
			t.Errorf("a value cut to %d of its %d bytes decoded", n, len(b))
		}
	}
}
