package registry_test

import (
	"reflect"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
)

// TestCoverage checks that every codec with a schema or generated code
// covers every dataset in dataset.All, in every shape, unless the type has
// a feature the codec declares Unsupported or the codec lists the dataset
// in Info.Omits with a reason; and that Omits names only datasets that
// exist and that the codec leaves out. Coverage is by type, so it prepares
// zero values: the conformance test round-trips the real ones.
func TestCoverage(t *testing.T) {
	for _, info := range registry.Codecs {
		if info.API != codec.Codegen && info.API != codec.Schema {
			if len(info.Omits) != 0 {
				t.Errorf("%s: Omits is for codecs with a schema or generated code, not %s ones", info.Name, info.API)
			}
			continue
		}
		for name, why := range info.Omits {
			if _, err := dataset.Lookup(name); err != nil {
				t.Errorf("%s: Omits: %v", info.Name, err)
			}
			if why == "" {
				t.Errorf("%s: Omits %s without a reason", info.Name, name)
			}
		}
		for _, d := range dataset.All {
			why, omitted := info.Omits[d.Name]
			for _, s := range d.Shapes() {
				typ := shapeType(d, s)
				if info.Supports(typ.String(), codec.FeaturesOf(typ)) != nil {
					continue // declared as data already
				}
				_, err := info.New().Prepare(reflect.New(typ.Elem()).Interface())
				switch {
				case codec.IsUnsupported(err) && !omitted:
					t.Errorf("%s leaves out dataset %s (%s): %v; cover it, or list it in Info.Omits with the reason", info.Name, d.Name, s, err)
				case err == nil && omitted:
					t.Errorf("%s covers dataset %s (%s) but Omits lists it (%q): remove it from Omits", info.Name, d.Name, s, why)
				case err != nil && !codec.IsUnsupported(err):
					t.Errorf("%s: Prepare of a zero %s: %v", info.Name, typ, err)
				}
			}
		}
	}
}

// shapeType returns the type of dataset d's values in shape s: *T, *[]T
// or *[]*T.
func shapeType(d *dataset.Dataset, s dataset.Shape) reflect.Type {
	t := d.Type()
	switch s {
	case dataset.Slice:
		t = reflect.SliceOf(t)
	case dataset.PtrSlice:
		t = reflect.SliceOf(reflect.PointerTo(t))
	}
	return reflect.PointerTo(t)
}
