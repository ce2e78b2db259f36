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
	"reflect"
	"slices"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
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
	return d.Name == "complexmap" || (d.Name == "huge" && s != dataset.Single)
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
// test failures on t. It returns the declared losses the round trip showed.
func Check(t testing.TB, info codec.Info, d *dataset.Dataset, s dataset.Shape) []codec.LossKind {
	t.Helper()
	v, err := d.Value(s)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := d.Value(s)
	typ := reflect.TypeOf(v)
	if err := info.Supports(typ.String(), codec.FeaturesOf(typ)); err != nil {
		t.Skip(err)
	}
	c, err := info.New().Prepare(v)
	if codec.IsUnsupported(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	data, err := c.Encode()
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	data = slices.Clone(data)
	// Decode twice: the timed loop decodes the same bytes over and over.
	var got any
	for i := range 2 {
		if err := c.Decode(data); err != nil {
			t.Fatalf("Decode #%d of its own encoding: %v", i+1, err)
		}
		if got, err = c.Value(); err != nil {
			t.Fatalf("Value: %v", err)
		}
		if err := verify.Equal(ref, got, info.Losses); err != nil {
			t.Fatalf("round trip #%d: %v", i+1, err)
		}
	}
	// Encoding again must give a message of the same size: the timed
	// encode loop measures that message, not the first one.
	again, err := c.Encode()
	if err != nil {
		t.Fatalf("second Encode: %v", err)
	}
	if len(again) != len(data) {
		t.Errorf("second Encode gave %d bytes, the first %d: the size reported would not be the size timed", len(again), len(data))
	}
	var shown []codec.LossKind
	if large(d, s) {
		return nil // the small datasets exercise every loss, and faster
	}
	for i, l := range info.Losses {
		without := slices.Delete(slices.Clone(info.Losses), i, i+1)
		if verify.Equal(ref, got, without) != nil {
			shown = append(shown, l.Kind)
		}
	}
	return shown
}
