package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

func result(codec string) results.Result {
	return results.Result{Op: results.Encode, Codec: codec, Dataset: "tiny", Shape: "single", Status: results.OK,
		NsPerOp: results.Stat{Median: 10, Lo: 9, Hi: 11}, Samples: []results.Sample{{Iters: 5, NsPerOp: 10}}}
}

// TestKilledMidLine: a journal cut inside its last line (the process
// died while writing) reads back without that line, and appending after
// it cuts the line off first.
func TestKilledMidLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), Name)
	w, err := Create(path, Header{Args: []string{"-preset", "full"}, Run: results.Run{Options: results.Options{Preset: "full"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"json", "gob"} {
		if err := w.Add(result(c)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	data, _ := os.ReadFile(path)
	// Cut the last line in half, as a kill -9 during the write would.
	cut := len(data) - 30
	if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	h, rs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(h.Args, " ") != "-preset full" || h.Run.Options.Preset != "full" {
		t.Errorf("header = %+v", h)
	}
	if len(rs) != 1 || rs[0].Codec != "json" || rs[0].NsPerOp.Median != 10 {
		t.Fatalf("results = %+v, want json's only", rs)
	}
	w, err = Append(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(result("xml")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	_, rs, err = Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[1].Codec != "xml" {
		t.Fatalf("after append: %+v, want json then xml", rs)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"empty", "", "empty journal"},
		{"not json", "hello\n", "j:1: not a serbench journal line"},
		{"no header", `{"result":{"op":"encode"}}` + "\n", "the first line is not a journal header"},
		{"two headers", `{"header":{"serbench_journal":1}}` + "\n" + `{"header":{"serbench_journal":1}}` + "\n", "j:2: not a serbench journal line: a second header"},
		{"future version", `{"header":{"serbench_journal":9}}` + "\n", "journal version 9"},
		{"blank object", `{"header":{"serbench_journal":1}}` + "\n{}\n", "neither a header, a result nor a cell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := read(strings.NewReader(tt.data), "j")
			var se *SyntaxError
			if err == nil || !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("read = %v, want a SyntaxError with %q", err, tt.want)
			}
		})
	}
}

func TestCreateRefusesAnExistingJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), Name)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path, Header{}); err == nil {
		t.Fatal("Create over an existing journal succeeded")
	}
}

func FuzzRead(f *testing.F) {
	f.Add(`{"header":{"serbench_journal":1,"args":["-q"]}}` + "\n" + `{"result":{"op":"encode","codec":"json"}}` + "\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := read(strings.NewReader(s), "fuzz")
		if err == nil && c.header == nil {
			t.Fatal("no error and no header")
		}
	})
}

// TestLaterLineReplaces: a benchmark sampled again (a run's refining
// pass) has a second line; it replaces the first, in the first's place.
func TestLaterLineReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), Name)
	w, err := Create(path, Header{})
	if err != nil {
		t.Fatal(err)
	}
	refined := result("json")
	refined.Samples = append(refined.Samples, results.Sample{Iters: 5, NsPerOp: 11})
	for _, r := range []results.Result{result("json"), result("gob"), refined} {
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	_, rs, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Codec != "json" || len(rs[0].Samples) != 2 || rs[1].Codec != "gob" {
		t.Errorf("read %d results (first %s with %d samples); want json with 2 samples, then gob", len(rs), rs[0].Codec, len(rs[0].Samples))
	}
}

// TestCells: a study's journal gives back its header and its cells, a
// cell written again replacing the first in its place, and a last line
// cut short by a crash is dropped and cut off when appending again.
func TestCells(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fidelity.journal.jsonl")
	w, err := Create(path, Header{Study: "fidelity", Args: []string{"-codecs", "json"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []results.MatrixCell{
		{Codec: "json", Case: "a", Outcome: "crashed"},
		{Codec: "json", Case: "b", Outcome: "exact"},
		{Codec: "json", Case: "a", Outcome: "exact"},
	} {
		if err := w.AddCell(c); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	appendRaw(t, path, `{"cell":{"codec":"json","ca`)
	h, cs, err := ReadCells(path)
	if err != nil {
		t.Fatal(err)
	}
	if h.Study != "fidelity" || len(cs) != 2 || cs[0].Case != "a" || cs[0].Outcome != "exact" || cs[1].Case != "b" {
		t.Fatalf("read study %q, cells %+v; want fidelity, a exact then b", h.Study, cs)
	}
	w, err = Append(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddCell(results.MatrixCell{Codec: "gob", Case: "a", Outcome: "exact"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, cs, err = ReadCells(path); err != nil || len(cs) != 3 {
		t.Fatalf("after appending: %d cells, %v; want 3", len(cs), err)
	}
}

func appendRaw(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
