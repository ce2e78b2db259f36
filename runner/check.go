package runner

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"reflect"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
)

// A Prepared is a job's codec cases, verified and ready to time: a pool
// of distinct builds of the job's value (Job.ValueAt), the case of each,
// their encodings, each in a buffer of its own, and the references they
// must decode to, built apart from the values handed to the codec.
//
// The encode benchmark encodes the builds in turn and the decode
// benchmark decodes their encodings, each sample in an order drawn for
// it, so that a codec that returns its input, a cached value or a memo of
// its last few results fails verification instead of winning, and no
// call can tell which message comes next.
type Prepared struct {
	// Case is the case of build 0. It decodes every message.
	Case codec.Case
	// Cases holds the case of each build; Cases[0] is Case.
	Cases []codec.Case
	// Msgs holds private copies of the builds' encodings, each in a
	// buffer of its own. There are at least two when the job has a second
	// build (Job.ValueAt or Job.Alt); otherwise Msgs[1] is Msgs[0].
	Msgs [][]byte

	info  codec.Info
	codec codec.Codec              // the codec the cases were prepared by
	build func(k int) (any, error) // builds build k of the job's value (Job.builds)
	salt  uint64                   // draws the pool's builds (poolBuild)
	// figures holds what an op's build leaves for its judge to record
	// in the result (the stream ops' stream size), by op.
	figures map[results.Op]any
	alive   func() // says a long check still moves (Runner.alive)
	refs    []any
	orig    [][]byte // pristine copies of Msgs, to restore after the overwrite check
	sums    []uint64 // the hash of each message when it was made
	seed    maphash.Seed
	rng     *rand.Rand
	now     func() time.Time
	// prev is the value the case decoded before the last, and the build
	// it is of: a later decode must leave it unchanged.
	prev      any
	prevBuild int
	// times is what the checks saw of each call, one by one.
	times checkTimes
	made  int // round trips made so far
	// seen holds what the checks of each op beyond encode and decode saw
	// (seenOf).
	seen map[results.Op]*opSeen
}

// An opSeen is what an op's checks saw: its calls timed one by one, on
// the timed loop's buffers, and what they tell the op's result (how the
// op read, the types it made).
type opSeen struct {
	times []time.Duration
	note  func(*results.Result)
	// unseen reads one message the codec never saw, as the op reads,
	// times the read and compares what it read with ref's (nil: the op
	// has no unseen check).
	unseen func(msg []byte, ref any) (time.Duration, error)
	// unseenAll runs the op's own calls on every build of an unseenSet
	// at once, each beside a call on one of the pool's builds, and
	// returns the unseen calls' times and the pool's (the stream ops:
	// their messages are a stream's, not a case's encodings).
	unseenAll func(s *unseenSet) (unseen, seen []time.Duration, err error)
}

// seenOf returns what the checks of op saw, made empty on first use.
func (p *Prepared) seenOf(op results.Op) *opSeen {
	if p.seen == nil {
		p.seen = map[results.Op]*opSeen{}
	}
	if p.seen[op] == nil {
		p.seen[op] = &opSeen{}
	}
	return p.seen[op]
}

// checkTimes holds the durations of the calls the checks timed one by one.
// convert holds the reflective copies of decoded values (value.go).
type checkTimes struct{ encode, decode, value, convert []time.Duration }

// A CheckError says why a job cannot be measured or why its figures
// cannot be believed: Status is Skipped, Failed or Error.
type CheckError struct {
	Status results.Status
	Reason string
}

func (e *CheckError) Error() string { return fmt.Sprintf("%s: %s", e.Status, e.Reason) }

func checkErr(st results.Status, format string, args ...any) *CheckError {
	return &CheckError{Status: st, Reason: fmt.Sprintf(format, args...)}
}

// compared turns a verification error into a CheckError: Failed for a
// mismatch, Error otherwise.
func compared(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	st := results.Error
	var mm *verify.MismatchError
	if errors.As(err, &mm) {
		st = results.Failed
	}
	return checkErr(st, "%s: %v", fmt.Sprintf(format, args...), err)
}

