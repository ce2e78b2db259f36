package runner

import (
	"bufio"
	"context"
	"encoding/binary"
	encjson "encoding/json"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
)

// A wordStream writes int64s as 8-byte words; its Decoder is made by
// newDec, so that each test bends one side.
type wordEncoder struct {
	w   io.Writer
	lie func() bool // writes the value plus one when it says so
}

func (e wordEncoder) Encode(v any) error {
	x := *v.(*int64)
	if e.lie != nil && e.lie() {
		x++
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(x))
	_, err := e.w.Write(b[:])
	return err
}

// fullDecoder reads each word with io.ReadFull through a bufio.Reader:
// it holds one buffer, whatever the stream's length.
type fullDecoder struct{ r *bufio.Reader }

func (d fullDecoder) Decode(v any) error {
	var b [8]byte
	if _, err := io.ReadFull(d.r, b[:]); err != nil {
		return err
	}
	*v.(*int64) = int64(binary.LittleEndian.Uint64(b[:]))
	return nil
}

// hoardDecoder keeps every byte it reads: it does not truly stream.
type hoardDecoder struct {
	r    io.Reader
	kept *[]byte
}

func (d hoardDecoder) Decode(v any) error {
	var b [8]byte
	if _, err := io.ReadFull(d.r, b[:]); err != nil {
		return err
	}
	*d.kept = append(*d.kept, b[:]...)
	*v.(*int64) = int64(binary.LittleEndian.Uint64(b[:]))
	return nil
}

// shortDecoder calls Read once per message and takes what it gets for
// the whole word: wrong through a reader that returns fewer bytes.
type shortDecoder struct{ r io.Reader }

func (d shortDecoder) Decode(v any) error {
	var b [8]byte
	if _, err := d.r.Read(b[:]); err != nil {
		return err
	}
	*v.(*int64) = int64(binary.LittleEndian.Uint64(b[:]))
	return nil
}

// wordInfo returns a codec of int64s whose Case is encoding/json's and
// whose Streamer writes words with lie and reads them with newDec.
func wordInfo(name string, lie func() bool, newDec func(io.Reader) codec.Decoder) codec.Info {
	return codec.Info{Name: name, Family: "test", API: codec.Manual,
		New: func() codec.Codec {
			return codec.WithStream(codec.Reflect(encjson.Marshal, encjson.Unmarshal),
				func(w io.Writer) codec.Encoder { return wordEncoder{w: w, lie: lie} }, newDec)
		}}
}

func full(r io.Reader) codec.Decoder { return fullDecoder{bufio.NewReader(r)} }

// TestStreamOps runs both stream ops on codecs that stream honestly,
// hoard what they read, take a short read for a whole message, or write
// a wrong message once timing has begun, and a codec with no streaming
// API: each ends as its own status says, with the figures of a measured
// stream.
func TestStreamOps(t *testing.T) {
	defer func(n int) { streamCheckLen = n }(streamCheckLen)
	streamCheckLen = 20000 // 160 KB of words: a hoard passes StreamLimit
	// The liar writes the stream checked before timing honestly, then its
	// first timed message, and lies on every message after: every sample
	// verifies one timed iteration at least, so the lie is caught by
	// count, however few messages the budget lets the machine write.
	var written atomic.Int64
	lateLie := func() bool { return written.Add(1) > StreamMessages+1 }
	tests := []struct {
		name   string
		info   codec.Info
		op     results.Op
		status results.Status
		reason string
		truly  string // "yes" or "no" for a measured decode
	}{
		{"honest encode", wordInfo("words", nil, full), results.StreamEncode, results.OK, "", ""},
		{"honest decode", wordInfo("words", nil, full), results.StreamDecode, results.OK, "", "yes"},
		{"hoarding decode", wordInfo("hoard", nil, func(r io.Reader) codec.Decoder { return hoardDecoder{r, new([]byte)} }),
			results.StreamDecode, results.OK, "", "no"},
		{"short reads", wordInfo("short", nil, func(r io.Reader) codec.Decoder { return shortDecoder{r} }),
			results.StreamDecode, results.Failed, "one byte per Read", ""},
		{"lies once timed", wordInfo("liar", lateLie, full), results.StreamEncode, results.Failed, "stream message", ""},
		{"no streaming API", codec.Info{Name: "plain", Family: "test", API: codec.Reflection,
			New: func() codec.Codec { return codec.Reflect(encjson.Marshal, encjson.Unmarshal) }},
			results.StreamDecode, results.Skipped, "no streaming API", ""},
	}
	r, err := New(Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The stream check stops at streamCheckTime on the runner's clock,
	// which runs here at a twentieth of the wall's: a loaded machine reads
	// the whole long stream before it, as a quiet one does.
	start := time.Now()
	r.now = func() time.Time { return start.Add(time.Since(start) / 20) }
	d, _ := dataset.Lookup("int64")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			written.Store(0)
			job := Job{Codec: tt.info, Dataset: d.Name, Shape: "single", Ops: []results.Op{tt.op},
				ValueAt: func(k int) (any, error) { return d.ValueAt(dataset.Single, k) }}
			res := r.RunJob(context.Background(), &job)
			if len(res) != 1 {
				t.Fatalf("got %d results, want 1", len(res))
			}
			got := res[0]
			if got.Status != tt.status || !strings.Contains(got.Reason, tt.reason) {
				t.Fatalf("status %s, reason %q; want %s with %q", got.Status, got.Reason, tt.status, tt.reason)
			}
			if got.Status != results.OK {
				return
			}
			if got.StreamBytes != 8 || got.MBPerSec() <= 0 {
				t.Errorf("stream bytes per message %v, %v MB/s; want 8 and a throughput", got.StreamBytes, got.MBPerSec())
			}
			if tt.truly == "" {
				if got.Streams != nil {
					t.Errorf("an encode carries a stream check: %+v", got.Streams)
				}
				return
			}
			sc := got.Streams
			if sc == nil || sc.Messages != streamCheckLen || sc.Bytes != int64(8*streamCheckLen) || sc.From <= 0 || sc.From >= sc.Messages {
				t.Fatalf("stream check %+v, want %d messages of 8 bytes, the heap first read within them", sc, streamCheckLen)
			}
			if truly := map[bool]string{true: "yes", false: "no"}[sc.Truly()]; truly != tt.truly {
				t.Errorf("truly streams: %s (heap grew %d bytes), want %s", truly, sc.HeapGrowth, tt.truly)
			}
		})
	}
}

