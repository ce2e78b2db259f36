package runner

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// After timing, the runner shows the codec what it has never seen: builds
// of the job's value whose indices are drawn from a per-run salt
// (Options.Salt), which no codec can know while it is prepared, each
// prepared on a case of its own, encoded in a buffer of its own, then
// decoded (and read, by the ops that read) once. A codec that keeps a
// memo keyed by an input's content or address, or replays its first
// encoding, is as fast in the timed loop and the checks on the pool as
// an honest one; on a build it has never seen it pays the whole cost.
// The unseen calls are timed one by one, each beside the same call on
// one of the pool's builds timed the same way (so that both meet the
// machine alike, in as many calls), and each op's figure on them is held
// to its figure on the pool (unseenRatio) and to the timed median
// (checkRatio). The stream ops write and read the unseen builds as one
// stream (streamUnseen); an encode that keeps its buffer is held on a
// later call, its case's value changed in place (encodeChanged); and the
// unseen decodes of a codec that declares ValueConverts overwrite their
// input between Decode and Value, so that Value, off the timed loop's
// clock, cannot be where the decoding is done (clobbersBeforeValue), and
// its Decode is handed unseen encodings cut short, which a decode in
// full refuses (checkCuts).
//
// The same builds check that an encoding carries its value: their sizes
// must agree with the pool's (sizeSpread), and they, not the pool's, go
// to the fresh process (Result.Verified), whose builder cannot rebuild a
// value from an index it has never been told.

// unseenBase and unseenRange: an unseen build's index is unseenBase plus
// a salted draw below unseenRange, beyond every pool (parallelJob's
// included) and the fresh process's decoy (DecoyBuild).
const (
	unseenBase  = 2 * DecoyBuild
	unseenRange = 1 << 20
)

// unseenCount is how many unseen builds a job's checks draw, fewer of a
// large value (as a pool holds fewer): each is prepared, encoded and
// decoded once per op.
const unseenCount = 32

// unseenBytes caps the size of a job's unseen builds' encodings, in all:
// a large value gets two.
const unseenBytes = checkBytes / 8

// unseenRatio: an op's calls on unseen builds may take this many times
// as long as the same calls on the pool's builds in the checks. An
// honest codec's calls cost the same on both (different content of the
// same shape); a tell of 2x is beyond it. firstEncodeRatio is the encode's,
// whose unseen call is each case's first: a case that grows a buffer of
// its own pays for the growth once.
const (
	unseenRatio      = 1.6
	firstEncodeRatio = 4
)

// NewSalt returns a salt for Options.Salt, drawn from the OS's random
// source: the parent draws it once per run and hands it to every worker.
func NewSalt() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) | 1
}

// mix is SplitMix64's finaliser: a salted index's bits, well spread.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// poolBuild returns the index of build k of a pool salted with salt,
// drawn from the salt in the range the unseen builds are drawn from, so that the pool and the builds the
// checks show the codec later are alike (their integers have as many
// digits) and neither is known before the run. Without a salt, k.
func poolBuild(salt uint64, k int) int {
	if salt == 0 {
		return k
	}
	return unseenBase + int(mix(^salt+uint64(k)*0x9e3779b97f4a7c15)%unseenRange)
}

// poolValue builds a fresh value of the pool's build k.
func (p *Prepared) poolValue(k int) (any, error) { return p.build(poolBuild(p.salt, k)) }

