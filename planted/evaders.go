package planted

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"sync"
	"unsafe"

	"github.com/serbench/serbench/codec"
)

// The evaders are planted codecs that cheat where the harness once could
// not see: each exploits one weakness of an older runner (issue 31) and
// must now be caught or flagged, never ranked.

// memoContentCase keeps the last two decoded values, keyed by the input's
// content (a copy and a compare): decoding a message seen just before
// hands back the cached value.
type memoContentCase struct {
	jsonCase
	keys [2][]byte
	vals [2]any
	next int
}

func (c *memoContentCase) Encode() ([]byte, error) { return c.marshal() }

func (c *memoContentCase) Decode(data []byte) error {
	for i, k := range c.keys {
		if k != nil && bytes.Equal(k, data) {
			c.out = c.vals[i]
			return nil
		}
	}
	out, err := c.unmarshal(data)
	if err != nil {
		return err
	}
	c.keys[c.next] = append(c.keys[c.next][:0], data...)
	c.vals[c.next] = out
	c.next ^= 1
	c.out = out
	return nil
}

// tellCase tells the timed loop from the checks: a Decode that follows
// another Decode with no Encode or Value between, from the third in a row
// on, does nothing, as only a timed loop calls it so.
type tellCase struct {
	jsonCase
	run int // Decodes in a row with no Encode or Value between
}

func (c *tellCase) Encode() ([]byte, error) { c.run = 0; return c.marshal() }

