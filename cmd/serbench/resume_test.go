package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/results"
)

// TestKillAndResume kills a run with SIGKILL once its journal holds a few
// results, resumes it, and compares it with a run never killed: every
// result journaled before the kill is kept as it was, and the two runs
// hold the same benchmarks with the same statuses.
func TestKillAndResume(t *testing.T) {
	if _, err := exec.LookPath("serbench"); err != nil {
		t.Skip("serbench is not on PATH (TestMain puts it there)")
	}
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"run", "-q", "-codecs", "json,gob,gob-stream,xml", "-datasets", "tiny,medium,int64", "-budget", "30ms", "-o", filepath.Join(dir, out)}
	}
	killed := exec.Command("serbench", args("killed")...)
	if err := killed.Start(); err != nil {
		t.Fatal(err)
	}
	jpath := filepath.Join(dir, "killed", "partial", journal.Name)
	// Wait for a few results, however long the machine takes, then kill.
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, rs, err := journal.Read(jpath); err == nil && len(rs) >= 6 {
			break
		}
		if time.Now().After(deadline) {
			killed.Process.Kill()
			t.Fatal("the journal never held six results")
		}
	}
	// While it lives, a second writer is refused, naming it: neither a
	// new run nor -resume measures beside it.
	holder := fmt.Sprintf("serbench process %d is writing it", killed.Process.Pid)
	for _, second := range [][]string{args("killed"), {"run", "-q", "-resume", filepath.Join(dir, "killed")}} {
		out, err := exec.Command("serbench", second...).CombinedOutput()
		if code := exitCode(err); code != 2 || !strings.Contains(string(out), holder) || strings.Contains(string(out), "-resume "+filepath.Join(dir, "killed")) {
			t.Errorf("serbench %s beside a live run: exit %d, %s; want exit 2 naming its pid, not -resume", strings.Join(second, " "), code, out)
		}
	}
	killed.Process.Signal(syscall.SIGKILL)
	killed.Wait()
	_, before, err := journal.Read(jpath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "killed", "results.json")); err == nil {
		t.Fatal("a killed run published its outputs")
	}

	// A new run into the same directory is refused: the unfinished run
	// is the user's.
	out, err := exec.Command("serbench", args("killed")...).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "holds an unfinished run; continue it with: serbench run -resume") {
		t.Fatalf("a new run over an unfinished one: exit %d, %s", code, out)
	}
	// serbench report renders the unfinished run from its journal.
	if out, err := exec.Command("serbench", "report", filepath.Join(dir, "killed", "partial"), "-o", filepath.Join(dir, "partial-report")).CombinedOutput(); err != nil {
		t.Fatalf("report of the journal: %v\n%s", err, out)
	}

	if out, err := exec.Command("serbench", "run", "-resume", filepath.Join(dir, "killed"), "-q").CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if out, err := exec.Command("serbench", args("whole")...).CombinedOutput(); err != nil {
		t.Fatalf("a run never killed: %v\n%s", err, out)
	}
	resumed, whole := readResults(t, filepath.Join(dir, "killed")), readResults(t, filepath.Join(dir, "whole"))
	if got, want := statuses(resumed), statuses(whole); !slices.Equal(got, want) {
		t.Errorf("resumed run holds\n%s\nwant, as the run never killed,\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, b := range before {
		i := slices.IndexFunc(resumed, func(r results.Result) bool { return r.Key() == b.Key() })
		if i < 0 || resumed[i].NsPerOp != b.NsPerOp || len(resumed[i].Samples) != len(b.Samples) {
			t.Errorf("%s, journaled before the kill, is not kept as it was", b.Key())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "killed", "partial")); err == nil {
		t.Error("the resumed run left its working directory behind")
	}
}

func readResults(t *testing.T, dir string) []results.Result {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := results.ReadJSON(f, "results.json")
	if err != nil {
		t.Fatal(err)
	}
	return run.Results
}

func statuses(rs []results.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Key()+" "+string(r.Status))
	}
	return out
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestKillStudyAndResume kills a study (evolve: a child per cell) with
// SIGKILL once its journal holds a few cells, and resumes it: the cells
// journaled before the kill are kept as they were, the matrix is whole,
// and the journal is gone once the matrix is written.
func TestKillStudyAndResume(t *testing.T) {
	if _, err := exec.LookPath("serbench"); err != nil {
		t.Skip("serbench is not on PATH (TestMain puts it there)")
	}
	dir := filepath.Join(t.TempDir(), "out")
	killed := exec.Command("serbench", "evolve", "-codecs", "json,gob", "-cases", "rename,add-optional,int32-int64,remove-optional,reorder", "-parallel", "1", "-o", dir)
	if err := killed.Start(); err != nil {
		t.Fatal(err)
	}
	jpath := filepath.Join(dir, "evolution.journal.jsonl")
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, cs, err := journal.ReadCells(jpath); err == nil && len(cs) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			killed.Process.Kill()
			t.Fatal("the journal never held three cells")
		}
	}
	killed.Process.Signal(syscall.SIGKILL)
	killed.Wait()
	_, before, err := journal.ReadCells(jpath)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("serbench", "evolve", "-resume", dir).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "evolution.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := results.ReadMatrix(f, "evolution.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cells) != 2*5*2 {
		t.Errorf("the resumed matrix holds %d cells; want 20", len(m.Cells))
	}
	for _, b := range before {
		if c := m.Cell(b.Codec, b.Case); c == nil || c.Outcome != b.Outcome || c.Detail != b.Detail {
			t.Errorf("%s %s, journaled before the kill, is %+v", b.Codec, b.Case, c)
		}
	}
	if _, err := os.Stat(jpath); err == nil {
		t.Error("the finished study left its journal behind")
	}
}