// PoolSize is the most builds a job's pool holds; PoolBytes caps their
// encodings' total size, so that a large value's pool holds fewer (never
// fewer than two).
const (
	PoolSize  = 64
	PoolBytes = 16 << 20
)

// checkCount returns how many of n round trips after timing a job whose
// messages are size bytes makes (see checkRoundTrips).
func checkCount(n, size int) int {
	return min(n, max(minCheckRoundTrips, checkBytes/max(size, 1)))
}

// checkSplit returns how many round trips after timing each of pools
// goroutines' pools makes for a bench whose share of the job's checks is
// n, its messages being size bytes: must of them whatever the time they
// take, and up to more while the bench's budget lasts. A message of
// LargeBytes or more (a round trip of one takes seconds: it is built,
// encoded, decoded twice and compared four times) makes
// largeCheckRoundTrips, then as many as its budget holds, so that its
// checks cost about what its sampling does; a smaller one makes all of
// checkCount, as many as a thousand.
func checkSplit(n, size, pools int) (must, more int) {
	k := max(checkCount(n, size)/max(pools, 1), minCheckRoundTrips)
	if size < LargeBytes {
		return k, 0
	}
	must = min(k, largeCheckRoundTrips)
	return must, k - must
}

// largeCheckRoundTrips is how many round trips after timing a bench of
// a large message makes whatever its budget (checkSplit): every one of
// them is deep (aliasing, reuse of the target), and two draw both of a
// two-build pool's messages half the time.
const largeCheckRoundTrips = 2

// poolSize returns how many builds a pool of messages of size bytes holds.
func poolSize(size int) int {
	return max(2, min(PoolSize, PoolBytes/max(size, 1)))
}

// Prepare prepares the job's codec cases and verifies them as the runner
// does before timing: each build of the pool is encoded through its own
// case and decoded through the first, and each decode is compared with
// its own reference; encoding build 0 again must give a message of the
// same size. It returns a *CheckError saying why a job cannot be
// measured. It lets other harnesses (testing.B) time exactly what the
// runner times.
func Prepare(job *Job) (*Prepared, error) { return prepare(job, 0, func() {}, time.Now) }

// prepare does the work of Prepare, calling alive between its steps and
// timing the checks' calls on now. With a salt (Options.Salt), the
// pool's builds but the first (the job's Value) are drawn from it
// (poolBuild), so that no codec knows them before the run.
func prepare(job *Job, salt uint64, alive func(), now func() time.Time) (*Prepared, error) {
	builds := job.builds()
	if job.ValueAt == nil {
		salt = 0 // Value and Alt: no builds to draw from
	}
	build := func(k int) (any, any, error) {
		k = poolBuild(salt, k)
		v, err := builds(k)
		if err != nil {
			return nil, nil, checkErr(results.Error, "building the value: %v", err)
		}
		ref, err := builds(k)
		if err != nil {
			return nil, nil, checkErr(results.Error, "building the value: %v", err)
		}
		return v, ref, nil
	}
	v, ref, err := build(0)
	if err != nil {
		return nil, err
	}
	typ := reflect.TypeOf(v)
	if err := job.Codec.Supports(typ.String(), codec.FeaturesOf(typ)); err != nil {
		return nil, checkErr(results.Skipped, "%v", err)
	}
	cd := job.Codec.New()
	p := &Prepared{info: job.Codec, codec: cd, build: builds, salt: salt, figures: map[results.Op]any{}, alive: alive, seed: maphash.MakeSeed(), now: now,
		rng: rand.New(rand.NewPCG(uint64(len(job.Dataset)), 31))}
	if p.Case, err = cd.Prepare(v); err != nil {
		if codec.IsUnsupported(err) {
			return nil, checkErr(results.Skipped, "%v", err)
		}
		return nil, checkErr(results.Error, "prepare: %v", err)
	}
	if err := p.add(p.Case, ref); err != nil {
		return nil, err
	}
	n := job.poolOf(len(p.Msgs[0]))
	for k := 1; k < n; k++ {
		alive()
		v, ref, err := build(k)
		if err != nil {
			return nil, err
		}
		if reflect.TypeOf(v) != typ || k == 1 && reflect.DeepEqual(p.refs[0], ref) {
			return nil, checkErr(results.Error, "the job's builds must differ from its value and have its type %s", typ)
		}
		c, err := cd.Prepare(v)
		if err != nil {
			return nil, checkErr(results.Error, "prepare of build %d: %v", k, err)
		}
		if err := p.add(c, ref); err != nil {
			return nil, err
		}
	}
	if n == 1 { // one message: it stands for two, as a pool needs
		if err := p.add(p.Case, p.refs[0]); err != nil {
			return nil, err
		}
	}
	for _, k := range append(seq(len(p.Msgs)), 0) {
		alive()
		if err := p.decodeCheck(k); err != nil {
			return nil, err
		}
	}
	alive()
	if err := p.checkEncoding(0); err != nil {
		return nil, err
	}
	if err := p.CheckMessages(); err != nil {
		return nil, err
	}
	return p, nil
}

