package codec_test

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/serbench/serbench/codec"
)

// TestStreamer checks that Stream with a Decoder, and WithStream, give a
// codec.Streamer whose two ends carry values through one stream, and
// that Stream without a Decoder does not claim to be one.
func TestStreamer(t *testing.T) {
	enc := func(w io.Writer) codec.Encoder { return json.NewEncoder(w) }
	dec := func(r io.Reader) codec.Decoder { return json.NewDecoder(r) }
	for name, c := range map[string]codec.Codec{
		"Stream":     codec.Stream(enc, dec, nil),
		"WithStream": codec.WithStream(codec.Reflect(json.Marshal, json.Unmarshal), enc, dec),
	} {
		s, ok := c.(codec.Streamer)
		if !ok {
			t.Fatalf("%s: %T is not a codec.Streamer", name, c)
		}
		var buf bytes.Buffer
		e := s.NewEncoder(&buf)
		for _, v := range []int{1, 2, 3} {
			if err := e.Encode(&v); err != nil {
				t.Fatal(err)
			}
		}
		d := s.NewDecoder(&buf)
		for _, want := range []int{1, 2, 3} {
			var got int
			if err := d.Decode(&got); err != nil || got != want {
				t.Errorf("%s: decoded %d (%v), want %d", name, got, err, want)
			}
		}
		if _, err := c.Prepare(new(int)); err != nil {
			t.Errorf("%s: Prepare: %v", name, err)
		}
	}
	if _, ok := codec.Stream(enc, nil, json.Unmarshal).(codec.Streamer); ok {
		t.Error("Stream without a Decoder is a codec.Streamer")
	}
}

// TestStreamRefuser checks that WithStreamRefusing says why its stream
// cannot carry a value, and WithStream never does.
func TestStreamRefuser(t *testing.T) {
	enc := func(w io.Writer) codec.Encoder { return json.NewEncoder(w) }
	dec := func(r io.Reader) codec.Decoder { return json.NewDecoder(r) }
	c := codec.Reflect(json.Marshal, json.Unmarshal)
	ints := func(v any) string {
		if _, ok := v.(*int); ok {
			return "no ints"
		}
		return ""
	}
	r := codec.WithStreamRefusing(c, enc, dec, ints).(codec.StreamRefuser)
	if got := r.StreamRefuses(new(int)); got != "no ints" {
		t.Errorf("StreamRefuses(*int) = %q", got)
	}
	if got := r.StreamRefuses(new(string)); got != "" {
		t.Errorf("StreamRefuses(*string) = %q", got)
	}
	if got := codec.WithStream(c, enc, dec).(codec.StreamRefuser).StreamRefuses(new(int)); got != "" {
		t.Errorf("WithStream refuses: %q", got)
	}
}
