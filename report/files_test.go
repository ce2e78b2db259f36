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

// TestMatrixFiles: the matrices a directory holds are read with their
// reproducers, written again beside a run's files and shown by them; a
// new matrix replaces the last one's reproducers; a matrix of an older
// serbench is an error that says what to do, and other JSON is left
// alone.
func TestMatrixFiles(t *testing.T) {
	dir := t.TempDir()
	h := fixture.Hostile()
	h.Cells[4].Repro.Data = []byte{0xdd, 0xff, 0xff, 0xff, 0xff, 0x83}
	if err := report.WriteMatrix(dir, h); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.json"), []byte(`{"mine": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := report.ReadMatrices(dir)
	if err != nil || len(ms) != 1 {
		t.Fatalf("ReadMatrices: %d matrices, %v; want the hostile one", len(ms), err)
	}
	if r := ms[0].Cell("msgpack", "long-array").Repro; r == nil || len(r.Data) != 6 || r.File != "hostile/msgpack-long-array.bin" {
		t.Errorf("the reproducer read back: %+v", r)
	}
	if r := ms[0].Cell("msgpack", "deep-array").Repro; r == nil || r.File != "" {
		t.Errorf("a reproducer without its bytes still names a file: %+v", r)
	}

	out := filepath.Join(dir, "again")
	if err := report.WriteMatrices(out, ms); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.html", "summary.md", "hostile.json", "hostile.csv", "hostile/msgpack-long-array.bin"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("WriteMatrices: %v", err)
		}
	}
	run := fixture.Run()
	if err := report.WriteFiles(dir, run); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "report.html")); !strings.Contains(string(b), `<section id="hostile"`) {
		t.Error("report.html beside a hostile matrix lacks its section")
	}

	empty := fixture.Hostile()
	if err := report.WriteMatrix(dir, empty); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "hostile/msgpack-long-array.bin")); err == nil {
		t.Error("the last matrix's reproducer is still there")
	}

	if err := os.WriteFile(filepath.Join(dir, "fidelity.json"), []byte(`{"codecs":[{"name":"a"}],"probes":[{"name":"p"}],"cells":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err = report.ReadMatrices(dir)
	if err == nil || !strings.Contains(err.Error(), "with: serbench fidelity -o") || len(ms) != 1 {
		t.Errorf("an older fidelity.json: %d matrices, %v; want the hostile one and an error saying to write it again", len(ms), err)
	}
	// Beside a run, it costs its section, not the run's outputs.
	run = fixture.Run()
	if err := report.WriteFiles(dir, run); err != nil {
		t.Fatal(err)
	}
	if len(run.Matrices) != 1 || !strings.Contains(strings.Join(run.Warnings, " "), "fidelity.json: a matrix written by an older serbench") {
		t.Errorf("WriteFiles beside an older fidelity.json: %d matrices, warnings %q", len(run.Matrices), run.Warnings)
	}
}
