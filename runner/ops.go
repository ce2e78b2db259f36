package runner

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
)

// An operation says how the runner times one op (results.Op). Every op
// the runner knows is one entry of operations, set in the file of the op
// (encode and decode below); prepare looks the op up there and nowhere
// else, so that a new op is one file: its loop, how its timed iterations
// are verified, and what the checks after timing compare its figure with.
type operation struct {
	// build returns the timed loop of the op over prepared job p, the
	// control that orders its pool and verifies random timed iterations,
	// and, for a self-timed codec, the same operation through the Case
	// interface (path, timed beside it). A *CheckError with status
	// Skipped says the codec cannot do the op, with the reason.
	build func(p *Prepared, o opInput) (lp loop, ctl *control, path loop, err error)

	// judge sets res.CheckNsPerOp from what the checks after timing saw
	// of the op's calls (q turns a list of call times into the figure the
	// timed median is held to), and returns a flag when the op's own rule
	// finds its figure unbelievable ("" when it does not).
	judge func(p *Prepared, res *results.Result, q func([]time.Duration) float64) (flag string)
}

// opInput is what an operation's build gets besides the prepared job.
type opInput struct {
	job     *Job
	loopers []codec.Looper // the cases' Loopers when the codec is self-timed, else nil
	seed    uint64         // seeds the control's draws
	now     func() time.Time
}

// operations holds every op the runner can time.
var operations = map[results.Op]operation{}

// registerOp adds op to operations; each op's file calls it from init.
func registerOp(op results.Op, o operation) {
	if _, dup := operations[op]; dup {
		panic(fmt.Sprintf("runner: op %q registered twice", op))
	}
	operations[op] = o
}

func init() {
	registerOp(results.Encode, operation{
		build: func(p *Prepared, o opInput) (loop, *control, loop, error) {
			verify := func(k int, enc []byte) error { return p.checkBytes(enc, k) }
			// An encoding is verified at the sample's end, on a copy
			// taken on the spot (control.later).
			ctl := newControl(len(p.Msgs), o.seed, o.now, verify)
			ctl.copyEnc = true
			if o.loopers != nil {
				plain := newControl(len(p.Msgs), o.seed, o.now, verify)
				plain.copyEnc = true
				return selfEncodeLoop(o.loopers, ctl), ctl, encodeLoop(p.Cases, plain), nil
			}
			return encodeLoop(p.Cases, ctl), ctl, nil, nil
		},
		judge: func(p *Prepared, res *results.Result, q func([]time.Duration) float64) string {
			res.CheckNsPerOp = q(p.times.encode)
			return ""
		},
	})
	registerOp(results.Decode, operation{
		build: func(p *Prepared, o opInput) (loop, *control, loop, error) {
			ctl := newControl(len(p.Msgs), o.seed, o.now, nil)
			ctl.verify = p.verifyDecoded(ctl)
			lazy := o.job.Codec.TimesValue()
			if o.loopers != nil {
				plain := newControl(len(p.Msgs), o.seed, o.now, nil)
				plain.verify = p.verifyDecoded(plain)
				return selfDecodeLoop(o.loopers[0], p.Msgs, ctl), ctl, decodeLoop(p.Case, p.Msgs, lazy, plain), nil
			}
			return decodeLoop(p.Case, p.Msgs, lazy, ctl), ctl, nil, nil
		},
		judge: func(p *Prepared, res *results.Result, q func([]time.Duration) float64) string {
			dec, val := q(p.times.decode), q(p.times.value)
			res.CheckNsPerOp, res.ValueNs = dec, val
			if p.info.TimesValue() {
				res.CheckNsPerOp = dec + val
			} else if !p.info.ValueConverts && val > dec+checkSlack {
				return fmt.Sprintf("Value takes %.3gns where Decode takes %.3gns: the decoding is done in Value, which the timed loop does not call "+
					"(a lazy codec declares codec.Info.Lazy, and Value is timed with Decode)", val, dec)
			}
			p.recordCopy(res, q)
			return ""
		},
	})
}

// verifyDecoded returns the decode op's verification for ctl: Value on
// the spot, as the last Decode left it, and the comparison with the
// reference at the sample's end (control.later), unless the next Decode
// may change the value (codec.Info.ReusesTarget).
func (p *Prepared) verifyDecoded(ctl *control) func(int, []byte) error {
	if p.info.ReusesTarget {
		return func(k int, _ []byte) error { return p.checkDecoded(k) }
	}
	type held struct {
		got any
		k   int
	}
	var waiting []held // the values this sample's comparisons wait for
	return func(k int, _ []byte) error {
		got, err := p.Case.Value()
		if err != nil {
			return checkErr(results.Error, "converting the decoded value: %v", err)
		}
		if len(ctl.later) == 0 {
			waiting = waiting[:0] // settled
		}
		for _, h := range waiting {
			if samePointer(got, h.got) {
				return checkErr(results.Failed, "two decodes in the timed loop, of messages %d and %d of %d, handed back the very same value: a memo of earlier results, or one target reused "+
					"(declare codec.Info.ReusesTarget if that is the codec's documented behaviour)", h.k+1, k+1, len(p.Msgs))
			}
		}
		waiting = append(waiting, held{got, k})
		ctl.later = append(ctl.later, func() error {
			err := p.compare(k, got)
			if err == nil {
				return nil
			}
			if last, verr := p.Case.Value(); verr == nil && samePointer(last, got) {
				return checkErr(results.Failed, "a decode in the timed loop, of message %d of %d, and the last one handed back the very same value, which the decodes between them changed: "+
					"a memo of earlier results, or one target reused (declare codec.Info.ReusesTarget if that is the codec's documented behaviour)", k+1, len(p.Msgs))
			}
			var ce *CheckError
			if errors.As(err, &ce) {
				ce.Reason += " (compared at the sample's end: a value that the decodes after it changed is one target reused, " +
					"which a codec declares as codec.Info.ReusesTarget)"
			}
			return err
		})
		return nil
	}
}

// LeftOut returns why codec c takes no part in op, or "" when it does:
// an in-place reader (codec.Info.ReadsOnly) reads another codec's
// encodings and takes part in results.ReaderOps only; its encode and
// decode would be the other codec's.
func LeftOut(c codec.Info, op results.Op) string {
	if c.ReadsOnly == "" || slices.Contains(results.ReaderOps, op) {
		return ""
	}
	return fmt.Sprintf("%s is an in-place reader of %s's encodings, not a codec: it takes part in %v only", c.Name, c.ReadsOnly, results.ReaderOps)
}

// OpsOf returns the ops of ops that codec c takes part in (LeftOut).
func OpsOf(c codec.Info, ops []results.Op) []results.Op {
	return slices.DeleteFunc(slices.Clone(ops), func(op results.Op) bool { return LeftOut(c, op) != "" })
}
