package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{&UsageError{Msg: "bad flag"}, 2},
		{fmt.Errorf("reading: %w", &UsageError{Msg: "bad file"}), 2},
		{&RunError{Msg: "interrupted"}, 3},
		{fmt.Errorf("wrapped: %w", &RunError{Msg: "disk full"}), 3},
		{&FailedError{Msg: "2 failed"}, 1},
		{errors.New("anything else"), 1},
	} {
		if got := ExitCode(tc.err); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// run runs the command line args and returns its error and outputs.
func run(args ...string) (err error, stdout, stderr string) {
	var out, errb strings.Builder
	err = Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return err, out.String(), errb.String()
}

// TestMisuse checks that every mistake on the command line is a usage
// error (exit status 2) whose message says what to do, found before
// anything is measured.
func TestMisuse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"; known: run, list, report, compare, fidelity, hostile, evolve, interop, cost, reproduce, version, help`},
		{[]string{"version", "x"}, `version takes no arguments, got ["x"]`},
		{[]string{"list", "codecs", "presets"}, "list takes at most one argument: codecs, datasets, presets, probes, classes, cases, costs, claims or needs"},
		{[]string{"list", "formats"}, `cannot list "formats"; choose codecs, datasets, presets, probes, classes, cases, costs, claims or needs`},
		{[]string{"list", "-x"}, `unknown flag "-x" (did you mean -v?); known: -v`},
		{[]string{"list", "presetz"}, `cannot list "presetz" (did you mean presets?)`},
		{[]string{"run", "-codec", "json"}, `unknown flag "-codec" (did you mean -codecs?); run 'serbench run -h' to see all`},
		{[]string{"run", "-codecs", "jsno"}, `unknown codec "jsno" (did you mean json?)`},
		{[]string{"run", "-preset", "quik"}, `unknown preset "quik" (did you mean quick?)`},
		{[]string{"reproduce", "-claims", "s000-json-smal"}, `unknown claim "s000-json-smal" (did you mean s000-json-small or`},
		{[]string{"report"}, "report needs exactly one results.json, journal.jsonl or output directory"},
		{[]string{"report", "a.json", "b.json"}, "report needs exactly one results.json"},
		{[]string{"report", "-o", t.TempDir()}, "report needs exactly one results.json"},
		{[]string{"report", "/nonexistent/results.json"}, "no such file or directory"},
		{[]string{"report", t.TempDir()}, "holds no results.json, journal.jsonl or study matrix (fidelity.json, hostile.json): not a serbench output directory"},
		{[]string{"compare", "one"}, "compare needs two results: serbench compare OLD NEW"},
		{[]string{"compare", "/nonexistent/a.bench", "/nonexistent/b.bench"}, "no such file or directory"},
		{[]string{"run", "extra"}, `run takes no arguments, got ["extra"]; use flags such as -codecs json,gob`},
		{[]string{"run", "-preset", "slow"}, `unknown preset "slow"`},
		{[]string{"run", "-target", "0"}, "-target 0 out of range [0.001, 1]: give a value within it, or leave -target out for its default"},
		{[]string{"run", "-budget", "1h"}, "-budget 1h0m0s out of range [10ms, 10m]"},
		{[]string{"run", "-pin", "-2"}, "-pin -2 out of range"},
		{[]string{"run", "-sample", "5ms", "-batch", "6ms"}, "batch"},
		{[]string{"-nosuchflag"}, `unknown flag "-nosuchflag"`},
		{[]string{"run", "-resume", "x", "-codecs", "json"}, "-resume takes the options of the run it continues: give it alone (or with -q), not with -codecs"},
		{[]string{"run", "-resume", t.TempDir()}, "nothing to resume in"},
		{[]string{"run", "-file", "doc.txt"}, `-file doc.txt: unknown extension ".txt"`},
		// A list that names nothing is a mistake, not "all"; 0 is not
		// "the default" where the range excludes it.
		{[]string{"run", "-codecs", ","}, `-codecs "," names no codecs: give at least one`},
		{[]string{"run", "-datasets", " , "}, `-datasets " , " names no datasets`},
		{[]string{"hostile", "-codecs", ","}, `-codecs "," names no codecs`},
		{[]string{"hostile", "-classes", ","}, `-classes "," names no classes`},
		{[]string{"fidelity", "-probes", ","}, `-probes "," names no probes`},
		{[]string{"evolve", "-cases", ","}, `-cases "," names no cases`},
		{[]string{"reproduce", "-claims", ","}, `-claims "," names no claims`},
		{[]string{"run", "-max-samples", "0"}, "-max-samples 0 out of range [6, 10000]"},
		{[]string{"run", "-max-samples", "10001"}, "-max-samples 10001 out of range [6, 10000]"},
	} {
		err, stdout, _ := run(tc.args...)
		var u *UsageError
		if !errors.As(err, &u) {
			t.Errorf("%q: error %v (%T), want a *UsageError", tc.args, err, err)
			continue
		}
		if ExitCode(err) != 2 {
			t.Errorf("%q: exit status %d, want 2", tc.args, ExitCode(err))
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %q, want it to say %q", tc.args, err, tc.want)
		}
		if stdout != "" {
			t.Errorf("%q: a usage error printed on stdout: %q", tc.args, stdout)
		}
	}
}

