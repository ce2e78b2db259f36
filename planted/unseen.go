package planted

import (
	"compress/gzip"
	"encoding/binary"
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
)

// The round-two evaders (issue 41) cheat where the runner of issue 31's
// round did not look: the checks after timing showed the codec nothing it
// had not seen, work deferred to Value was free, the builds were
// deterministic and the size was message 0's.

// The names of the round-two evaders.
const (
	Replay      = "planted-replay"
	MemoAddress = "planted-memo-address"
	Index       = "planted-index"
	DeferValue  = "planted-defer-value"
	SmallFirst  = "planted-small-first"
)

// RoundTwo lists the planted codecs that cheat where the runner of issue
// 31's round did not look; WeaknessTwo names the weakness of issue 41 each
// exploits.
var RoundTwo = []codec.Info{
	info(Replay, "replays its first encoding",
		"planted fault: each case's first Encode is honest; every later one copies that first encoding into a buffer of its own (a memcpy, so that no copy floor is beaten) and returns it",
		func(v any) (codec.Case, error) { return newCase(v, &replayCase{}) }),
	info(MemoAddress, "memo keyed by the input's address",
		"planted fault: Decode keeps every decoded value keyed by the input buffer's address and length; a buffer decoded before is copied (a memcpy, so that no copy floor is beaten) and its value handed back",
		func(v any) (codec.Case, error) { return newCase(v, &memoAddressCase{memo: map[memoKey]any{}}) }),
	info(Index, "encodes a build as its index",
		"planted fault: a value that is one of the first builds of a dataset's single value (dataset.ValueAt with a small index, as a deterministic pool's are) is encoded as a marker and that index, 3 bytes, and rebuilt from it in any process; any other value is json",
		prepareIndex),
	info(DeferValue, "defers decoding to Value in the timed loop",
		"planted fault: a Decode that follows another with no Value between (the timed loop's pattern) keeps the input and leaves the decoding to Value, which the loop does not call; any other Decode is honest",
		func(v any) (codec.Case, error) { return newCase(v, &deferCase{}) }),
	withNew(info(SmallFirst, "writes the first build small",
		"planted fault: the first case a codec prepares (a pool's build 0, whose size was the one reported) encodes gzipped json, every later case plain json; Decode takes either",
		nil), newSmallFirst),
}

// newSmallFirst returns a codec whose first case encodes gzipped json.
func newSmallFirst() codec.Codec {
	n := 0
	return codec.Func(func(v any) (codec.Case, error) {
		n++
		c := &smallFirstCase{gzipLoopCase: gzipLoopCase{z: &gzipWriter{}}, gzip: n == 1}
		c.z.zw, _ = gzip.NewWriterLevel(&c.z.buf, gzip.BestCompression)
		return newCase(v, c)
	})
}

// smallFirstCase is gzipLoopCase's encoding for the first case of a
// codec, plain json for the others; it decodes both.
type smallFirstCase struct {
	gzipLoopCase
	gzip bool
}

func (c *smallFirstCase) Encode() ([]byte, error) {
	if c.gzip {
		return c.gzipLoopCase.Encode()
	}
	return c.marshal()
}