// seq returns 0, 1, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// add encodes c, whose value's reference is ref, and adds it to the pool
// with a private copy of its encoding in a buffer of its own.
func (p *Prepared) add(c codec.Case, ref any) error {
	enc, err := c.Encode()
	if err != nil {
		return checkErr(results.Error, "encode: %v", err)
	}
	p.Cases = append(p.Cases, c)
	p.Msgs = append(p.Msgs, slices.Clone(enc))
	p.orig = append(p.orig, slices.Clone(enc))
	p.sums = append(p.sums, maphash.Bytes(p.seed, enc))
	p.refs = append(p.refs, ref)
	return nil
}

// verifiedBytes caps the size of the encodings a result carries for the
// check in a fresh process.
const verifiedBytes = 8 << 20

// Ref returns the reference that message k decodes to, for callers that
// compare further (conformance's loss check).
func (p *Prepared) Ref(k int) any { return p.refs[k] }

// decodeCheck decodes message k through the case and compares the result
// with its reference.
func (p *Prepared) decodeCheck(k int) error {
	if err := p.Case.Decode(p.Msgs[k]); err != nil {
		return checkErr(results.Failed, "decode of its own encoding: %v", err)
	}
	return p.checkDecoded(k)
}

// checkDecoded compares the case's last decoded value with the reference
// of message k.
func (p *Prepared) checkDecoded(k int) error {
	got, err := p.Case.Value()
	if err != nil {
		return checkErr(results.Error, "converting the decoded value: %v", err)
	}
	return p.compare(k, got)
}

// compare compares got, a decoded value, with the reference of message k.
func (p *Prepared) compare(k int, got any) error {
	return compared(verify.Equal(p.refs[k], got, p.info.Losses), "message %d of %d", k+1, len(p.Msgs))
}

// equal compares got, a decoded value, with the reference of build k.
func (p *Prepared) equal(k int, got any) error { return verify.Equal(p.refs[k], got, p.info.Losses) }

// checkEncoding encodes build k once more through its case and checks the
// encoding is the size first measured and decodes to the reference.
func (p *Prepared) checkEncoding(k int) error {
	enc, err := p.Cases[k].Encode()
	if err != nil {
		return checkErr(results.Error, "encode: %v", err)
	}
	return p.checkBytes(enc, k)
}

// checkBytes checks that enc, an encoding of build k, has the size first
// measured (within sizeSlack) and decodes to the reference.
func (p *Prepared) checkBytes(enc []byte, k int) error {
	_, err := p.decodeBytes(enc, k)
	return err
}

// CheckEncoding checks enc, an encoding of build k made through Cases[k]
// after Prepare (one a timed loop made), as the runner checks it after
// timing: it has the size first measured and decodes to the reference.
func (p *Prepared) CheckEncoding(k int, enc []byte) error { return p.checkBytes(enc, k) }

// CheckDecoded checks the value Case decoded last, from Msgs[k], against
// its reference, as the runner checks a timed decode.
func (p *Prepared) CheckDecoded(k int) error { return p.checkDecoded(k) }

