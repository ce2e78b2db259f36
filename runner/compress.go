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
func (r *Runner) compressed(msg []byte) ([]results.Compressed, error) {
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
		out = append(out, results.Compressed{Algo: a.Name, Bytes: len(comp), CompressNs: ct, DecompressNs: dt})
	}
	return out, nil
}