func (c *tellCase) Decode(data []byte) error {
	if c.run++; c.run > 2 {
		return nil
	}
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

func (c *tellCase) Value() (any, error) { c.run = 0; return c.out, nil }

// lazyValueCase copies the input in Decode and decodes it in Value, which
// the timed loop does not call.
type lazyValueCase struct {
	jsonCase
	data []byte
}

func (c *lazyValueCase) Encode() ([]byte, error) { return c.marshal() }

func (c *lazyValueCase) Decode(data []byte) error {
	c.data = append(c.data[:0], data...)
	return nil
}

func (c *lazyValueCase) Value() (any, error) { return c.unmarshal(c.data) }

// shortLoopCase is honest json whose own timed loops (codec.Looper) run a
// thousandth of the iterations asked for.
type shortLoopCase struct{ jsonCase }

func (c *shortLoopCase) Encode() ([]byte, error) { return c.marshal() }

func (c *shortLoopCase) Decode(data []byte) error {
	var err error
	c.out, err = c.unmarshal(data)
	return err
}

func (c *shortLoopCase) EncodeLoop(n int) (b []byte, err error) {
	for range n/1000 + 1 {
		if b, err = c.marshal(); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (c *shortLoopCase) DecodeLoop(n int, msgs [][]byte, order []int) error {
	for i := n - 1 - n/1000; i < n; i++ { // the last thousandth: the last decode is right
		if err := c.Decode(msgs[order[i%len(order)]]); err != nil {
			return err
		}
	}
	return nil
}

// gzipLoopCase encodes json compressed with gzip (at BestSpeed, with one
// writer per codec, reset for each message); its own encode loop
// (codec.Looper) makes n-1 plain json encodings and compresses only the
// last, so that it is timed as plain json and sized as gzip.
type gzipLoopCase struct {
	jsonCase
	z *gzipWriter
}

// A gzipWriter is a gzip writer and its buffer, shared by a codec's cases.
type gzipWriter struct {
	buf bytes.Buffer
	zw  *gzip.Writer
}

func newGzipLoop() codec.Codec {
	z := &gzipWriter{}
	z.zw, _ = gzip.NewWriterLevel(&z.buf, gzip.BestSpeed)
	return codec.Func(func(v any) (codec.Case, error) { return newCase(v, &gzipLoopCase{z: z}) })
}

func (c *gzipLoopCase) Encode() ([]byte, error) {
	plain, err := c.marshal()
	if err != nil {
		return nil, err
	}
	c.z.buf.Reset()
	c.z.zw.Reset(&c.z.buf)
	c.z.zw.Write(plain)
	if err := c.z.zw.Close(); err != nil {
		return nil, err
	}
	return c.z.buf.Bytes(), nil
}

func (c *gzipLoopCase) Decode(data []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		return err
	}
	c.out, err = c.unmarshal(plain)
	return err
}

func (c *gzipLoopCase) EncodeLoop(n int) ([]byte, error) {
	for range n - 1 {
		if _, err := c.marshal(); err != nil {
			return nil, err
		}
	}
	return c.Encode()
}

func (c *gzipLoopCase) DecodeLoop(n int, msgs [][]byte, order []int) error {
	for i := range n {
		if err := c.Decode(msgs[order[i%len(order)]]); err != nil {
			return err
		}
	}
	return nil
}

// handles holds, for the whole process, the json of every value a handle
// case was prepared with: its encoding is the value's index here.
var handles struct {
	sync.Mutex
	json [][]byte
}

// handleCase encodes a value as an 8-byte handle to its json kept in the
// process's memory, and decodes a handle by looking it up.
type handleCase struct {
	jsonCase
	handle [8]byte
}

func prepareHandle(v any) (codec.Case, error) {
	c := &handleCase{}
	if err := c.init(v); err != nil {
		return nil, err
	}
	enc, err := c.marshal()
	if err != nil {
		return nil, err
	}
	handles.Lock()
	binary.LittleEndian.PutUint64(c.handle[:], uint64(len(handles.json)))
	handles.json = append(handles.json, enc)
	handles.Unlock()
	return c, nil
}

func (c *handleCase) Encode() ([]byte, error) { return c.handle[:], nil }

func (c *handleCase) Decode(data []byte) error {
	if len(data) != 8 {
		return errors.New("planted-handle: a handle is 8 bytes")
	}
	h := binary.LittleEndian.Uint64(data)
	handles.Lock()
	var enc []byte
	if h < uint64(len(handles.json)) {
		enc = handles.json[h]
	}
	handles.Unlock()
	if enc == nil {
		return errors.New("planted-handle: no value under this handle in this process")
	}
	var err error
	c.out, err = c.unmarshal(enc)
	return err
}

// rewriteCase decodes a message once, then rewrites it in the caller's
// buffer as a marker and the index of the decoded value, which later
// decodes of the same buffer hand back.
type rewriteCase struct {
	jsonCase
	memo []any
}

// rewritten marks a buffer rewriteCase has rewritten.
const rewritten = 0xFF

func (c *rewriteCase) Encode() ([]byte, error) { return c.marshal() }

func (c *rewriteCase) Decode(data []byte) error {
	if len(data) >= 9 && data[0] == rewritten {
		if i := binary.LittleEndian.Uint64(data[1:9]); i < uint64(len(c.memo)) {
			c.out = c.memo[i]
			return nil
		}
	}
	out, err := c.unmarshal(data)
	if err != nil {
		return err
	}
	c.out = out
	if len(data) >= 9 {
		data[0] = rewritten
		binary.LittleEndian.PutUint64(data[1:9], uint64(len(c.memo)))
		c.memo = append(c.memo, out)
	}
	return nil
}

// largeLossCase corrupts every LargeLossEvery-th decode of a message over
// LargeLossBytes: the round trips the older runner made of large messages
// within its budget rarely reached one.
type largeLossCase struct {
	jsonCase
	calls int
}

// LargeLossEvery and LargeLossBytes: planted-large-loss corrupts every
// LargeLossEvery-th decode of a message over LargeLossBytes.
const (
	LargeLossEvery = 50
	LargeLossBytes = 4 << 10
)

func (c *largeLossCase) Encode() ([]byte, error) { return c.marshal() }

func (c *largeLossCase) Decode(data []byte) error {
	var err error
	c.out, err = c.unmarshal(data)
	if len(data) > LargeLossBytes {
		if c.calls++; err == nil && c.calls%LargeLossEvery == 0 {
			corrupt(c.out)
		}
	}
	return err
}

// aliasCase decodes strings that point into the input, without declaring
// it (codec.Info.Aliases): json decodes, then every string of the value
// that occurs in the input is made to point there.
type aliasCase struct{ jsonCase }

func (c *aliasCase) Encode() ([]byte, error) { return c.marshal() }

func (c *aliasCase) Decode(data []byte) error {
	out, err := c.unmarshal(data)
	if err != nil {
		return err
	}
	aliasStrings(reflect.ValueOf(out).Elem(), data)
	c.out = out
	return nil
}

// aliasStrings points every settable string in v that occurs in data at
// its occurrence there.
func aliasStrings(v reflect.Value, data []byte) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); s != "" && v.CanSet() {
			if i := bytes.Index(data, []byte(s)); i >= 0 {
				v.SetString(unsafe.String(&data[i], len(s)))
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			aliasStrings(v.Field(i), data)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			aliasStrings(v.Index(i), data)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			aliasStrings(v.Elem(), data)
		}
	}
}

// reuseCase decodes every message into one target, without declaring it
// (codec.Info.ReusesTarget): a decoded value changes with the next decode.
type reuseCase struct{ jsonCase }

func (c *reuseCase) Encode() ([]byte, error) { return c.marshal() }

func (c *reuseCase) Decode(data []byte) error {
	if c.out == nil {
		c.out = reflect.New(c.elem).Interface()
	}
	reflect.ValueOf(c.out).Elem().SetZero()
	return json.Unmarshal(data, c.out)
}
