package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/results"
)

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "summary.md"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteFiles(dir, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got, want := strings.Join(names, " "), "report.html results.bench results.csv results.json summary.md"; got != want {
		t.Errorf("files written: %s; want %s (no temporary file left)", got, want)
	}
	f, err := os.Open(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := results.ReadJSON(f, "results.json")
	if err != nil || len(run.Results) != len(fixture.Run().Results) {
		t.Errorf("results.json read back: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "summary.md")); string(b) == "old" {
		t.Error("summary.md was not replaced")
	}
	// A missing directory is created, not reported as a missing temporary file.
	if err := report.WriteFiles(filepath.Join(dir, "missing", "sub"), fixture.Run()); err != nil {
		t.Errorf("WriteFiles into a missing directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing", "sub", "report.html")); err != nil {
		t.Errorf("WriteFiles into a missing directory wrote no report.html: %v", err)
	}
	file := filepath.Join(dir, "afile")
	os.WriteFile(file, nil, 0o644)
	if err := report.WriteFiles(filepath.Join(file, "sub"), fixture.Run()); err == nil || !strings.Contains(err.Error(), "writing the outputs") {
		t.Errorf("WriteFiles under a file: %v; want an error saying the outputs could not be written", err)
	}
}
