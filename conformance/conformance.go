// Package conformance checks that a codec round-trips every dataset it
// claims, exactly or within the losses it declares, and that every loss it
// declares really occurs on some dataset. serbench runs it over every
// registered codec; a codec author can run it over a new adapter:
//
//	func TestMyCodec(t *testing.T) {
//		conformance.Test(t, mycodec.Info, dataset.All, conformance.Options{})
//	}
package conformance

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/verify"
)

// Options tunes a conformance run.
type Options struct {
	// Large includes the slices of Huge and the complex map (69,000 Bigs
	// each), and the corpora of a megabyte or more (citm_catalog,
	// golang_source, synthea_fhir), which take seconds to minutes per
	// codec (a YAML codec takes a minute on synthea_fhir). The slices add
	// no new structure to Huge itself; the smaller corpora hold every
	// kind of value the large ones do but their unions and deep trees;
	// and the runner verifies every case anyway before it times it.
	Large bool
}

// large reports whether a dataset shape is one of the multi-megabyte cases.
func large(d *dataset.Dataset, s dataset.Shape) bool {
	return d.Name == "complexmap" || d.Name == "complexmapptr" || (d.Name == "complexmap5" && s != dataset.Single) || (d.Name == "huge" && s != dataset.Single) ||
		d.Corpus != nil && d.Corpus.Size >= 1<<20
}

// Test runs info's codec over every shape of every dataset in ds (the
// extra-large ones excepted) as parallel subtests, then checks that each
// declared loss was observed at least once. The subtests are named
// light/DATASET/SHAPE, and heavy/DATASET/SHAPE for the cases of hundreds
// of kilobytes or more, which run after the light ones: those show every
// loss the registry's codecs declare, so a heavy case probes only for a
// loss not seen yet, which a run that passes never needs.
func Test(t *testing.T, info codec.Info, ds []*dataset.Dataset, opts Options) {
	t.Helper()
	if err := info.Validate(); err != nil {
		t.Fatal(err)
	}
	type kase struct {
		d *dataset.Dataset
		s dataset.Shape
	}
	var cases, heavy []kase
	for _, d := range ds {
		for _, s := range d.Shapes() {
			switch {
			case d.IsXL(s) || (!opts.Large && large(d, s)):
			case large(d, s) || multiMegabyte(d, s):
				heavy = append(heavy, kase{d, s})
			default:
				cases = append(cases, kase{d, s})
			}
		}
	}
	var observed losses
	for _, group := range []struct {
		name  string
		cases []kase
	}{{"light", cases}, {"heavy", heavy}} {
		// A group's subtests run in parallel; t.Run of the group returns
		// when all of them have ended.
		t.Run(group.name, func(t *testing.T) {
			for _, k := range group.cases {
				t.Run(k.d.Name+"/"+string(k.s), func(t *testing.T) {
					t.Parallel()
					observed.add(check(t, info, k.d, k.s, observed.missing(info.Losses)))
				})
			}
		})
	}
	if t.Failed() || len(ds) < len(dataset.All) {
		return
	}
	// A declared loss needs evidence: a dataset that shows it, or else a
	// fidelity probe, for a codec that takes no dataset able to show it
	// (encoding/asn1 takes no dataset with a time or a nil slice).
	var shown map[string]string
	for _, l := range info.Losses {
		if observed.has(l.Kind) {
			continue
		}
		if shown == nil {
			shown = fidelity.Shown(info)
		}
		if shown[l.String()] == "" {
			t.Errorf("%s declares loss %s, but neither a dataset nor a fidelity probe shows it: remove the declaration or add a dataset that exercises it", info.Name, l)
		}
	}
}

// multiMegabyte reports whether a dataset shape Test includes encodes to
// hundreds of kilobytes or more (huge's single value, complexmap5's): the
// cases that cost the most per round trip.
func multiMegabyte(d *dataset.Dataset, s dataset.Shape) bool {
	return s == dataset.Single && (d.Name == "huge" || d.Name == "complexmap5")
}

// losses is the set of loss kinds the subtests of a codec have observed,
// safe for its parallel subtests.
type losses struct {
	mu   sync.Mutex
	seen map[codec.LossKind]bool
}

