package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

// smallRun is a run of two codecs on one dataset, one of whose results
// failed when failed is set.
func smallRun(failed bool) *results.Run {
	run := &results.Run{
		Env:     results.Env{GoVersion: "go1", GOOS: "linux", GOARCH: "amd64", Overhead: 1.5},
		Options: results.Options{Target: 0.03, Confidence: 0.95},
	}
	for _, c := range []string{"json", "gob"} {
		for _, op := range results.Ops {
			run.Results = append(run.Results, results.Result{
				Op: op, Codec: c, Dataset: "tiny", Shape: "single", Status: results.OK, Bytes: 40, Items: 1,
				NsPerOp: results.Stat{Median: 1000, Lo: 990, Hi: 1010}, TargetMet: true,
				Samples: []results.Sample{{Iters: 100, NsPerOp: 1000}},
			})
		}
	}
	if failed {
		r := &run.Results[3]
		r.Status, r.Reason, r.NsPerOp = results.Failed, "round trip: lost a field", results.Stat{}
	}
	return run
}

func TestPrepareWorkDir(t *testing.T) {
	d, err := openOut(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	work := d.Work()
	equal(t, "work dir", work, filepath.Join(d.Path(), "partial"))

	// A stale working directory without a journal is cleared.
	mkdir(t, work)
	writeFile(t, filepath.Join(work, "stale"), nil)
	if err := prepareWorkDir(d); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(work, "stale")); !os.IsNotExist(err) {
		t.Errorf("a stale file survived: %v", err)
	}
	// One with a journal is an unfinished run: kept.
	writeFile(t, filepath.Join(work, journal.Name), []byte("{}\n"))
	err = prepareWorkDir(d)
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), Self+" run -resume "+d.Path()) {
		t.Errorf("over an unfinished run: %v; want a usage error naming -resume", err)
	}
	if _, err := os.Stat(filepath.Join(work, journal.Name)); err != nil {
		t.Errorf("the unfinished run's journal is gone: %v", err)
	}
}

// TestOutputRefusals checks, for each command that writes, that -o naming
// a file or a directory of the user's files is a usage error before any
// work, and that nothing of the user's changes.
func TestOutputRefusals(t *testing.T) {
	for _, cmd := range [][]string{
		{"run", "-codecs", "json", "-datasets", "tiny", "-budget", "10ms", "-in-process"},
		{"report", "RESULTS"},
		{"fidelity", "-codecs", "json", "-probes", "time-utc"},
		{"hostile", "-codecs", "json", "-classes", "empty"},
		{"reproduce", "-claims", "s000-json-small"},
	} {
		for _, target := range []string{"file", "dir"} {
			t.Run(cmd[0]+"/"+target, func(t *testing.T) {
				dir := t.TempDir()
				src := filepath.Join(dir, "results.json")
				f, _ := os.Create(src)
				smallRun(false).WriteJSON(f)
				f.Close()
				out := filepath.Join(dir, "out")
				if target == "file" {
					writeFile(t, out, []byte("mine"))
				} else {
					mkdir(t, out)
					writeFile(t, filepath.Join(out, "notes.txt"), []byte("mine"))
					writeFile(t, filepath.Join(out, "main.go"), []byte("package main"))
				}
				args := append([]string{}, cmd...)
				for i, a := range args {
					if a == "RESULTS" {
						args[i] = src
					}
				}
				err, _, _ := run(append(args, "-o", out)...)
				want := "it is a file"
				if target == "dir" {
					want = "holds files serbench did not write (main.go, notes.txt)"
				}
				if ExitCode(err) != 2 || !strings.Contains(err.Error(), want) {
					t.Fatalf("%s -o %s: %v; want exit status 2 and %q", cmd[0], target, err, want)
				}
				if target == "file" {
					if b, _ := os.ReadFile(out); string(b) != "mine" {
						t.Errorf("the user's file changed: %q", b)
					}
					return
				}
				entries, _ := os.ReadDir(out)
				if len(entries) != 2 {
					t.Errorf("the user's directory holds %d entries, want its 2 files", len(entries))
				}
			})
		}
	}
}