// TestStreamLen checks a stream's length: StreamMessages small messages,
// fewer large ones within StreamBytes, and one message larger than that.
func TestStreamLen(t *testing.T) {
	for _, tt := range []struct{ size, want int }{
		{0, StreamMessages}, {8, StreamMessages}, {StreamBytes / 100, 100}, {StreamBytes, 1}, {4 * StreamBytes, 1},
	} {
		if got := streamLen(tt.size); got != tt.want {
			t.Errorf("streamLen(%d) = %d, want %d", tt.size, got, tt.want)
		}
	}
}

// TestRepeatReader checks the long stream's reader: first once, then
// next, n messages in all, whatever the size of the reads.
func TestRepeatReader(t *testing.T) {
	for _, chunk := range []int{1, 3, 64} {
		r := &repeatReader{first: []byte("ab"), next: []byte("xyz"), n: 3}
		var got []byte
		buf := make([]byte, chunk)
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if errors.Is(err, io.EOF) {
				break
			}
		}
		if string(got) != "abxyzxyz" {
			t.Errorf("reads of %d: %q, want %q", chunk, got, "abxyzxyz")
		}
	}
}

// A spyCase is a Case whose Decode calls spy first.
type spyCase struct {
	codec.Case
	spy func()
}

func (c spyCase) Decode(data []byte) error { c.spy(); return c.Case.Decode(data) }

// A spyDecoder is a Decoder whose Decode calls spy first.
type spyDecoder struct {
	codec.Decoder
	spy func()
}

func (d spyDecoder) Decode(v any) error { d.spy(); return d.Decoder.Decode(v) }

// TestVerifiedOutsideTimedSteps checks that the encode ops verify the
// iterations a sample draws at the sample's end: no decode that verifies
// an encoding runs while the runner's last beat says "timed", so a parent
// measuring the worker's time in its timed steps (package worker) holds
// the samples to the encodes alone. Verifying decodes, at several times
// an encode's cost, used to make honest figures read as scaled down.
func TestVerifiedOutsideTimedSteps(t *testing.T) {
	var step atomic.Value
	step.Store("")
	var inTimed, outside atomic.Int64
	spy := func() {
		if step.Load() == stepTimed {
			inTimed.Add(1)
		} else {
			outside.Add(1)
		}
	}
	info := codec.Info{Name: "spy", Family: "test", API: codec.Manual,
		New: func() codec.Codec {
			plain := codec.Reflect(encjson.Marshal, encjson.Unmarshal)
			spied := codec.Func(func(v any) (codec.Case, error) {
				c, err := plain.Prepare(v)
				if err != nil {
					return nil, err
				}
				return spyCase{c, spy}, nil
			})
			return codec.WithStream(spied, func(w io.Writer) codec.Encoder { return wordEncoder{w: w} },
				func(r io.Reader) codec.Decoder { return spyDecoder{full(r), spy} })
		}}
	r, err := New(Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := dataset.Lookup("int64")
	for _, op := range []results.Op{results.Encode, results.StreamEncode} {
		t.Run(string(op), func(t *testing.T) {
			inTimed.Store(0)
			outside.Store(0)
			r.Beat = func(_ *Job, _ results.Op, s string) { step.Store(s) }
			job := Job{Codec: info, Dataset: d.Name, Shape: "single", Ops: []results.Op{op},
				ValueAt: func(k int) (any, error) { return d.ValueAt(dataset.Single, k) }}
			res := r.RunJob(context.Background(), &job)
			if len(res) != 1 || res[0].Status != results.OK {
				t.Fatalf("got %+v, want one OK result", res)
			}
			if n := inTimed.Load(); n != 0 {
				t.Errorf("%d verifying decodes ran in a timed step", n)
			}
			if outside.Load() == 0 {
				t.Error("no verifying decode ran")
			}
		})
	}
}