// CheckMessages reports whether the messages are as they were made: a
// decoder that writes into its input has changed the runner's.
func (p *Prepared) CheckMessages() error {
	for k, m := range p.Msgs {
		if maphash.Bytes(p.seed, m) != p.sums[k] {
			return checkErr(results.Failed, "message %d of %d changed while it was decoded: Decode writes into its input", k+1, len(p.Msgs))
		}
	}
	return nil
}

// RoundTrips makes up to n round trips over the pool, each on a build
// drawn at random, with the calls and buffers of the timed loops: encode
// build k through its own case (timed) and check the encoding; decode
// message k from the pool's own buffer through the first case (Decode and
// Value timed) and compare; then overwrite that buffer and compare again,
// unless the codec declares that decoded values alias their input
// (codec.Info.Aliases); then check that the value decoded before is
// unchanged, unless it declares that a decode reuses its target
// (codec.Info.ReusesTarget). The buffer is restored before the next round
// trip. This is what one check before timing cannot see: a codec that
// goes wrong on one message in a thousand, that tells the timed calls
// from the checked ones, or hands back values that point into its input.
// It stops early at the deadline (zero: none) and returns how many it
// made.
func (p *Prepared) RoundTrips(n int, deadline time.Time) (int, error) {
	return p.roundTrips(n, deadline, 1)
}

// roundTrips makes up to n round trips as RoundTrips does, the first
// atLeast of them whatever the deadline.
func (p *Prepared) roundTrips(n int, deadline time.Time, atLeast int) (int, error) {
	for i := range n {
		if !deadline.IsZero() && i >= atLeast && time.Now().After(deadline) {
			return i, nil
		}
		if p.alive != nil {
			p.alive()
		}
		p.made++
		if err := p.roundTrip(p.rng.IntN(len(p.Msgs))); err != nil {
			var ce *CheckError
			if errors.As(err, &ce) {
				ce.Reason = fmt.Sprintf("round trip %d: %s", i+1, ce.Reason)
			}
			return i, err
		}
	}
	return n, p.CheckMessages()
}

// roundTrip makes one round trip of build k (see RoundTrips). Of a
// large message it says it still moves between its steps (alive): one
// round trip of tens of megabytes on a loaded machine lasts minutes.
func (p *Prepared) roundTrip(k int) error {
	step := func() {}
	if p.alive != nil && len(p.Msgs[k]) >= LargeBytes {
		step = p.alive
	}
	t0 := p.now()
	enc, err := p.Cases[k].Encode()
	p.times.encode = append(p.times.encode, p.now().Sub(t0))
	if err != nil {
		return checkErr(results.Error, "encode: %v", err)
	}
	step()
	fromEnc, err := p.decodeBytes(enc, k)
	if err != nil {
		return err
	}
	step()
	if err := p.unchanged(); err != nil {
		return err
	}
	step()
	t0 = p.now()
	err = p.Case.Decode(p.Msgs[k])
	t1 := p.now()
	if err != nil {
		return checkErr(results.Failed, "decode of its own encoding: %v", err)
	}
	got, err := p.Case.Value()
	t2 := p.now()
	p.times.decode = append(p.times.decode, t1.Sub(t0))
	p.times.value = append(p.times.value, t2.Sub(t1))
	if err != nil {
		return checkErr(results.Error, "converting the decoded value: %v", err)
	}
	if p.info.ValueConverts {
		p.timeCopy(got)
	}
	step()
	if err := p.compare(k, got); err != nil {
		return err
	}
	step()
	if !p.info.ReusesTarget && samePointer(got, fromEnc) {
		return checkErr(results.Failed, "two decodes of build %d handed back the very same value: a memo of earlier results, or one target reused "+
			"(declare codec.Info.ReusesTarget if that is the codec's documented behaviour)", k)
	}
	if !p.deep() {
		p.prev = nil
		return nil
	}
	p.prev, p.prevBuild = fromEnc, k
	if err := p.unchanged(); err != nil {
		return err
	}
	step()
	p.prev = got
	if p.info.Aliases {
		return nil
	}
	m := p.Msgs[k]
	for i := range m {
		m[i] = ^m[i]
	}
	err = p.compare(k, got)
	copy(m, p.orig[k])
	var ce *CheckError
	if errors.As(err, &ce) {
		ce.Reason = "after its input was overwritten, the decoded value changed: it points into the input " +
			"(declare codec.Info.Aliases if that is the codec's documented behaviour): " + ce.Reason
	}
	return err
}