// TestCarryMatrices: a new run into a directory renders the study
// matrices written there before, with their reproducers, and never
// overwrites the work directory's own.
func TestCarryMatrices(t *testing.T) {
	dir := t.TempDir()
	out, work := filepath.Join(dir, "out"), filepath.Join(dir, "out", "partial")
	mkdir(t, work)
	h := results.NewMatrix(hostile.Study, []results.MatrixCodec{{Name: "gob"}}, []results.MatrixCase{{Name: "empty"}, {Name: "truncate"}})
	h.Add(results.MatrixCell{Codec: "gob", Case: "empty", Outcome: hostile.Clean})
	h.Add(results.MatrixCell{Codec: "gob", Case: "truncate", Outcome: hostile.Changed, Repro: &results.Reproducer{Size: 2, Data: []byte{0xdd, 0xff}}})
	f := results.NewMatrix(fidelity.Study, []results.MatrixCodec{{Name: "gob"}}, []results.MatrixCase{{Name: "time-utc"}})
	for _, m := range []*results.Matrix{h, f} {
		m.JudgeAll()
		if err := report.WriteMatrix(out, m); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(out, "results.json"), []byte("old results"))
	writeFile(t, filepath.Join(work, f.FileName()), []byte("the run's own"))
	warning, err := carryMatrices(out, work)
	if err != nil || warning != "" {
		t.Fatalf("carryMatrices: %v, warning %q", err, warning)
	}
	ms, err := report.ReadMatrices(work)
	if len(ms) != 1 || ms[0].Study.Name != h.Study.Name || ms[0].Cell("gob", "truncate").Repro == nil {
		t.Fatalf("the work directory holds %d matrices (%v); want the hostile one carried with its reproducer", len(ms), err)
	}
	if b, _ := os.ReadFile(filepath.Join(work, f.FileName())); string(b) != "the run's own" {
		t.Errorf("the work directory's own matrix was overwritten: %q", b)
	}
	if _, err := os.Stat(filepath.Join(work, "results.json")); !os.IsNotExist(err) {
		t.Errorf("results.json of the previous run was carried over: %v", err)
	}
	// Nothing to carry from a directory that does not exist.
	if _, err := carryMatrices(filepath.Join(dir, "none"), work); err != nil {
		t.Errorf("carrying from a missing directory: %v", err)
	}
}

func TestOutputList(t *testing.T) {
	got := outputList("d")
	if n := strings.Count(got, ", ") + 1; n != len(report.Files) {
		t.Errorf("outputList names %d files, report writes %d: %s", n, len(report.Files), got)
	}
	if !strings.HasPrefix(got, filepath.Join("d", report.Files[0].Name)) {
		t.Errorf("outputList %q does not start with %s", got, report.Files[0].Name)
	}
}

// TestFinish checks how a measured run ends: published and nil, published
// and a FailedError, or kept in its working directory with a RunError
// that says how to resume.
func TestFinish(t *testing.T) {
	for _, tc := range []struct {
		name     string
		failed   bool
		runErr   error
		code     int
		want     string
		dir      string // where the outputs are: "out" or "out/partial"
		warnings []string
	}{
		{"complete", false, nil, 0, "", "out", []string{"a warning"}},
		{"some failed", true, nil, 1, "1 benchmarks failed verification or errored; their reasons are in ", "out", nil},
		{"interrupted", false, errors.New("interrupted"), 3, "interrupted: the 4 benchmarks measured are kept in ", "out/partial", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			d, err := openOut(out)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(out, "notes.txt"), []byte("mine"))
			if err := prepareWorkDir(d); err != nil {
				t.Fatal(err)
			}
			run := smallRun(tc.failed)
			run.Warnings = tc.warnings
			var stderr strings.Builder
			err = finish(run, tc.runErr, d, &stderr)
			equal(t, "exit status", ExitCode(err), tc.code)
			if tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if tc.runErr != nil && !strings.Contains(err.Error(), Self+" run -resume "+out) {
				t.Errorf("error %v does not say how to resume", err)
			}
			for _, f := range report.Files {
				if _, err := os.Stat(filepath.Join(dir, tc.dir, f.Name)); err != nil {
					t.Errorf("%s not written: %v", f.Name, err)
				}
			}
			if b, err := os.ReadFile(filepath.Join(out, "notes.txt")); err != nil || string(b) != "mine" {
				t.Errorf("the user's file in the output directory: %q, %v", b, err)
			}
			if !strings.Contains(stderr.String(), "wrote "+filepath.Join(dir, tc.dir, "results.json")) {
				t.Errorf("stderr does not name the outputs: %q", stderr.String())
			}
			for _, w := range tc.warnings {
				if !strings.Contains(stderr.String(), "serbench: "+w+"\n") {
					t.Errorf("stderr lacks the warning %q", w)
				}
			}
		})
	}
}