// unseenBuilds returns n distinct indices of unseen builds for salt,
// starting at the draw'th.
func unseenBuilds(salt uint64, draw, n int) []int {
	out := make([]int, 0, n)
	for i := draw; len(out) < n; i++ {
		k := unseenBase + int(mix(salt+uint64(i)*0x9e3779b97f4a7c15)%unseenRange)
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// An unseenSet is a set of builds the codec never saw: the case of each,
// the reference it must decode to, and its first encoding in a buffer of
// its own.
type unseenSet struct {
	builds []int
	vals   []any // the values the cases were prepared on
	cases  []codec.Case
	refs   []any
	msgs   [][]byte
}

// unseen draws n unseen builds of p's job (the draw'th salted indices on)
// and prepares a case for each; nothing is encoded yet.
func (p *Prepared) unseen(salt uint64, draw, n int) (*unseenSet, error) {
	s := &unseenSet{}
	for _, k := range unseenBuilds(salt, draw, n) {
		if p.alive != nil {
			p.alive()
		}
		v, err := p.build(k)
		if err != nil {
			return nil, checkErr(results.Error, "building unseen build %d: %v", k, err)
		}
		ref, err := p.build(k)
		if err != nil {
			return nil, checkErr(results.Error, "building unseen build %d: %v", k, err)
		}
		c, err := p.codec.Prepare(v)
		if err != nil {
			return nil, checkErr(results.Error, "prepare of unseen build %d: %v", k, err)
		}
		s.builds = append(s.builds, k)
		s.cases = append(s.cases, c)
		s.vals = append(s.vals, v)
		s.refs = append(s.refs, ref)
	}
	return s, nil
}

// timed returns how long f takes on the checks' clock, and f's error.
func (p *Prepared) timed(f func() error) (time.Duration, error) {
	t0 := p.now()
	err := f()
	return p.now().Sub(t0), err
}

// encodeUnseen makes each unseen case's first encoding, each call timed,
// alternating with an encode of one of the pool's builds timed the same
// way (the pair's order alternating, see decodeUnseen), and keeps the
// encodings (in buffers of their own). It returns the unseen calls' times
// and the pool's.
func (p *Prepared) encodeUnseen(s *unseenSet) (unseen, seen []time.Duration, err error) {
	for i, c := range s.cases {
		enc, u, sn, err := p.encodePair(i, c, fmt.Sprintf("unseen build %d", s.builds[i]))
		if err != nil {
			return nil, nil, err
		}
		s.msgs = append(s.msgs, enc)
		unseen, seen = append(unseen, u), append(seen, sn)
	}
	return unseen, seen, nil
}

// encodePair times an Encode of case c, which encodes what, beside an
// Encode of the pool's case i (modulo the pool), the pair's order
// alternating with i, and returns a copy of c's encoding and the two
// times.
func (p *Prepared) encodePair(i int, c codec.Case, what string) (enc []byte, unseen, seen time.Duration, err error) {
	for j := range 2 {
		if p.alive != nil {
			p.alive()
		}
		if (i+j)%2 == 1 {
			seen, err = p.timed(func() error { _, err := p.Cases[i%len(p.Cases)].Encode(); return err })
			if err != nil {
				return nil, 0, 0, checkErr(results.Error, "encode: %v", err)
			}
			continue
		}
		unseen, err = p.timed(func() (err error) { enc, err = c.Encode(); return err })
		if err != nil {
			return nil, 0, 0, checkErr(results.Error, "encode of %s: %v", what, err)
		}
		enc = slices.Clone(enc) // before the other call: a buffer may be the codec's, not the case's
	}
	return enc, unseen, seen, nil
}

// encodeChanged times, for a codec that appends into a buffer it keeps
// (codec.Info.ReusesBuffer), an Encode on a build it never saw that is
// not a case's first: a case's first Encode grows the buffer, at many
// times a later call's cost, so the first calls cannot be held to the
// timed figure. Each unseen case, its first encoding made
// (encodeUnseen), has its value (the pointer Prepare was handed) set to
// the next unseen build's, converted again when the case converted it
// when prepared (codec.Reloader: a schema or generated codec, as
// codec.Codec's contract allows), and Encodes again, timed beside a call
// on one of the pool's cases; that encoding must decode to the new
// build, and the calls are held as every other op's. A case that neither
// reads its value at each Encode nor converts it again cannot be held: it
// fails (reloadMissing), as does one whose Encode, its value changed,
// hands back the old value's encoding (a replay).
func (p *Prepared) encodeChanged(s *unseenSet) (unseen, seen []time.Duration, err error) {
	for i, c := range s.cases {
		next := (i + 1) % len(s.cases)
		b, err := p.build(s.builds[next])
		if err != nil {
			return nil, nil, checkErr(results.Error, "building unseen build %d: %v", s.builds[next], err)
		}
		v := reflect.ValueOf(s.vals[i]).Elem()
		v.Set(reflect.ValueOf(b).Elem())
		r, reloads := c.(codec.Reloader)
		if reloads {
			if err := codec.Guard(r.Reload); err != nil {
				return nil, nil, checkErr(results.Error, "Reload of unseen build %d's case, its value changed to build %d's: %v", s.builds[i], s.builds[next], err)
			}
		}
		enc, u, sn, err := p.encodePair(i, c, fmt.Sprintf("unseen build %d, its value changed to build %d's", s.builds[i], s.builds[next]))
		if err != nil {
			return nil, nil, err
		}
		unseen, seen = append(unseen, u), append(seen, sn)
		err = p.Case.Decode(slices.Clone(enc))
		var got any
		if err == nil {
			got, err = p.Case.Value()
		}
		if err == nil {
			err = p.equal0(s.refs[next], got)
		}
		switch {
		case err == nil:
		case reloads:
			return nil, nil, compared(err, "the case of unseen build %d, its value changed to build %d's after its first Encode and converted again (codec.Reloader), "+
				"encoded the value as it was (a replayed encoding)", s.builds[i], s.builds[next])
		case p.info.API == codec.Reflection:
			return nil, nil, compared(err, "the case of unseen build %d, its value changed to build %d's after its first Encode, encoded the value as it was "+
				"(a %s codec reads its value at each Encode, so this is a replayed encoding)", s.builds[i], s.builds[next], p.info.API)
		case i == 0:
			return nil, nil, compared(err, "the case of unseen build %d, its value changed to build %d's after its first Encode, encoded the value as it was: %s", s.builds[i], s.builds[next], reloadMissing)
		default:
			return nil, nil, compared(err, "the case of unseen build %d, its value changed to build %d's after its first Encode, encoded the value as it was "+
				"(the case of unseen build %d, changed likewise, encoded its new value, so this is a replayed encoding)", s.builds[i], s.builds[next], s.builds[0])
		}
	}
	return unseen, seen, nil
}

// reloadMissing says why a codec that keeps its buffer and converted its
// value when prepared fails when it does not convert it again.
const reloadMissing = "the codec keeps its buffer across Encodes (codec.Info.ReusesBuffer) and converts its value when the case is prepared, " +
	"so its later Encodes, on a grown buffer, cannot be held to builds it never saw: a replayed encoding is not told from an honest one " +
	"(implement codec.Reloader on the case, whose Reload converts the value handed to Prepare again, keeping the buffer)"

// poolSizes returns the mean size of the pool's messages and their
// spread (the largest distance of one from the mean), in bytes.
func (p *Prepared) poolSizes() (mean, spread float64) {
	for _, m := range p.Msgs {
		mean += float64(len(m))
	}
	mean /= float64(len(p.Msgs))
	for _, m := range p.Msgs {
		spread = max(spread, math.Abs(float64(len(m))-mean))
	}
	return mean, spread
}

// sizeSpread: an encoding of a build, seen or unseen, may differ from the
// pool's mean size by the pool's own spread and 1/sizeSpread of the mean
// more. The builds of one job differ in content, not in shape: a codec
// that writes the pool's builds small and the others honestly (or the
// other way round) leaves that range.
const sizeSpread = 8

// checkSize checks that an encoding of n bytes is within the pool's sizes.
func (p *Prepared) checkSize(n int, what string) error {
	mean, spread := p.poolSizes()
	if d := math.Abs(float64(n) - mean); d > spread+mean/sizeSpread+1 {
		return checkErr(results.Failed, "%s is %d bytes where the pool's builds are %.0f on average (within %.0f): "+
			"the size reported is not the size of the codec's encodings", what, n, mean, spread)
	}
	return nil
}

// decodeUnseen decodes each of s's messages once through the case, from a
// buffer of its own, Decode and Value on the clock, alternating with a
// decode of one of the pool's messages from its own buffer timed the same
// way, and compares each value with its reference. It returns the unseen
// calls' times and the pool's.
// decodeOnly holds, for each unseen call, the Decode's part alone (with
// Value for a lazy codec), as the timed loop times it.
func (p *Prepared) decodeUnseen(s *unseenSet) (unseen, seen, decodeOnly []time.Duration, err error) {
	decode := func(msg []byte, clobber bool) (got any, d, dec time.Duration, err error) {
		t0 := p.now()
		err = p.Case.Decode(msg)
		t1 := p.now()
		t1v := t1
		if clobber && err == nil {
			for i := range msg {
				msg[i] = ^msg[i]
			}
			t1v = p.now()
		}
		if err == nil {
			got, err = p.Case.Value()
		}
		t2 := p.now()
		dec = t1.Sub(t0)
		d = dec + t2.Sub(t1v)
		if p.info.TimesValue() {
			dec = d
		}
		return got, d, dec, err
	}
	// Each message in a buffer of its own, made before any call is timed:
	// an allocation just before a call would charge it the collector's
	// assist for the buffer, a cost the pool's calls do not pay.
	ins := make([][]byte, len(s.msgs))
	for i, m := range s.msgs {
		ins[i] = slices.Clone(m)
	}
	for i := range s.msgs {
		// The pair's order alternates, so that what the first call of a
		// pair leaves the second (a collection to assist) falls on both.
		for j := range 2 {
			if p.alive != nil {
				p.alive()
			}
			if (i+j)%2 == 0 {
				clobber := p.clobbersBeforeValue()
				got, d, dec, err := decode(ins[i], clobber)
				if clobber {
					// What Value handed back may point into its input
					// (codec.Info.Aliases): that is checked apart.
					copy(ins[i], s.msgs[i])
				}
				if err != nil && clobber {
					return nil, nil, nil, checkErr(results.Failed, "unseen build %d: its input overwritten after Decode returned, Value failed: %v: %s", s.builds[i], err, valueDecodes)
				}
				if err != nil {
					return nil, nil, nil, checkErr(results.Failed, "decode of unseen build %d's encoding: %v", s.builds[i], err)
				}
				what := fmt.Sprintf("unseen build %d", s.builds[i])
				if clobber {
					what += ", its input overwritten after Decode returned and before Value (" + valueDecodes + ")"
				}
				if err := compared(p.equal0(s.refs[i], got), "%s", what); err != nil {
					return nil, nil, nil, err
				}
				unseen, decodeOnly = append(unseen, d), append(decodeOnly, dec)
				continue
			}
			k := i % len(p.Msgs)
			got, d, _, err := decode(p.Msgs[k], false)
			if err != nil {
				return nil, nil, nil, checkErr(results.Failed, "decode of its own encoding: %v", err)
			}
			if err := p.compare(k, got); err != nil {
				return nil, nil, nil, err
			}
			seen = append(seen, d)
		}
	}
	return unseen, seen, decodeOnly, nil
}

// valueDecodes says why a codec declared ValueConverts fails when its
// input is overwritten between Decode and Value.
const valueDecodes = "the codec declares that Value only converts a value Decode decoded in full (codec.Info.ValueConverts), " +
	"but Value reads the input: the decoding is left to Value, off the timed loop's clock " +
	"(declare codec.Info.ValueReadsInput if Value's conversion reads the input by design; Value is then timed with Decode)"

// clobbersBeforeValue reports whether the unseen decodes overwrite their
// input between Decode and Value: a codec declared ValueConverts says
// Decode decoded in full, so Value, which it converts with off the
// clock, must not need the input; one that declares Value reads it
// (codec.Info.ValueReadsInput) has Value timed with Decode instead.
func (p *Prepared) clobbersBeforeValue() bool {
	return p.info.ValueConverts && !p.info.TimesValue()
}

// pairRatio returns the median, over the pairs of calls, of an unseen
// call's time over the time of the pool's call made right after it: each
// pair meets the machine alike, so a busy phase moves both.
func pairRatio(unseen, seen []time.Duration) float64 {
	var rs []float64
	for i := range min(len(unseen), len(seen)) {
		rs = append(rs, float64(max(unseen[i], 1))/float64(max(seen[i], 1)))
	}
	if len(rs) == 0 {
		return 0
	}
	slices.Sort(rs)
	return rs[len(rs)/2]
}

// checkUnseen checks s's encodings: each is within the pool's sizes.
// (decodeUnseen has checked each decodes to its value.)
func (p *Prepared) checkUnseen(s *unseenSet) error {
	for i, m := range s.msgs {
		if err := p.checkSize(len(m), fmt.Sprintf("unseen build %d's encoding", s.builds[i])); err != nil {
			return err
		}
	}
	return nil
}

// readUnseen reads each of s's messages once with the op's own read
// (opSeen.unseen), from a buffer of its own, alternating with a read of
// one of the pool's messages from its own buffer, and returns the unseen
// calls' times and the pool's (none when the op has no such read).
func (p *Prepared) readUnseen(op results.Op, s *unseenSet) (unseen, seen []time.Duration, err error) {
	if all := p.seenOf(op).unseenAll; all != nil {
		return all(s)
	}
	read := p.seenOf(op).unseen
	if read == nil {
		return nil, nil, nil
	}
	ins := make([][]byte, len(s.msgs))
	for i, m := range s.msgs {
		ins[i] = slices.Clone(m)
	}
	for i := range s.msgs {
		d, err := read(ins[i], s.refs[i])
		if err != nil {
			return nil, nil, fmt.Errorf("unseen build %d: %w", s.builds[i], err)
		}
		unseen = append(unseen, d)
		k := i % len(p.Msgs)
		if d, err = read(p.Msgs[k], p.refs[k]); err != nil {
			return nil, nil, fmt.Errorf("message %d of %d: %w", k+1, len(p.Msgs), err)
		}
		seen = append(seen, d)
	}
	return unseen, seen, nil
}

// verifiedOf returns the encodings of s for the fresh process, within
// verifiedBytes in all (two at least when there are two).
func verifiedOf(s *unseenSet) []results.Message {
	var out []results.Message
	size := 0
	for i, m := range s.msgs {
		if size += len(m); len(out) >= 2 && size > verifiedBytes {
			break
		}
		out = append(out, results.Message{Build: s.builds[i], Data: m})
		if len(out) == 4 {
			break
		}
	}
	return out
}

// FreshWork returns the Work of the check in a fresh process of a job
// of messages of size bytes and ops ops: each op's verified encodings
// (verifiedOf: two to four of its unseen builds), each built there,
// decoded and compared.
func FreshWork(size, ops int) Work {
	n := min(4, max(2, min(unseenCount, unseenBytes/max(size, 1))))
	if n > 2 && n*size > verifiedBytes {
		n = max(2, verifiedBytes/max(size, 1))
	}
	k := float64(ops * n)
	return Work{Builds: k, Decodes: k, Compares: k}
}

// unseenCheck runs op's calls on builds the codec never saw and records
// what they cost (Result.UnseenNsPerOp, Result.SizeSpread), flagging the
// result when they cost more than unseenRatio times the same calls on
// the pool. It returns the encodings the fresh process is to decode.
func (r *Runner) unseenCheck(p *Prepared, res *results.Result, q func([]time.Duration) float64) ([]results.Message, string, error) {
	if p.salt == 0 {
		return nil, "", nil // no builds beyond the pool's (Job.ValueAt)
	}
	n := max(2, min(unseenCount, unseenBytes/max(len(p.Msgs[0]), 1)))
	draw := opDraw(res.Op)
	s, err := p.unseen(r.opts.Salt, draw, n)
	if err != nil {
		return nil, "", err
	}
	encU, encS, err := p.encodeUnseen(s)
	if err != nil {
		return nil, "", err
	}
	decU, decS, decOnly, err := p.decodeUnseen(s)
	if err != nil {
		return nil, "", err
	}
	if res.Op == results.Decode {
		if err := p.checkCuts(s); err != nil {
			return nil, "", err
		}
	}
	if err := p.checkUnseen(s); err != nil {
		return nil, "", err
	}
	u, sn, timedLike := decU, decS, decOnly
	ratio := float64(unseenRatio)
	switch res.Op {
	case results.Encode:
		u, sn, timedLike, ratio = encU, encS, encU, firstEncodeRatio
		if p.info.ReusesBuffer {
			// A case's first Encode grows the buffer it keeps: many
			// times a later call on a large message. The calls held are
			// later ones, on builds changed in place (encodeChanged).
			chU, chS, err := p.encodeChanged(s)
			if err != nil {
				return nil, "", err
			}
			u, sn, timedLike, ratio = chU, chS, chU, unseenRatio
		}
	case results.Decode:
	default:
		ru, rs, err := p.readUnseen(res.Op, s)
		if err != nil {
			return nil, "", err
		}
		if ru == nil {
			return verifiedOf(s), "", nil
		}
		u, sn, timedLike = ru, rs, ru
	}
	res.UnseenNsPerOp = q(u)
	// Both the pairs' median and the low quantiles must be beyond the
	// bound: an operation that allocates much pays the collector's
	// assists unevenly between the two calls of a pair.
	if r := pairRatio(u, sn); r > ratio && q(u) > ratio*q(sn) {
		return verifiedOf(s), fmt.Sprintf("%.3gns/op on %d builds it never saw, where the same calls on the pool's builds take %.3gns (%.1f times as long, the median of the pairs): "+
			"the codec is fast only on what it has seen (a memo, a replayed encoding)", q(u), len(s.msgs), q(sn), r), nil
	}
	if m, c := res.NsPerOp.Median*float64(max(res.Procs, 1)), q(timedLike); m > 0 && c > checkRatio*m+checkSlack {
		return verifiedOf(s), fmt.Sprintf("%.3gns/op timed, where the same calls on %d builds it never saw take %.3gns each (%.0f times as long): "+
			"the codec is fast only on what it has seen", m, len(s.msgs), c, c/m), nil
	}
	return verifiedOf(s), "", nil
}

// equal0 compares got with ref modulo the codec's declared losses.
func (p *Prepared) equal0(ref, got any) error { return verify.Equal(ref, got, p.info.Losses) }

// opDraw returns where op's draws of unseen builds start, so that each op
// of a job decodes builds no other op of it has shown the codec.
func opDraw(op results.Op) int {
	h := uint64(14695981039346656037)
	for _, c := range []byte(op) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return int(h%1024) * unseenCount * 4
}
