package cost_test

import (
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/registry"
)

// TestLocate checks that every registered codec is found in exactly one
// adapter package, by the expression a generated main uses.
func TestLocate(t *testing.T) {
	root, _ := filepath.Abs("..")
	got, err := cost.Locate(root, registry.Names())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"cbor-nano": "cbor.Nano", "mus": "mus.Std", "seed004-binary": "seed004.Binary",
		"thrift-compact": "thrift.Compact", "json": "json.Std",
	} {
		if got[name].Expr != want {
			t.Errorf("%s: got %q, want %q", name, got[name].Expr, want)
		}
	}
}