func TestTally(t *testing.T) {
	run := smallRun(true)
	run.Results = append(run.Results, results.Result{Codec: "xml", Status: results.Skipped})
	run.Results[0].NsPerOp = results.Stat{Median: 1000, Lo: 900, Hi: 1100}
	run.Results[1].NsPerOp = results.Stat{Median: 1000}
	run.Results[1].TargetMet = false
	// Intervals ±1%, ±10% and none: ±10% in the middle, none (∞) at the
	// 90th percentile.
	got := tally(run)
	want := "3 measured (2 within ±3%), intervals ±10% in the middle and ∞ at the 90th percentile, 1 failed or errored, 1 skipped; loop overhead 1.50ns/op, included in every figure"
	equal(t, "tally", got, want)
	for _, tc := range []struct {
		f    float64
		want string
	}{{0.03, "3"}, {0.025, "2.5"}, {0.1234, "12.3"}, {1, "100"}} {
		equal(t, "percent", percent(tc.f), tc.want)
	}
	if got := tally(&results.Run{}); strings.Contains(got, "intervals") {
		t.Errorf("a run without measured results speaks of intervals: %q", got)
	}
}

// TestReport re-renders saved results into a directory: every output
// written and the table on stdout; then from the output directory itself
// and from a journal.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "results.json")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := smallRun(false).WriteJSON(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, args := range [][]string{
		{src, "-o", filepath.Join(dir, "a")},
		{"-o", filepath.Join(dir, "b"), src},
		{filepath.Join(dir, "a"), "-o", filepath.Join(dir, "c")},
	} {
		err, stdout, _ := run(append([]string{"report"}, args...)...)
		if err != nil {
			t.Fatalf("report %q: %v", args, err)
		}
		if !strings.Contains(stdout, "json") || !strings.Contains(stdout, "gob") {
			t.Errorf("report %q: the table lacks the codecs:\n%s", args, stdout)
		}
		out := args[len(args)-1]
		if out == src {
			out = args[1]
		}
		for _, f := range report.Files {
			if _, err := os.Stat(filepath.Join(out, f.Name)); err != nil {
				t.Errorf("report %q: %v", args, err)
			}
		}
	}

	// A journal: its run's header and results, an unfinished one warned.
	jpath := filepath.Join(dir, journal.Name)
	w, err := journal.Create(jpath, journal.Header{Run: results.Run{Env: results.Env{Overhead: 1}}, Jobs: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range smallRun(false).Results {
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	got, err := readRun(jpath)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "results from the journal", len(got.Results), 4)
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "unfinished run: its journal holds 4 of its 5 benchmarks") {
		t.Errorf("warnings %q, want the unfinished run named", got.Warnings)
	}

	// A journal that stopped before its first result is refused.
	empty := filepath.Join(t.TempDir(), journal.Name)
	w, err = journal.Create(empty, journal.Header{Jobs: 5})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := readRun(empty); err == nil || !strings.Contains(err.Error(), "no results: its run stopped before its first benchmark") {
		t.Errorf("an empty journal: %v", err)
	}
}

// TestCompare compares two saved runs, as results.json, as an output
// directory and as Go benchmark text.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	old, new := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	for _, d := range []string{old, new} {
		mkdir(t, d)
		if err := report.WriteFiles(d, smallRun(false)); err != nil {
			t.Fatal(err)
		}
	}
	gotest := filepath.Join(dir, "gotest.txt")
	writeFile(t, gotest, []byte("BenchmarkX-2 100 1000 ns/op\nBenchmarkX-2 100 1010 ns/op\n"))
	for _, args := range [][]string{
		{old, new},
		{filepath.Join(old, "results.json"), filepath.Join(new, "results.bench")},
	} {
		err, stdout, _ := run(append([]string{"compare"}, args...)...)
		if err != nil {
			t.Errorf("compare %q: %v", args, err)
			continue
		}
		if !strings.Contains(stdout, "codec=json") && !strings.Contains(stdout, "json") {
			t.Errorf("compare %q: no json row:\n%s", args, stdout)
		}
	}
	// Nothing in common: a usage error that counts both sides.
	err, _, _ := run("compare", old, gotest)
	if ExitCode(err) != 2 || !strings.Contains(err.Error(), "holds 4 benchmarks") {
		t.Errorf("compare with nothing in common: %v; want a usage error counting both sides", err)
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