func (o *losses) add(ks []codec.LossKind) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[codec.LossKind]bool{}
	}
	for _, k := range ks {
		o.seen[k] = true
	}
}

func (o *losses) has(k codec.LossKind) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.seen[k]
}

// missing returns the declared losses not observed yet.
func (o *losses) missing(declared []codec.Loss) []codec.Loss {
	var out []codec.Loss
	for _, l := range declared {
		if !o.has(l.Kind) {
			out = append(out, l)
		}
	}
	return out
}

// Check round-trips dataset d in shape s through info's codec and reports
// test failures on t, with the runner's own checks (runner.Prepare): the
// dataset's value and a second, distinct build of it, each decoded and
// compared, encoding again at the same size, then checkRoundTrips more
// round trips alternating the two, as after a timed run, and, for a codec
// with a streaming API, both written through one Encoder and read back
// (runner.Prepared.CheckStream). It returns the declared losses the
// round trip showed.
func Check(t testing.TB, info codec.Info, d *dataset.Dataset, s dataset.Shape) []codec.LossKind {
	t.Helper()
	return check(t, info, d, s, info.Losses)
}

// check is Check, probing only for the losses in probe.
func check(t testing.TB, info codec.Info, d *dataset.Dataset, s dataset.Shape, probe []codec.Loss) []codec.LossKind {
	t.Helper()
	job := runner.Job{
		Codec: info, Dataset: d.Name, Shape: string(s), Ops: results.Ops, Reads: d.Reads(),
		Value: func() (any, error) { return d.Value(s) },
		Alt:   func() (any, error) { return d.ValueAt(s, 1) },
	}
	p, err := runner.Prepare(&job)
	var ce *runner.CheckError
	if errors.As(err, &ce) && ce.Status == results.Skipped {
		t.Skip(ce.Reason)
	}
	if err != nil {
		t.Fatal(err)
	}
	// The reading ops of a codec that reads in place (codec.Getter) and
	// of an in-place reader, on every message of the pool: a reader's
	// round trips are those of the codec whose encodings it reads.
	_, getter := p.Case.(codec.Getter)
	if getter || info.ReadsOnly != "" {
		ops := []results.Op{results.GetAll}
		if info.ReadsOnly != "" {
			ops = results.ReaderOps
		}
		for _, op := range ops {
			if err := p.CheckOp(&job, op); err != nil {
				t.Errorf("%s: %v", op, err)
			}
		}
	}
	n := checkRoundTrips
	switch {
	case info.ReadsOnly != "":
		n = 0
	case multiMegabyte(d, s):
		// Prepare has made the round trip of both messages and encoded
		// the first again at its size; more round trips would repeat
		// that on a value that costs what a thousand small ones do. The
		// light cases make the thousand round trips of both messages.
		n = 0
	case len(p.Msgs[0]) > runner.SmallMessage:
		n = 2 // a few large values cost what a thousand small ones do
	}
	if _, err := p.RoundTrips(n, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if !multiMegabyte(d, s) && !large(d, s) {
		if err := p.CheckStream(&job); err != nil && !(errors.As(err, &ce) && ce.Status == results.Skipped) {
			t.Fatalf("its streaming API: %v", err)
		}
	}
	if large(d, s) || len(probe) == 0 {
		return nil
	}
	// The case holds its last verified decode: of message 2 after
	// RoundTrips (n is even), of message 1 after Prepare alone.
	got, err := p.Case.Value()
	if err != nil {
		t.Fatal(err)
	}
	ref := p.Ref(1)
	if n == 0 {
		ref = p.Ref(0)
	}
	var shown []codec.LossKind
	for _, l := range probe {
		without := slices.DeleteFunc(slices.Clone(info.Losses), func(x codec.Loss) bool { return x == l })
		if verify.Equal(ref, got, without) != nil {
			shown = append(shown, l.Kind)
		}
	}
	return shown
}

// checkRoundTrips is how many round trips Check makes on an encoding of up
// to runner.SmallMessage bytes, as the runner does after timing: enough to
// catch a codec that goes wrong once in a thousand calls. It is even, so
// that the last round trip is of message 2.
const checkRoundTrips = 1000