// deep reports whether the current round trip also checks for values that
// alias their input or change with the next decode: the first
// deepRoundTrips, then one in deepEvery (what a codec does to its values
// is the same from one call to the next; the comparisons cost as much as
// the round trip).
func (p *Prepared) deep() bool { return p.made <= deepRoundTrips || p.made%deepEvery == 0 }

const (
	deepRoundTrips = 100
	deepEvery      = 8
)

// samePointer reports whether a and b are the same non-nil pointer.
func samePointer(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.Kind() == reflect.Pointer && vb.Kind() == reflect.Pointer && !va.IsNil() && va.Pointer() == vb.Pointer()
}

// decodeBytes checks that enc, an encoding of build k, has the size first
// measured (within sizeSlack) and decodes to the reference, and returns
// the decoded value.
func (p *Prepared) decodeBytes(enc []byte, k int) (any, error) {
	if d := len(enc) - len(p.Msgs[k]); d > len(p.Msgs[k])/sizeSlack || -d > len(p.Msgs[k])/sizeSlack {
		return nil, checkErr(results.Failed, "an encoding of %d bytes where the first was %d: the size reported is not the size timed", len(enc), len(p.Msgs[k]))
	}
	if err := p.Case.Decode(slices.Clone(enc)); err != nil {
		return nil, checkErr(results.Failed, "decode of a later encoding: %v", err)
	}
	got, err := p.Case.Value()
	if err != nil {
		return nil, checkErr(results.Error, "converting the decoded value: %v", err)
	}
	return got, p.compare(k, got)
}

// unchanged checks that the value decoded before the last decode (prev)
// is still its build's, unless the codec declares that a decode reuses
// its target.
func (p *Prepared) unchanged() error {
	if p.prev == nil || p.info.ReusesTarget {
		return nil
	}
	err := p.compare(p.prevBuild, p.prev)
	var ce *CheckError
	if errors.As(err, &ce) {
		ce.Reason = "the next Decode changed the value decoded before it: the case reuses its target " +
			"(declare codec.Info.ReusesTarget if that is the codec's documented behaviour): " + ce.Reason
	}
	return err
}

// sizeSlack: a later encoding may differ from the first by 1/sizeSlack of
// its size. A codec that writes a map in its iteration order (gob, with
// interface values) varies by a few bytes from one encoding to the next;
// one whose encoding grows with every call soon leaves that range.
const sizeSlack = 100

// checkRoundTrips is how many round trips are made after a job is timed:
// enough to catch a codec that goes wrong once in a thousand calls. A
// message larger than checkBytes/checkRoundTrips gets fewer, checkBytes
// of messages in all (as much as its pool holds) but never fewer than
// minCheckRoundTrips: a YAML
// codec's round trip of a 2 MB document takes a second, and a thousand of
// them a quarter of an hour. A budget long enough makes more, up to
// 1/checkShare of it.
const (
	checkRoundTrips    = 1000
	checkBytes         = PoolBytes
	minCheckRoundTrips = 20
	checkShare         = 20
	// SmallMessage is the size up to which conformance makes all its
	// round trips.
	SmallMessage = 4 << 10
)

// Floors are what a benchmark's figure is held against
// (results.MarkImplausible), timed beside it, as the codec's operation is:
// through the runner's loop and the Case interface, or, for a self-timed
// case (direct), by loops that call nothing indirectly.
type floors struct {
	copyNs     float64 // copying the encoding's size bytes
	copyBaseNs float64 // copying one byte: a copy's fixed cost
	loopNs     float64 // the loop around a case that does nothing; 0 when direct
	cycleNs    float64 // one iteration of a loop carrying a one-cycle dependency: a cycle, when direct
}

// floorRounds is how many rounds floorTimes takes: each times a batch of
// every loop, and each loop keeps its fastest batch.
const floorRounds = 7

