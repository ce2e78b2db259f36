// Package golden compares renderers' output with testdata/*.golden files.
// Run the tests with -update to rewrite the files from the current output.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden files from the current output")

// Check compares got with the file testdata/name, or rewrites the file
// when the test runs with -update. A mismatch fails t with a unified diff.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v; run the test with -update to create it", err)
	}
	if string(got) == string(want) {
		return
	}
	diff, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(want)), B: difflib.SplitLines(string(got)),
		FromFile: path, ToFile: "got", Context: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Errorf("output differs from %s (run with -update if the change is right):\n%s", path, diff)
}