// TestLiveHeapMemory checks that a -live-heap the machine cannot hold is
// refused before any work, naming the machine's memory.
func TestLiveHeapMemory(t *testing.T) {
	defer func(f func() uint64) { machineMemory = f }(machineMemory)
	machineMemory = func() uint64 { return 23 << 30 }
	err, _, _ := run("run", "-live-heap", "32GiB")
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "-live-heap 32GiB is not below this machine's memory (23GiB)") {
		t.Errorf("-live-heap 32GiB on a 23GiB machine: %v; want a usage error naming the machine's memory", err)
	}
	machineMemory = func() uint64 { return 0 } // unknown: the range alone
	if err := checkLiveHeap(t, "1GiB"); err != nil {
		t.Errorf("-live-heap 1GiB where the memory is unknown: %v", err)
	}
}

func checkLiveHeap(t *testing.T, v string) error {
	t.Helper()
	var f runFlags
	b := newRunFlagSet(&f, io.Discard)
	return b.parse([]string{"-live-heap", v})
}

// TestHelp checks that help goes where asked and is not an error.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		stdout, stderr string
	}{
		{[]string{"help"}, "Usage:\n  serbench ", ""},
		{[]string{"--help"}, "Exit status: 0 when", ""},
		{[]string{"run", "-h"}, "", "Usage: serbench run [flags]"},
		{[]string{"-h"}, "Usage:\n  serbench ", ""},
		{[]string{"list", "-h"}, "", "Usage: serbench list [-v] [codecs|datasets|presets|probes|classes|cases|costs|claims|needs]"},
		{[]string{"report", "-h"}, "", "Usage: serbench report RESULTS.json|journal.jsonl|DIR [-o DIR]"},
		{[]string{"compare", "-h"}, "", "Usage: serbench compare OLD NEW"},
		{[]string{"version"}, "serbench ", ""},
	} {
		err, stdout, stderr := run(tc.args...)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
		}
		if tc.stdout != "" && !strings.Contains(stdout, tc.stdout) || tc.stdout == "" && stdout != "" {
			t.Errorf("%q: stdout %q, want %q", tc.args, stdout, tc.stdout)
		}
		if tc.stderr != "" && !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%q: stderr %q, want %q", tc.args, stderr, tc.stderr)
		}
	}
	err, _, stderr := run("run", "-h")
	if err != nil || !strings.Contains(stderr, "-target") || !strings.Contains(stderr, "(default 0.03)") {
		t.Errorf("run -h does not list -target with the default the flag package prints:\n%s", stderr)
	}
}

func TestSplitList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"json", []string{"json"}},
		{" json , gob,,", []string{"json", "gob"}},
	} {
		if got := splitList(tc.in); fmt.Sprint(got) != fmt.Sprint(tc.want) || len(got) != len(tc.want) {
			t.Errorf("splitList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestVersionLine(t *testing.T) {
	f := strings.Fields(versionLine())
	if len(f) != 4 || f[0] != "serbench" || !strings.HasPrefix(f[2], "go") || !strings.Contains(f[3], "/") {
		t.Errorf("version line %q, want: serbench VERSION GOVERSION GOOS/GOARCH", versionLine())
	}
}

func TestInvocation(t *testing.T) {
	for _, tc := range []struct{ arg0, want string }{
		{"/tmp/go-build123/b001/exe/serbench", "go run ./cmd/serbench"},
		{"/root/.cache/go-build/97/9747110327dd3dbf1cce778f27453fc2745ce39d3b2a6801a633001dbf9954d3-d/serbench", "go run ./cmd/serbench"},
		{"/home/u/bin/9747110327dd3dbf1cce778f27453fc2745ce39d3b2a6801a633001dbf9954d3-d/serbench", "/home/u/bin/9747110327dd3dbf1cce778f27453fc2745ce39d3b2a6801a633001dbf9954d3-d/serbench"},
		{"./serbench", "./serbench"},
		{"/usr/local/bin/serbench", "/usr/local/bin/serbench"},
		{"serbench", "serbench"},
	} {
		equal(t, tc.arg0, invocation(tc.arg0), tc.want)
	}
	defer func(s string) { Self = s }(Self)
	Self = "go run ./cmd/serbench"
	equal(t, "localized", Localize("unknown probe x; run 'serbench list probes' for the names; continue with: serbench run -resume out"),
		"unknown probe x; run 'go run ./cmd/serbench list probes' for the names; continue with: go run ./cmd/serbench run -resume out")
	equal(t, "not a command", Localize("serbench writes a directory"), "serbench writes a directory")
}