func (c *smallFirstCase) Decode(data []byte) error {
	if len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b {
		return c.gzipLoopCase.Decode(data)
	}
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

// WeaknessTwo maps each round-two evader to the weakness of issue 41 it
// exploits.
var WeaknessTwo = map[string]int{
	Replay: 1, MemoAddress: 1, DeferValue: 2, Index: 3, SmallFirst: 4,
}

// replayCase encodes honestly once, then copies that first encoding into
// a buffer of its own on every later call.
type replayCase struct {
	jsonCase
	first, buf []byte
}

func (c *replayCase) Encode() ([]byte, error) {
	if c.first == nil {
		enc, err := c.marshal()
		if err != nil {
			return nil, err
		}
		c.first = enc
		return enc, nil
	}
	c.buf = append(c.buf[:0], c.first...)
	return c.buf, nil
}

func (c *replayCase) Decode(data []byte) error {
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

// A memoKey is an input buffer's address and length.
type memoKey struct {
	at  uintptr
	len int
}

// memoAddressCase hands back the value it decoded from a buffer at the
// same address before, after copying the buffer (the copy floor's cost).
type memoAddressCase struct {
	jsonCase
	memo    map[memoKey]any
	scratch []byte
}

func (c *memoAddressCase) Encode() ([]byte, error) { return c.marshal() }

func (c *memoAddressCase) Decode(data []byte) error {
	if len(data) == 0 {
		return errors.New("planted-memo-address: empty input")
	}
	k := memoKey{uintptr(unsafe.Pointer(&data[0])), len(data)}
	c.scratch = append(c.scratch[:0], data...)
	if v, ok := c.memo[k]; ok {
		c.out = v
		return nil
	}
	out, err := c.unmarshal(data)
	if err != nil {
		return err
	}
	c.memo[k] = out
	c.out = out
	return nil
}

// indexBuilds is how many of each dataset shape's first builds
// planted-index looks its value up among.
const indexBuilds = 64

// indexMarker starts an encoding that is a build's index.
const indexMarker = 0xFE

// indexCase encodes a value that is one of a dataset's first builds as
// its index, and decodes such an index by building it again.
type indexCase struct {
	jsonCase
	enc   []byte        // the index encoding, or nil
	build func(int) any // the dataset shape's builder, by index
}

func prepareIndex(v any) (codec.Case, error) {
	c := &indexCase{}
	if err := c.init(v); err != nil {
		return nil, err
	}
	for _, b := range buildersOf(reflect.TypeOf(v)) {
		for k := range indexBuilds {
			if reflect.DeepEqual(b(k), v) {
				c.enc = []byte{indexMarker, byte(k), byte(k >> 8)}
				c.build = b
				return c, nil
			}
		}
	}
	return c, nil
}

// builders holds, by type, the builders of the dataset shapes whose values
// have it (light datasets only), made once.
var builders struct {
	sync.Once
	of map[reflect.Type][]func(int) any
}

// buildersOf returns the builders of the dataset shapes whose values have
// type t.
func buildersOf(t reflect.Type) []func(int) any {
	builders.Do(func() {
		builders.of = map[reflect.Type][]func(int) any{}
		for _, d := range dataset.All {
			for _, s := range d.Shapes() {
				if d.XLSlices || d.Corpus != nil || s != dataset.Single {
					continue
				}
				if v0, err := d.ValueAt(s, 0); err == nil {
					t := reflect.TypeOf(v0)
					builders.of[t] = append(builders.of[t], func(k int) any { b, _ := d.ValueAt(s, k); return b })
				}
			}
		}
	})
	return builders.of[t]
}

func (c *indexCase) Encode() ([]byte, error) {
	if c.enc != nil {
		return c.enc, nil
	}
	return c.marshal()
}

func (c *indexCase) Decode(data []byte) error {
	if len(data) == 3 && data[0] == indexMarker {
		k := int(binary.LittleEndian.Uint16(data[1:]))
		b := c.build
		if b == nil {
			b = c.anyBuild()
		}
		if b == nil {
			return errors.New("planted-index: no builder for an index in this case")
		}
		c.out = b(k)
		return nil
	}
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

// anyBuild returns the builder of the first dataset shape whose values
// have the case's type: a case prepared on a value that is no early build
// (the fresh process's decoy) decodes an index all the same.
func (c *indexCase) anyBuild() func(int) any {
	if bs := buildersOf(reflect.TypeOf(c.v)); len(bs) > 0 {
		return bs[0]
	}
	return nil
}

// deferCase decodes honestly when a Decode follows an Encode or a Value
// (the checks' pattern); a Decode that follows another Decode (the timed
// loop's) keeps a reference to the input, and Value decodes it.
type deferCase struct {
	jsonCase
	afterDecode bool
	pending     []byte
}

func (c *deferCase) Encode() ([]byte, error) { c.afterDecode = false; return c.marshal() }

func (c *deferCase) Decode(data []byte) error {
	defer func() { c.afterDecode = true }()
	if c.afterDecode {
		c.pending = data
		return nil
	}
	c.pending = nil
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

func (c *deferCase) Value() (any, error) {
	c.afterDecode = false
	if c.pending != nil {
		out, err := c.unmarshal(c.pending)
		c.pending = nil
		if err != nil {
			return nil, err
		}
		c.out = out
	}
	return c.out, nil
}
