package codec_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
)

type point struct {
	X, Y int
	Tag  string
}

// roundTrip prepares v, encodes it, decodes the encoding three times (the
// timed loop reuses the Case) and checks each result against v.
func roundTrip(t *testing.T, c codec.Codec, v any) []byte {
	t.Helper()
	cs, err := c.Prepare(v)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	var first []byte
	for i := range 3 {
		data, err := cs.Encode()
		if err != nil {
			t.Fatalf("Encode #%d: %v", i+1, err)
		}
		if i == 0 {
			first = append([]byte(nil), data...)
		} else if string(data) != string(first) {
			t.Fatalf("Encode #%d = %q, first gave %q", i+1, data, first)
		}
		if err := cs.Decode(data); err != nil {
			t.Fatalf("Decode #%d: %v", i+1, err)
		}
		got, err := cs.Value()
		if err != nil {
			t.Fatalf("Value: %v", err)
		}
		if !reflect.DeepEqual(got, v) {
			t.Fatalf("round trip #%d: got %#v, want %#v", i+1, got, v)
		}
	}
	return first
}

func newJSONEncoder(w io.Writer) codec.Encoder { return json.NewEncoder(w) }
func newJSONDecoder(r io.Reader) codec.Decoder { return json.NewDecoder(r) }

func TestStream(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    codec.Codec
	}{
		{"decoder", codec.Stream(newJSONEncoder, newJSONDecoder, nil)},
		{"unmarshal", codec.Stream(newJSONEncoder, nil, json.Unmarshal)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := roundTrip(t, tc.c, &[]point{{1, 2, "a"}, {3, 4, "b"}})
			if want := `[{"X":1,"Y":2,"Tag":"a"},{"X":3,"Y":4,"Tag":"b"}]` + "\n"; string(data) != want {
				t.Errorf("encoding = %q, want %q", data, want)
			}
		})
	}
}

func TestReflectAppend(t *testing.T) {
	appendJSON := func(dst []byte, v any) ([]byte, error) {
		b, err := json.Marshal(v)
		return append(dst, b...), err
	}
	data := roundTrip(t, codec.ReflectAppend(appendJSON, json.Unmarshal), &point{5, 6, "c"})
	if want := `{"X":5,"Y":6,"Tag":"c"}`; string(data) != want {
		t.Errorf("encoding = %q, want %q", data, want)
	}
}

func TestDocument(t *testing.T) {
	c := codec.Document("json", "items", json.Marshal, json.Unmarshal)
	for _, tc := range []struct {
		v    any
		want string
	}{
		{&point{1, 2, "a"}, `{"X":1,"Y":2,"Tag":"a"}`},
		{&map[string]int{"a": 1}, `{"a":1}`},
		{&[]*point{{1, 2, "a"}}, `{"items":[{"X":1,"Y":2,"Tag":"a"}]}`},
		{ptr(int64(23422)), `{"items":23422}`},
	} {
		if data := roundTrip(t, c, tc.v); string(data) != tc.want {
			t.Errorf("%T: encoding = %s, want %s", tc.v, data, tc.want)
		}
	}
}

func TestRefuse(t *testing.T) {
	type big struct {
		N    uint64
		Tags map[string][]uint
	}
	c := codec.SignedInts("JSON", codec.Reflect(json.Marshal, json.Unmarshal))
	roundTrip(t, c, &big{N: math.MaxInt64, Tags: map[string][]uint{"a": {1}}})
	roundTrip(t, c, &point{1, 2, "a"}) // no unsigned field: not walked

	for _, v := range []any{
		&big{N: math.MaxInt64 + 1},
		&big{Tags: map[string][]uint{"a": {1, math.MaxUint64}}},
		&[]*big{nil, {N: math.MaxUint64}},
	} {
		_, err := c.Prepare(v)
		if !codec.IsUnsupported(err) || !strings.Contains(err.Error(), "signed 64-bit") {
			t.Errorf("Prepare(%T) error = %v, want an UnsupportedError about signed integers", v, err)
		}
	}

	tabs := codec.Refuse(codec.Reflect(json.Marshal, json.Unmarshal), []reflect.Kind{reflect.String},
		func(v reflect.Value) string {
			if strings.Contains(v.String(), "\t") {
				return "tab"
			}
			return ""
		})
	roundTrip(t, tabs, &point{Tag: "no tab"})
	if _, err := tabs.Prepare(&map[string]point{"k\t": {}}); !codec.IsUnsupported(err) {
		t.Errorf("a tab in a map key: error = %v, want an UnsupportedError", err)
	}
}

func ptr[T any](v T) *T { return &v }

func ExampleStream() {
	c := codec.Stream(newJSONEncoder, newJSONDecoder, nil)
	cs, _ := c.Prepare(&point{1, 2, "a"})
	data, _ := cs.Encode()
	fmt.Printf("%s", data)
	// Output: {"X":1,"Y":2,"Tag":"a"}
}
