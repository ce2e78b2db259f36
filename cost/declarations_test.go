package cost_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/registry"
)

// TestDeclarations checks every codec's declared JIT and generator
// (codec.Adoption) against what its packages hold: a dependency that
// maps memory executable, generated files. It lists the packages
// without building them, so it covers the whole registry cheaply.
func TestDeclarations(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, _ := filepath.Abs("..")
	adapters, err := cost.Locate(root, registry.Names())
	if err != nil {
		t.Fatal(err)
	}
	rows, err := cost.ListAdapters(context.Background(), root, adapters)
	if err != nil {
		t.Fatal(err)
	}
	jit, generated := 0, 0
	for _, info := range registry.Codecs {
		row := rows[info.Name]
		for _, c := range cost.Contradictions(info.Adopt, row.Deps, row.Code) {
			t.Errorf("%s: %s", info.Name, c)
		}
		if len(row.Deps.JIT) > 0 {
			jit++
		}
		if row.Code.Generated > 0 {
			generated++
		}
	}
	// The check can fail: some codec JITs, some has generated code.
	if jit == 0 || generated == 0 {
		t.Errorf("%d codecs JIT and %d have generated code; want some of each, or the measurement measures nothing", jit, generated)
	}
}
