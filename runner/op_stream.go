package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"testing/iotest"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
)

// The stream ops time one message of a stream through a library's
// streaming API (codec.Streamer): stream-encode writes the pool's builds,
// in the control's order, through one Encoder into one io.Writer;
// stream-decode reads a stream of them back through one Decoder from an
// io.Reader, each into a fresh value. A stream holds up to StreamMessages
// messages and StreamBytes bytes (one message of a value larger than
// that); at its end the next begins, with a new Encoder or Decoder, as a
// new connection would, its cost spread over the stream's messages.
//
// Every timed iteration the control draws is verified on the spot: the
// decoded value against its build's reference, the message written by
// decoding the stream so far with a Decoder of the same library. Before
// timing, each op writes and reads back a whole stream, checking every
// message; the decode op also reads the stream's first slowReaderBytes
// through a reader that returns one byte at a time and through one that
// returns half of what is asked (testing/iotest), and decodes a long
// stream (StreamCheckMessages messages, or fewer: see streamCheckBytes)
// to see whether the Decoder holds what it has read
// (results.StreamCheck).
const (
	StreamMessages      = results.StreamMessages
	StreamBytes         = 16 << 20
	StreamCheckMessages = results.StreamCheckMessages
	// The long stream also stops at streamCheckBytes and after
	// streamCheckTime: a Decoder that holds what it reads holds more than
	// StreamLimit long before.
	streamCheckBytes = 64 << 20
	streamCheckTime  = 2 * time.Second
	// slowReaderBytes caps the part of the stream read through the slow
	// readers, and oneByteBytes the part read one byte per Read: a
	// Decoder that validates what it holds again after each Read takes
	// time quadratic in a message's size there (fxamacker/cbor on a
	// message of half a megabyte takes minutes).
	slowReaderBytes = 1 << 20
	oneByteBytes    = 64 << 10
)

// streamCheckLen is the long stream's length: StreamCheckMessages, less
// in tests.
var streamCheckLen = StreamCheckMessages

func init() {
	registerOp(results.StreamEncode, operation{build: buildStreamEncode, judge: judgeStream(results.StreamEncode)})
	registerOp(results.StreamDecode, operation{build: buildStreamDecode, judge: judgeStream(results.StreamDecode)})
}

// streamLen returns how many messages of size bytes a stream holds.
func streamLen(size int) int { return max(1, min(StreamMessages, StreamBytes/max(size, 1))) }

// streamFigures is what a stream op's build leaves for its result.
type streamFigures struct {
	bytesPerMsg float64
	check       *results.StreamCheck
}

// judgeStream records the stream's size per message (for MB/s) and the
// long stream's check. The round trips after timing are Encode's and
// Decode's, not the stream's: no check figure is set; the calls on
// builds the codec never saw are the stream's own (streamUnseen).
func judgeStream(op results.Op) func(*Prepared, *results.Result, func([]time.Duration) float64) string {
	return func(p *Prepared, res *results.Result, _ func([]time.Duration) float64) string {
		if f, ok := p.figures[op].(*streamFigures); ok {
			res.StreamBytes = f.bytesPerMsg
			res.Streams = f.check
		}
		return ""
	}
}

// streamOf returns the job's codec as a codec.Streamer, or a CheckError
// that skips the op, and a fresh value of each build of the pool, to hand
// to an Encoder (the references stay the runner's own).
func streamOf(p *Prepared, job *Job) (codec.Streamer, []any, error) {
	s, ok := p.codec.(codec.Streamer)
	if !ok {
		return nil, nil, checkErr(results.Skipped, "codec %s has no streaming API (codec.Streamer)", p.info.Name)
	}
	if r, ok := s.(codec.StreamRefuser); ok {
		v, err := job.builds()(0)
		if err != nil {
			return nil, nil, checkErr(results.Error, "building the value: %v", err)
		}
		if why := r.StreamRefuses(v); why != "" {
			return nil, nil, checkErr(results.Skipped, "codec %s's stream cannot carry %T: %s", p.info.Name, v, why)
		}
	}
	vals := make([]any, len(p.Msgs))
	for k := range vals {
		v, err := p.poolValue(k)
		if err != nil {
			return nil, nil, checkErr(results.Error, "building the value: %v", err)
		}
		vals[k] = v
	}
	return s, vals, nil
}

