package conformance_test

import (
	"os"
	"testing"

	"github.com/serbench/serbench/conformance"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
)

// TestRegistry runs every registered codec over every dataset and shape it
// claims. SERBENCH_LARGE=1 adds the multi-megabyte cases.
func TestRegistry(t *testing.T) {
	large := os.Getenv("SERBENCH_LARGE") == "1"
	for _, info := range registry.Codecs {
		t.Run(info.Name, func(t *testing.T) {
			t.Parallel()
			conformance.Test(t, info, dataset.All, conformance.Options{Large: large})
		})
	}
}
