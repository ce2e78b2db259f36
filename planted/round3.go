package planted

import (
	"encoding/json"
	"io"
	"reflect"

	"github.com/serbench/serbench/codec"
)

// The round-three evaders cheat where the checks of issue 41's first
// sessions did not look: the stream ops had no calls on builds the codec
// never saw, an encode declared ReusesBuffer was not held to its unseen
// calls, and ValueConverts was believed.

// The names of the round-three evaders.
const (
	StreamMemo    = "planted-stream-memo"
	ReplayReuse   = "planted-replay-reuse"
	DeferConverts = "planted-defer-converts"
)

// RoundThree lists the planted codecs that cheat where the checks of
// issue 41's first sessions did not look.
var RoundThree = []codec.Info{
	withNew(info(StreamMemo, "stream memo of what the timed loop sees",
		"planted fault: a Streamer whose Encoder keeps every message it wrote keyed by the value's address and writes the kept bytes for a value it wrote before, "+
			"and whose Decoder keeps every value it decoded keyed by the message's text and hands a copy of it back for a message it read before; its Cases are honest json",
		nil), newStreamMemo),
	reusesBuffer(info(ReplayReuse, "replays its first encoding, declares ReusesBuffer",
		"planted fault: declares ReusesBuffer (so that its first Encode on a case, which grows the buffer, is not held to the timed figure); each case's first Encode is honest, every later one copies that first encoding into the buffer it keeps",
		func(v any) (codec.Case, error) { return newCase(v, &replayCase{}) })),
	valueConverts(info(DeferConverts, "defers its decoding to Value, declares ValueConverts",
		"planted fault: declares ValueConverts (so that Value, off the timed loop's clock, is believed to convert); Decode keeps a reference to its input and Value decodes it",
		func(v any) (codec.Case, error) { return newCase(v, &deferConvertsCase{}) })),
}

// WeaknessThree maps each round-three evader to the point of serbench's
// issue 41 (second round) it exploits: 1 the stream ops' unseen calls, 2
// ReusesBuffer's, 3 ValueConverts believed.
var WeaknessThree = map[string]int{StreamMemo: 1, ReplayReuse: 2, DeferConverts: 3}

func reusesBuffer(i codec.Info) codec.Info { i.ReusesBuffer = true; return i }

// valueConverts declares ValueConverts, with an API that may (a
// reflection codec may not: codec.Info.Validate).
func valueConverts(i codec.Info) codec.Info {
	i.ValueConverts, i.API = true, codec.Codegen
	return i
}

// deferConvertsCase keeps a reference to Decode's input; Value decodes
// it.
type deferConvertsCase struct {
	jsonCase
	pending []byte
}

func (c *deferConvertsCase) Encode() ([]byte, error) { return c.marshal() }

func (c *deferConvertsCase) Decode(data []byte) error { c.pending = data; return nil }

func (c *deferConvertsCase) Value() (any, error) {
	out, err := c.unmarshal(c.pending)
	if err != nil {
		return nil, err
	}
	c.out = out
	return out, nil
}

// newStreamMemo returns planted-stream-memo: honest json Cases, and a
// stream whose two ends keep memos shared by every Encoder and Decoder
// of the codec.
func newStreamMemo() codec.Codec {
	written := map[any][]byte{}
	read := map[string]reflect.Value{}
	cases := codec.Func(func(v any) (codec.Case, error) { return newCase(v, &honestCase{}) })
	return codec.WithStream(cases,
		func(w io.Writer) codec.Encoder { return &memoEncoder{w: w, memo: written} },
		func(r io.Reader) codec.Decoder { return &memoDecoder{dec: json.NewDecoder(r), memo: read} })
}

// honestCase is plain json.
type honestCase struct{ jsonCase }

func (c *honestCase) Encode() ([]byte, error) { return c.marshal() }

func (c *honestCase) Decode(data []byte) error {
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

// memoEncoder writes json lines; a value it (or another of the codec's
// Encoders) wrote before, by address, is written from the memo.
type memoEncoder struct {
	w    io.Writer
	memo map[any][]byte
}

func (e *memoEncoder) Encode(v any) error {
	b, ok := e.memo[v]
	if !ok {
		enc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b = append(enc, '\n')
		e.memo[v] = b
	}
	_, err := e.w.Write(b)
	return err
}

// memoDecoder reads each message's text; a text it (or another of the
// codec's Decoders) decoded before is handed back as a copy of the kept
// value.
type memoDecoder struct {
	dec  *json.Decoder
	memo map[string]reflect.Value
	raw  json.RawMessage
}

func (d *memoDecoder) Decode(v any) error {
	if err := d.dec.Decode(&d.raw); err != nil {
		return err
	}
	out := reflect.ValueOf(v).Elem()
	if kept, ok := d.memo[string(d.raw)]; ok {
		out.Set(kept)
		return nil
	}
	if err := json.Unmarshal(d.raw, v); err != nil {
		return err
	}
	d.memo[string(d.raw)] = reflect.ValueOf(v).Elem()
	return nil
}