// closeEncoder ends a stream: an Encoder that is an io.Closer (one that
// buffers) is closed.
func closeEncoder(enc codec.Encoder) error {
	if c, ok := enc.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// writeStream writes the builds of vals in order into a new stream and
// returns it.
func (p *Prepared) writeStream(s codec.Streamer, vals []any, order []int) ([]byte, error) {
	var buf bytes.Buffer
	enc := s.NewEncoder(&buf)
	tick := p.now()
	for i, k := range order {
		p.tick(&tick)
		if err := enc.Encode(vals[k]); err != nil {
			return nil, checkErr(results.Error, "stream message %d: encode: %v", i+1, err)
		}
	}
	if err := closeEncoder(enc); err != nil {
		return nil, checkErr(results.Error, "closing the stream's Encoder: %v", err)
	}
	return buf.Bytes(), nil
}

// readStream decodes the messages of a stream from r, each into a fresh
// value, and compares message i with the reference of build order[i].
func (p *Prepared) readStream(s codec.Streamer, r io.Reader, order []int) error {
	dec := s.NewDecoder(r)
	elem := reflect.TypeOf(p.refs[0]).Elem()
	tick := p.now()
	for i, k := range order {
		p.tick(&tick)
		out := reflect.New(elem).Interface()
		if err := dec.Decode(out); err != nil {
			return checkErr(results.Failed, "stream message %d of %d: decode: %v", i+1, len(order), err)
		}
		if err := compared(p.equal(k, out), "stream message %d of %d", i+1, len(order)); err != nil {
			return err
		}
	}
	return nil
}

func buildStreamEncode(p *Prepared, o opInput) (loop, *control, loop, error) {
	s, vals, err := streamOf(p, o.job)
	if err != nil {
		return nil, nil, nil, err
	}
	w := &streamWriter{s: s, max: streamLen(len(p.Msgs[0]))}
	w.start()
	// One whole stream, written and read back before timing, gives the
	// stream's size per message.
	order := make([]int, w.max)
	for i := range order {
		order[i] = i % len(vals)
	}
	stream, err := p.writeStream(s, vals, order)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := p.readStream(s, bytes.NewReader(stream), order); err != nil {
		return nil, nil, nil, err
	}
	p.figures[results.StreamEncode] = &streamFigures{bytesPerMsg: float64(len(stream)) / float64(len(order))}
	p.seenOf(results.StreamEncode).unseenAll = func(set *unseenSet) ([]time.Duration, []time.Duration, error) {
		encU, encS, _, _, err := p.streamUnseen(s, vals, set)
		return encU, encS, err
	}
	var ctl *control
	ctl = newControl(len(p.Msgs), o.seed, o.now, func(k int, _ []byte) error { return w.verify(p, ctl, k) })
	return func(n int) error {
		order, at := ctl.order, ctl.at
		j := 0
		for i := range n {
			k := order[j]
			if err := w.write(vals[k], k); err != nil {
				return err
			}
			if i == at {
				if err := ctl.check(k, nil); err != nil {
					return err
				}
			}
			if j++; j == len(order) {
				j = 0
			}
		}
		return nil
	}, ctl, nil, nil
}

// A streamWriter is the encode op's stream: one Encoder writing into one
// buffer, started anew every max messages. A message the control draws
// is verified at the sample's end (control.later): a follower, a
// Decoder of the same library, reads the stream from its start up to the
// message, whose value is compared with its reference. A stream that
// ends with messages still to verify is kept, with its follower, until
// then, and its buffer reused after (spare).
type streamWriter struct {
	s     codec.Streamer
	max   int
	cur   *written
	enc   codec.Encoder
	ended []*written // streams ended with messages to verify
	spare []*written
	// queued says the control holds a call of settle.
	queued bool
}

// A written stream: its bytes, the build of each message, the messages
// to verify, and its follower: its Decoder, the reader it reads the
// bytes through, and how many messages it has decoded.
type written struct {
	buf     bytes.Buffer
	builds  []int
	pending []int
	fdec    codec.Decoder
	ftail
	fdone int
}

// start begins a new stream.
func (w *streamWriter) start() {
	switch {
	case w.cur != nil && len(w.cur.pending) > 0:
		w.ended = append(w.ended, w.cur)
		w.cur = nil
	case w.cur != nil:
		w.spare = append(w.spare, w.cur)
		w.cur = nil
	}
	if n := len(w.spare); n > 0 {
		w.cur, w.spare = w.spare[n-1], w.spare[:n-1]
	} else {
		w.cur = new(written)
	}
	c := w.cur
	c.buf.Reset()
	c.builds, c.pending, c.fdec, c.fdone = c.builds[:0], c.pending[:0], nil, 0
	w.enc = w.s.NewEncoder(&c.buf)
}

// write writes v, of build k, as the stream's next message, beginning a
// new stream when this one is full.
func (w *streamWriter) write(v any, k int) error {
	if len(w.cur.builds) == w.max {
		if err := closeEncoder(w.enc); err != nil {
			return err
		}
		w.start()
	}
	w.cur.builds = append(w.cur.builds, k)
	return w.enc.Encode(v)
}

// verify marks the stream's last message, of build k, to verify when
// ctl settles.
func (w *streamWriter) verify(p *Prepared, ctl *control, k int) error {
	last := len(w.cur.builds) - 1
	if last < 0 || w.cur.builds[last] != k {
		return checkErr(results.Error, "the stream's last message is not of build %d", k)
	}
	w.cur.pending = append(w.cur.pending, last)
	if !w.queued {
		w.queued = true
		ctl.later = append(ctl.later, func() error { return w.settle(p) })
	}
	return nil
}

// settle verifies the marked messages of the ended streams, then of the
// current one, and keeps the ended streams' buffers for reuse.
func (w *streamWriter) settle(p *Prepared) error {
	w.queued = false
	for _, st := range append(w.ended, w.cur) {
		for _, last := range st.pending {
			if err := st.check(w.s, p, last); err != nil {
				return err
			}
		}
		st.pending = st.pending[:0]
	}
	w.spare = append(w.spare, w.ended...)
	w.ended = w.ended[:0]
	return nil
}

// check verifies message last of the stream: the follower decodes the
// messages it has not read up to it, and the last is compared with its
// reference. A follower that fails (a Decoder that reads ahead and takes
// the buffer's end for the stream's) is replaced by a new one that reads
// the stream from its start.
func (st *written) check(s codec.Streamer, p *Prepared, last int) error {
	var err error
	for attempt := range 2 {
		if st.fdec == nil || attempt == 1 || st.fdone > last {
			st.ftail = ftail{buf: &st.buf}
			st.fdec, st.fdone = s.NewDecoder(&st.ftail), 0
		}
		if err = st.follow(p, last); err == nil {
			return nil
		}
	}
	st.fdec = nil
	return err
}

// follow decodes messages fdone..last with the follower and compares the
// last with its reference.
func (st *written) follow(p *Prepared, last int) error {
	elem := reflect.TypeOf(p.refs[0]).Elem()
	for ; st.fdone <= last; st.fdone++ {
		out := reflect.New(elem).Interface()
		if err := st.fdec.Decode(out); err != nil {
			return checkErr(results.Failed, "stream message %d, read back: decode: %v", st.fdone+1, err)
		}
		if st.fdone == last {
			st.fdone++
			return compared(p.equal(st.builds[last], out), "stream message %d, read back", last+1)
		}
	}
	return checkErr(results.Error, "the follower has read past message %d", last+1)
}

// An ftail reads what has been written into buf so far, from where it
// last stopped.
type ftail struct {
	buf *bytes.Buffer
	pos int
}

func (t *ftail) Read(b []byte) (int, error) {
	rest := t.buf.Bytes()[t.pos:]
	if len(rest) == 0 {
		return 0, io.EOF
	}
	n := copy(b, rest)
	t.pos += n
	return n, nil
}

func buildStreamDecode(p *Prepared, o opInput) (loop, *control, loop, error) {
	s, vals, err := streamOf(p, o.job)
	if err != nil {
		return nil, nil, nil, err
	}
	ctl := newControl(len(p.Msgs), o.seed, o.now, nil)
	order := make([]int, streamLen(len(p.Msgs[0])))
	for i := range order {
		order[i] = ctl.rng.IntN(len(vals))
	}
	order[0] = 0
	stream, err := p.writeStream(s, vals, order)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := p.readStream(s, bytes.NewReader(stream), order); err != nil {
		return nil, nil, nil, err
	}
	if err := p.slowReaders(s, stream, order); err != nil {
		return nil, nil, nil, err
	}
	check, err := p.streamCheck(s, vals[0], o.now)
	if err != nil {
		return nil, nil, nil, err
	}
	p.figures[results.StreamDecode] = &streamFigures{bytesPerMsg: float64(len(stream)) / float64(len(order)), check: check}
	p.seenOf(results.StreamDecode).unseenAll = func(set *unseenSet) ([]time.Duration, []time.Duration, error) {
		_, _, decU, decS, err := p.streamUnseen(s, vals, set)
		return decU, decS, err
	}

	elem := reflect.TypeOf(p.refs[0]).Elem()
	var rd bytes.Reader
	var dec codec.Decoder
	m := len(order) // the next message of the stream; at its end, a new one
	var out any
	ctl.verify = func(k int, _ []byte) error {
		return compared(p.equal(k, out), "stream message %d of %d", m, len(order))
	}
	return func(n int) error {
		at := ctl.at
		for i := range n {
			if m == len(order) {
				rd.Reset(stream)
				dec, m = s.NewDecoder(&rd), 0
			}
			out = reflect.New(elem).Interface()
			if err := dec.Decode(out); err != nil {
				return err
			}
			m++
			if i == at {
				if err := ctl.check(order[m-1], nil); err != nil {
					return err
				}
			}
		}
		return nil
	}, ctl, nil, nil
}

// streamUnseen writes the builds of set, which the codec never saw, as
// the messages of one stream through one Encoder, each beside a message
// of one of the pool's values (those the timed loop writes, the pair's
// order alternating, as decodeUnseen's), every Encode timed; then reads
// the stream back through one Decoder, every Decode timed and every
// message compared with its reference. A stream codec that keeps a memo
// of what the timed loop writes or reads (keyed by a value's address or
// a message's content) is fast on the pool's messages and pays the whole
// cost on the others. It returns the Encodes' times on the unseen builds
// and on the pool's, then the Decodes'.
func (p *Prepared) streamUnseen(s codec.Streamer, vals []any, set *unseenSet) (encU, encS, decU, decS []time.Duration, err error) {
	type message struct {
		v, ref any
		unseen bool
		what   string
	}
	var msgs []message
	for i, k := range set.builds {
		v, err := p.build(k)
		if err != nil {
			return nil, nil, nil, nil, checkErr(results.Error, "building unseen build %d: %v", k, err)
		}
		for j := range 2 {
			if (i+j)%2 == 0 {
				msgs = append(msgs, message{v, set.refs[i], true, fmt.Sprintf("unseen build %d", k)})
				continue
			}
			b := i % len(vals)
			msgs = append(msgs, message{vals[b], p.refs[b], false, fmt.Sprintf("the pool's build %d", b+1)})
		}
	}
	// The stream's buffer and the decoded values are made before any
	// call is timed (see decodeUnseen).
	var buf bytes.Buffer
	buf.Grow(4 * len(msgs) * len(p.Msgs[0]))
	elem := reflect.TypeOf(p.refs[0]).Elem()
	outs := make([]any, len(msgs))
	for i := range outs {
		outs[i] = reflect.New(elem).Interface()
	}
	enc := s.NewEncoder(&buf)
	for _, m := range msgs {
		if p.alive != nil {
			p.alive()
		}
		d, err := p.timed(func() error { return enc.Encode(m.v) })
		if err != nil {
			return nil, nil, nil, nil, checkErr(results.Error, "stream encode of %s: %v", m.what, err)
		}
		if m.unseen {
			encU = append(encU, d)
		} else {
			encS = append(encS, d)
		}
	}
	if err := closeEncoder(enc); err != nil {
		return nil, nil, nil, nil, checkErr(results.Error, "closing the stream's Encoder: %v", err)
	}
	dec := s.NewDecoder(bytes.NewReader(buf.Bytes()))
	for i, m := range msgs {
		if p.alive != nil {
			p.alive()
		}
		d, err := p.timed(func() error { return dec.Decode(outs[i]) })
		if err != nil {
			return nil, nil, nil, nil, checkErr(results.Failed, "stream message %d of %d (%s): decode: %v", i+1, len(msgs), m.what, err)
		}
		if err := compared(p.equal0(m.ref, outs[i]), "stream message %d of %d (%s)", i+1, len(msgs), m.what); err != nil {
			return nil, nil, nil, nil, err
		}
		if m.unseen {
			decU = append(decU, d)
		} else {
			decS = append(decS, d)
		}
	}
	return encU, encS, decU, decS, nil
}

// slowReaders reads the stream's first messages through a reader
// returning one byte per Read (those within oneByteBytes, none when the
// first is larger) and through one returning half of what is asked
// (those within slowReaderBytes, at least one), checking every message:
// a Decoder must not take a short read for the stream's end.
func (p *Prepared) slowReaders(s codec.Streamer, stream []byte, order []int) error {
	within := func(limit int) int { return min(len(order), len(order)*limit/max(len(stream), 1)) }
	for _, r := range []struct {
		name string
		wrap func(io.Reader) io.Reader
		n    int
	}{
		{"one byte per Read (iotest.OneByteReader)", iotest.OneByteReader, within(oneByteBytes)},
		{"half of each Read (iotest.HalfReader)", iotest.HalfReader, max(1, within(slowReaderBytes))},
	} {
		if r.n == 0 {
			continue // a message larger than oneByteBytes
		}
		p.alive()
		if err := p.readStream(s, r.wrap(bytes.NewReader(stream)), order[:r.n]); err != nil {
			var ce *CheckError
			if errors.As(err, &ce) {
				return checkErr(ce.Status, "through a reader that returns %s: %s", r.name, ce.Reason)
			}
			return fmt.Errorf("through a reader that returns %s: %w", r.name, err)
		}
	}
	return nil
}

// streamCheck decodes a long stream of v (StreamCheckMessages messages,
// fewer within streamCheckBytes and streamCheckTime) through one Decoder
// from a reader that makes the stream as it is read, so that the stream
// itself is never in memory, and measures the live heap after the
// stream's first tenth (of its messages, or of streamCheckTime) and at
// its end, the Decoder still reachable. Both readings hold one decoded
// message and the Decoder's buffers at their working size: what grows
// between them is what the Decoder keeps of the stream.
func (p *Prepared) streamCheck(s codec.Streamer, v any, now func() time.Time) (*results.StreamCheck, error) {
	first, err := p.writeStream(s, []any{v}, []int{0})
	if err != nil {
		return nil, err
	}
	two, err := p.writeStream(s, []any{v}, []int{0, 0})
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(two, first) || len(two) == len(first) {
		return nil, checkErr(results.Error, "a stream of the value twice does not begin with the stream of it once")
	}
	next := two[len(first):]
	src := &repeatReader{first: first, next: next, n: min(streamCheckLen, max(2, streamCheckBytes/len(next)))}
	elem := reflect.TypeOf(p.refs[0]).Elem()
	out := reflect.New(elem).Interface()
	dec := s.NewDecoder(src)
	start := now()
	warm, deadline := start.Add(streamCheckTime/10), start.Add(streamCheckTime)
	var before heapFigures
	from, decoded := 0, 0 // the heap is first read after message from
	tick := start
	for decoded < src.n {
		t := now()
		if from == 0 && decoded > 0 && (decoded >= src.n/10 || t.After(warm)) {
			before, from = streamHeap(), decoded
		}
		if from > 0 && decoded > from && t.After(deadline) {
			break
		}
		p.tick(&tick)
		out = reflect.New(elem).Interface()
		if err := dec.Decode(out); err != nil {
			return nil, checkErr(results.Failed, "a long stream, message %d: decode: %v", decoded+1, err)
		}
		decoded++
	}
	after := streamHeap()
	runtime.KeepAlive(dec)
	if err := compared(p.equal(0, out), "a long stream's last message"); err != nil {
		return nil, err
	}
	read := int64(len(first)) + int64(decoded-1)*int64(len(src.next))
	return &results.StreamCheck{
		Messages: decoded, Bytes: read, From: from,
		HeapGrowth:  int64(after.inuse) - int64(before.inuse),
		AllocPerMsg: float64(after.total-before.total) / float64(decoded-from),
	}, nil
}

// tick says the check still moves (Prepared.alive) when a tenth of a
// second has passed since *last: often enough for the supervisor's
// watchdog, however long one message takes, and seldom for small ones.
func (p *Prepared) tick(last *time.Time) {
	if t := p.now(); t.Sub(*last) > 100*time.Millisecond {
		p.alive()
		*last = t
	}
}

// A heapFigures is the live heap after a collection and the bytes
// allocated so far.
type heapFigures struct{ inuse, total uint64 }

// streamHeap collects once more than liveHeap does (a sync.Pool keeps
// what it held for one more collection), then reads the live heap and
// the bytes allocated so far.
func streamHeap() heapFigures {
	runtime.GC()
	return heapFigures{inuse: liveHeap(), total: heapAllocs()[0]}
}

// A repeatReader reads first, then next n-1 times: a stream of n messages
// made as it is read.
type repeatReader struct {
	first, next []byte
	n           int
	cur         []byte
	sent        int
}

func (r *repeatReader) Read(b []byte) (int, error) {
	for len(r.cur) == 0 {
		if r.sent == r.n {
			return 0, io.EOF
		}
		if r.sent == 0 {
			r.cur = r.first
		} else {
			r.cur = r.next
		}
		r.sent++
	}
	n := copy(b, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// CheckStream checks the job's codec's streaming API (codec.Streamer) as
// the stream ops do before timing: the pool's builds, each twice in
// turn, written through one Encoder and read back through one Decoder,
// every message compared with its reference, and the first of each
// through the slow readers. It returns a *CheckError with status Skipped for a codec
// with no streaming API, so that conformance holds every Streamer to
// every dataset it claims.
func (p *Prepared) CheckStream(job *Job) error {
	s, vals, err := streamOf(p, job)
	if err != nil {
		return err
	}
	order := append(seq(len(vals)), seq(len(vals))...)
	stream, err := p.writeStream(s, vals, order)
	if err != nil {
		return err
	}
	if err := p.readStream(s, bytes.NewReader(stream), order); err != nil {
		return err
	}
	return p.slowReaders(s, stream, order[:len(vals)])
}
