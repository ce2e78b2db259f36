package runner

import (
	"fmt"

	"github.com/serbench/serbench/compress"
	"github.com/serbench/serbench/results"
)

// compressed returns the size of msg after every compressor of package
// compress and the time to compress and decompress it: each direction a
// loop of whole calls, timed as the floors are (fastestOf: calibrated
// batches, the fastest of a few rounds), apart from the codec's timer. A
// compressor whose output does not decompress to msg, before timing or
// after, is an error: its figures would be of some other work.
//
// The size reported is the mean over the pool's messages (up to
// compressSizes of them), as the encoding's is; the times are message
// 0's.
func (r *Runner) compressed(msgs [][]byte) ([]results.Compressed, error) {
	msg := msgs[0]
	var out []results.Compressed
	for _, a := range compress.All {
		c, err := a.New()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a.Name, err)
		}
		comp, err := compress.RoundTrip(c, msg)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a.Name, err)
		}
		var cbuf, dbuf []byte
		var lerr error
		compressLoop := func(n int) error {
			for range n {
				if cbuf, lerr = c.Compress(cbuf, msg); lerr != nil {
					return lerr
				}
			}
			return nil
		}
		decompressLoop := func(n int) error {
			for range n {
				if dbuf, lerr = c.Decompress(dbuf, comp); lerr != nil {
					return lerr
				}
			}
			return nil
		}
		ct := r.fastestOf([]loop{compressLoop})[0]
		dt := r.fastestOf([]loop{decompressLoop})[0]
		if lerr != nil {
			return nil, fmt.Errorf("%s: while timed: %v", a.Name, lerr)
		}
		if len(cbuf) != len(comp) {
			return nil, fmt.Errorf("%s: compressing the same %d bytes again gave %d bytes, then %d", a.Name, len(msg), len(comp), len(cbuf))
		}
		if _, err := compress.RoundTrip(c, msg); err != nil || string(dbuf) != string(msg) {
			return nil, fmt.Errorf("%s: after timing, decompressing no longer gives the message back (%v)", a.Name, err)
		}
		total, n := len(comp), 1
		for _, m := range msgs[1:min(len(msgs), compressSizes)] {
			cm, err := compress.RoundTrip(c, m)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", a.Name, err)
			}
			total, n = total+len(cm), n+1
		}
		out = append(out, results.Compressed{Algo: a.Name, Bytes: (total + n/2) / n, CompressNs: ct, DecompressNs: dt})
	}
	return out, nil
}

// compressSizes is how many of the pool's messages the compressed size
// is the mean of.
const compressSizes = 16
