package codec_test

import (
	"encoding/json"
	"io"
	"reflect"
	"testing"

	"github.com/serbench/serbench/codec"
)

// TestDecodeInto decodes into a target that already holds data through
// each helper: what the library leaves of it shows (encoding/json keeps
// the old keys of a map and overwrites the fields it reads).
func TestDecodeInto(t *testing.T) {
	type doc struct {
		A int
		M map[string]int
	}
	newDecoder := func(r io.Reader) codec.Decoder { return json.NewDecoder(r) }
	newEncoder := func(w io.Writer) codec.Encoder { return json.NewEncoder(w) }
	for name, c := range map[string]codec.Codec{
		"Reflect":       codec.Reflect(json.Marshal, json.Unmarshal),
		"Stream":        codec.Stream(newEncoder, newDecoder, json.Unmarshal),
		"ReflectAppend": codec.ReflectAppend(func(dst []byte, v any) ([]byte, error) { b, err := json.Marshal(v); return append(dst, b...), err }, json.Unmarshal),
		"Document":      codec.Document("json", "items", json.Marshal, json.Unmarshal),
	} {
		t.Run(name, func(t *testing.T) {
			cs, err := c.Prepare(&doc{A: 1, M: map[string]int{"a": 1}})
			if err != nil {
				t.Fatal(err)
			}
			data, err := cs.Encode()
			if err != nil {
				t.Fatal(err)
			}
			into, ok := cs.(codec.Into)
			if !ok {
				t.Fatalf("%T is not a codec.Into", cs)
			}
			target := &doc{A: 9, M: map[string]int{"z": 26}}
			if err := into.DecodeInto(data, target); err != nil {
				t.Fatal(err)
			}
			if want := (&doc{A: 1, M: map[string]int{"a": 1, "z": 26}}); !reflect.DeepEqual(target, want) {
				t.Errorf("DecodeInto gave %+v, want %+v", target, want)
			}
		})
	}
	// A Document wraps a slice: the target's slice goes in and comes out.
	cs, err := codec.Document("json", "items", json.Marshal, json.Unmarshal).Prepare(&[]int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := cs.Encode()
	target := []int{7, 8, 9}
	if err := cs.(codec.Into).DecodeInto(data, &target); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(target, []int{1, 2}) {
		t.Errorf("DecodeInto a slice gave %v, want [1 2]", target)
	}
}
