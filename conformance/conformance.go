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
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/verify"
)

// Options tunes a conformance run.
type Options struct {
	// Large includes the slices of Huge and the complex map (69,000 Bigs
	// each), which take seconds to minutes per codec. They add no new
	// structure to Huge itself, and the runner verifies them anyway
	// before it times them.
	Large bool
}

// large reports whether a dataset shape is one of the multi-megabyte cases.
func large(d *dataset.Dataset, s dataset.Shape) bool {
	return d.Name == "complexmap" || d.Name == "complexmapptr" || (d.Name == "complexmap5" && s != dataset.Single) || (d.Name == "huge" && s != dataset.Single)
}

// Test runs info's codec over every shape of every dataset in ds (the
// extra-large ones excepted) as subtests, then checks that each declared
// loss was observed at least once.
func Test(t *testing.T, info codec.Info, ds []*dataset.Dataset, opts Options) {
	t.Helper()
	if err := info.Validate(); err != nil {
		t.Fatal(err)
	}
	observed := map[codec.LossKind]bool{}
	for _, d := range ds {
		for _, s := range d.Shapes() {
			if d.IsXL(s) || (!opts.Large && large(d, s)) {
				continue
			}
			t.Run(d.Name+"/"+string(s), func(t *testing.T) {
				for _, k := range Check(t, info, d, s) {
					observed[k] = true
				}
			})
		}
	}
	if t.Failed() || len(ds) < len(dataset.All) {
		return
	}
	for _, l := range info.Losses {
		if !observed[l.Kind] {
			t.Errorf("%s declares loss %s, but no dataset shows it: remove the declaration or add a dataset that exercises it", info.Name, l)
		}
	}
}

// Check round-trips dataset d in shape s through info's codec and reports
// test failures on t, with the runner's own checks (runner.Prepare): the
// dataset's value and a second, distinct build of it, each decoded and
// compared, encoding again at the same size, then checkRoundTrips more
// round trips alternating the two, as after a timed run. It returns the
// declared losses the round trip showed.
func Check(t testing.TB, info codec.Info, d *dataset.Dataset, s dataset.Shape) []codec.LossKind {
	t.Helper()
	if _, err := d.Value(s); err != nil {
		t.Fatal(err)
	}
	job := runner.Job{
		Codec: info, Dataset: d.Name, Shape: string(s), Ops: results.Ops,
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
	n := checkRoundTrips
	if len(p.Msgs[0]) > runner.SmallMessage {
		n = 2 // a few large values cost what a thousand small ones do
	}
	if _, err := p.RoundTrips(n, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if large(d, s) {
		return nil // the small datasets exercise every loss, and faster
	}
	// The case holds the last decode of message 1 (RoundTrips ends on it
	// when n is even).
	if err := p.Case.Decode(p.Msgs[0]); err != nil {
		t.Fatal(err)
	}
	got, err := p.Case.Value()
	if err != nil {
		t.Fatal(err)
	}
	ref := p.Ref(0)
	var shown []codec.LossKind
	for i, l := range info.Losses {
		without := slices.Delete(slices.Clone(info.Losses), i, i+1)
		if verify.Equal(ref, got, without) != nil {
			shown = append(shown, l.Kind)
		}
	}
	return shown
}

// checkRoundTrips is how many round trips Check makes on an encoding of up
// to runner.SmallMessage bytes, as the runner does after timing: enough to
// catch a codec that goes wrong once in a thousand calls.
const checkRoundTrips = 1000
