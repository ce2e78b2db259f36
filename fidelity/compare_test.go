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

// TestCompareDigits checks that a cell names the most float digits under
// which the values still compare equal, with the other losses it needs.
func TestCompareDigits(t *testing.T) {
	type floats struct {
		F []float64
		S []int
	}
	tests := []struct {
		name      string
		want, got floats
		norm      string
	}{
		{"exact", floats{F: []float64{0.6046602879796196}}, floats{F: []float64{0.6046602879796196}}, ""},
		{"6 decimals", floats{F: []float64{0.6046602879796196, 1234.5678901}}, floats{F: []float64{0.60466, 1234.56789}}, "6 digits"},
		{"15 digits", floats{F: []float64{0.6046602879796196}}, floats{F: []float64{0.604660287979620}}, "15 digits"},
		{"3 digits and nil for empty", floats{F: []float64{0.6046602879796196}, S: []int{}}, floats{F: []float64{0.605}}, "3 digits,nil≡empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			norm, err := compare(&tt.want, &tt.got)
			if err != nil || norm != tt.norm {
				t.Errorf("compare = %q, %v; want %q", norm, err, tt.norm)
			}
		})
	}
}
