package fidelity

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/codec"
)

// TestNormNames checks that a cell's normalisation names its losses and
// nothing else: Derive reads the losses back from the name (normLosses),
// and verify's rules say what each allows.
func TestNormNames(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range relaxations[1:] {
		name := r.name()
		if name == "" || seen[name] {
			t.Errorf("relaxation %+v is named %q, which is empty or names another", r, name)
		}
		seen[name] = true
		got := normLosses(name)
		for _, l := range r.losses() {
			if l.Kind == codec.Monotonic && r.zone == 2 {
				continue // "offset" names the zone's name lost, the monotonic reading with it
			}
			if !slices.Contains(got, l) {
				t.Errorf("%q reads back as %v, without %v", name, got, l)
			}
		}
		if len(got) > len(r.losses()) {
			t.Errorf("%q reads back as %v, more than %v", name, got, r.losses())
		}
	}
}
