// Package compress holds the general-purpose compressors serbench applies
// to encodings (run -compress), so that a smaller format can be weighed
// against a larger one sent compressed: gzip, zstd and s2 from
// github.com/klauspost/compress, lz4 from github.com/pierrec/lz4/v4, each
// at a named level.
package compress

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// A Compressor compresses whole messages and decompresses them back. It
// keeps its state (encoder tables, windows) from one call to the next, as
// a sender that compresses every message does; it is used by one
// goroutine at a time.
type Compressor interface {
	// Compress returns src compressed, appended to dst[:0].
	Compress(dst, src []byte) ([]byte, error)
	// Decompress returns the bytes src was compressed from, appended to
	// dst[:0].
	Decompress(dst, src []byte) ([]byte, error)
}

// An Algo is a compressor at one level.
type Algo struct {
	// Name names the compressor and its level as reports print it.
	Name string
	// Doc says what Name stands for.
	Doc string
	New func() (Compressor, error)
}

// All lists the compressors, in display order.
var All = []Algo{
	{Name: "gzip-6", Doc: "gzip (klauspost/compress/gzip) at level 6, gzip's default", New: func() (Compressor, error) { return newGzip(6) }},
	{Name: "zstd-1", Doc: "zstd (klauspost/compress/zstd) at level 1, SpeedFastest", New: func() (Compressor, error) { return newZstd(1) }},
	{Name: "zstd-3", Doc: "zstd (klauspost/compress/zstd) at level 3, SpeedDefault", New: func() (Compressor, error) { return newZstd(3) }},
	{Name: "s2", Doc: "s2 block (klauspost/compress/s2), its default level", New: func() (Compressor, error) { return s2c{}, nil }},
	{Name: "lz4", Doc: "lz4 block (pierrec/lz4/v4), its fast level", New: func() (Compressor, error) { return &lz4c{}, nil }},
}

// Names returns the names of All, in order.
func Names() []string {
	var out []string
	for _, a := range All {
		out = append(out, a.Name)
	}
	return out
}

// Lookup returns the Algo named name.
func Lookup(name string) (Algo, error) {
	for _, a := range All {
		if a.Name == name {
			return a, nil
		}
	}
	return Algo{}, fmt.Errorf("compress: unknown compressor %q; known: %s", name, strings.Join(Names(), ", "))
}

// RoundTrip compresses msg with c, decompresses the result and checks it
// gives msg back; it returns the compressed bytes.
func RoundTrip(c Compressor, msg []byte) ([]byte, error) {
	comp, err := c.Compress(nil, msg)
	if err != nil {
		return nil, fmt.Errorf("compress: %w", err)
	}
	comp = bytes.Clone(comp)
	back, err := c.Decompress(nil, comp)
	if err != nil {
		return nil, fmt.Errorf("decompress: %w", err)
	}
	if !bytes.Equal(back, msg) {
		return nil, fmt.Errorf("decompressing gave %d bytes that are not the %d compressed", len(back), len(msg))
	}
	return comp, nil
}

type gzipc struct {
	w   *gzip.Writer
	r   *gzip.Reader
	buf bytes.Buffer
	in  bytes.Reader
}

func newGzip(level int) (Compressor, error) {
	w, err := gzip.NewWriterLevel(io.Discard, level)
	if err != nil {
		return nil, err
	}
	return &gzipc{w: w}, nil
}

func (g *gzipc) Compress(dst, src []byte) ([]byte, error) {
	g.buf = *bytes.NewBuffer(dst[:0])
	g.w.Reset(&g.buf)
	if _, err := g.w.Write(src); err != nil {
		return nil, err
	}
	if err := g.w.Close(); err != nil {
		return nil, err
	}
	return g.buf.Bytes(), nil
}

func (g *gzipc) Decompress(dst, src []byte) ([]byte, error) {
	g.in.Reset(src)
	if g.r == nil {
		r, err := gzip.NewReader(&g.in)
		if err != nil {
			return nil, err
		}
		g.r = r
	} else if err := g.r.Reset(&g.in); err != nil {
		return nil, err
	}
	g.buf = *bytes.NewBuffer(dst[:0])
	if _, err := g.buf.ReadFrom(g.r); err != nil {
		return nil, err
	}
	return g.buf.Bytes(), nil
}

type zstdc struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

// newZstd returns zstd at level, one goroutine (the compressors are timed
// on one, as the codecs are).
func newZstd(level int) (Compressor, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<34))
	if err != nil {
		return nil, err
	}
	return &zstdc{enc: enc, dec: dec}, nil
}

func (z *zstdc) Compress(dst, src []byte) ([]byte, error) { return z.enc.EncodeAll(src, dst[:0]), nil }
func (z *zstdc) Decompress(dst, src []byte) ([]byte, error) {
	return z.dec.DecodeAll(src, dst[:0])
}

type s2c struct{}

func (s2c) Compress(dst, src []byte) ([]byte, error) {
	if n := s2.MaxEncodedLen(len(src)); cap(dst) < n {
		dst = make([]byte, n)
	}
	return s2.Encode(dst[:cap(dst)], src), nil
}

func (s2c) Decompress(dst, src []byte) ([]byte, error) {
	n, err := s2.DecodedLen(src)
	if err != nil {
		return nil, err
	}
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	return s2.Decode(dst[:n], src)
}

// lz4c writes an lz4 block after the source's length (4 bytes, little
// endian), which a block does not carry; a block lz4 cannot shrink is
// stored as is, flagged by a length with its top bit set.
type lz4c struct{ c lz4.Compressor }

const lz4Raw = 1 << 31

func (l *lz4c) Compress(dst, src []byte) ([]byte, error) {
	if len(src) >= lz4Raw {
		return nil, fmt.Errorf("lz4: a message of %d bytes is too large for a block", len(src))
	}
	n := 4 + lz4.CompressBlockBound(len(src))
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	m, err := l.c.CompressBlock(src, dst[4:])
	if err != nil {
		return nil, err
	}
	size := uint32(len(src))
	if m == 0 { // incompressible
		m = copy(dst[4:], src)
		size |= lz4Raw
	}
	dst[0], dst[1], dst[2], dst[3] = byte(size), byte(size>>8), byte(size>>16), byte(size>>24)
	return dst[:4+m], nil
}

func (l *lz4c) Decompress(dst, src []byte) ([]byte, error) {
	if len(src) < 4 {
		return nil, fmt.Errorf("lz4: %d bytes hold no block", len(src))
	}
	size := uint32(src[0]) | uint32(src[1])<<8 | uint32(src[2])<<16 | uint32(src[3])<<24
	n := int(size &^ lz4Raw)
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	if size&lz4Raw != 0 {
		return dst[:copy(dst, src[4:])], nil
	}
	m, err := lz4.UncompressBlock(src[4:], dst)
	if err != nil {
		return nil, err
	}
	return dst[:m], nil
}
