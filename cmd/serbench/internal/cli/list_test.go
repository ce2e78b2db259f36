package cli

import (
	"cmp"
	"slices"
	"testing"

	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/interop"
	"github.com/serbench/serbench/study"
)

// TestStudyCasesListed checks that the list each study command's help
// points to ("see serbench list costs") exists and lists its cases.
func TestStudyCasesListed(t *testing.T) {
	for _, s := range []*study.Study{fidelity.Spec(), hostile.Spec(false), evolve.Spec(), interop.Spec(nil), cost.Spec(cost.Options{})} {
		word := cmp.Or(s.CaseList, "cases")
		if !slices.Contains(lists, word) {
			t.Errorf("%s: its -%s help says 'see serbench list %s', which is not a list; add it to lists and listingOf (list.go)", s.Matrix.Name, word, word)
			continue
		}
		if got := len(listingOf(word, false).rows); got == 0 {
			t.Errorf("%s: serbench list %s lists nothing", s.Matrix.Name, word)
		}
	}
}