// floorTimes measures the floors of an encoding of size bytes, in ns per
// iteration. The loops are timed in turn, round after round, in batches of
// about 200µs, and each keeps its fastest batch: a busy phase of a shared
// machine then raises none of them alone, so that a difference of two
// (the bytes' share of the copy) is not one loop's bad luck.
func (r *Runner) floorTimes(size int, direct bool) floors {
	copyOf := func(size int) loop {
		src := make([]byte, size)
		var dst []byte
		if direct {
			return func(n int) error {
				for range n {
					dst = append(dst[:0], src...)
				}
				return nil
			}
		}
		c := copier(func() ([]byte, error) { dst = append(dst[:0], src...); return dst, nil })
		return plainLoop(c)
	}
	loops := []loop{copyOf(size), copyOf(1)}
	if !direct {
		loops = append(loops, nopLoop(r.now))
		best := r.fastestOf(loops)
		return floors{copyNs: best[0], copyBaseNs: best[1], loopNs: best[2]}
	}
	best := r.fastestOf(append(loops, cycleLoop))
	return floors{copyNs: best[0], copyBaseNs: best[1], cycleNs: best[2]}
}

// fastestOf times loops in turn, round after round, in batches of about
// 200µs (calibrated on the first), and returns each one's fastest batch,
// in ns per iteration.
func (r *Runner) fastestOf(loops []loop) []float64 {
	n := 1
	for n < 1<<24 {
		d, err := r.timeBatch(loops[0], n)
		if err != nil || d >= 200*time.Microsecond {
			break
		}
		n *= 4
	}
	best := make([]float64, len(loops))
	for range floorRounds {
		for i, l := range loops {
			d, _ := r.timeBatch(l, n)
			ns := float64(d.Nanoseconds()) / float64(n)
			if best[i] == 0 || ns < best[i] {
				best[i] = ns
			}
		}
	}
	return best
}

type copier func() ([]byte, error)

func (f copier) Encode() ([]byte, error) { return f() }

// cycleLoop runs n iterations of an addition that depends on the last:
// one cycle each, at the least, on any CPU. No loop of n iterations of an
// operation, however inlined, runs faster.
func cycleLoop(n int) error {
	x := uint64(n)
	for i := range n {
		x += uint64(i)
	}
	cycleSink = x
	return nil
}

// cycleSink keeps cycleLoop's result alive.
var cycleSink uint64

// Work is what preparing a job and checking its ops after timing cost,
// in calls of each kind: builds of the value, encodes, decodes (each
// with its Value) and comparisons (verify.Equal), each about one walk of
// the value. Bounded is how many of the ops make more round trips while
// their budget lasts. An estimate multiplies each kind by the time one
// such call takes on the machine (measure.Calibrate).
type Work struct {
	Builds, Encodes, Decodes, Compares float64
	Bounded                            int
}

// Calls returns the calls of every kind.
func (w Work) Calls() float64 { return w.Builds + w.Encodes + w.Decodes + w.Compares }

// Checks returns the Work of preparing a job and checking its ops ops,
// its messages being size bytes:
//   - the pool: each build made twice (the value and its reference),
//     encoded, decoded and compared, build 0 once more, and the job's
//     Value;
//   - each op's round trips after timing (checkSplit's must): an encode,
//     two decodes and about three comparisons each;
//   - each op's unseen builds: each built twice, encoded and decoded
//     beside a pool build, and compared; and a decode for the heap a
//     value keeps.
func Checks(size, ops int) Work {
	pool := float64(poolSize(size))
	m, more := checkSplit((checkRoundTrips+max(ops, 1)-1)/max(ops, 1), size, 1)
	must := float64(m)
	unseen := float64(max(2, min(unseenCount, unseenBytes/max(size, 1))))
	n := float64(ops)
	w := Work{
		Builds:   2*pool + 1 + n*2*unseen,
		Encodes:  pool + 1 + n*(must+2*unseen),
		Decodes:  pool + 1 + n*(2*must+2*unseen+1),
		Compares: pool + 1 + n*(3*must+2*unseen),
	}
	if more > 0 {
		w.Bounded = ops
	}
	return w
}
