package fidelity_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// names returns the names of codecs or probes.
func names[T interface{ codec.Info | fidelity.Probe }](xs []T) []string {
	var out []string
	for _, x := range xs {
		switch v := any(x).(type) {
		case codec.Info:
			out = append(out, v.Name)
		case fidelity.Probe:
			out = append(out, v.Name)
		}
	}
	return out
}

// TestMain pins the local zone as a child does, and makes the test binary
// the study's child when the test starts it so.
func TestMain(m *testing.M) {
	fidelity.PinZone()
	if os.Getenv("SERBENCH_FIDELITY_CHILD") == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, nil, fidelity.Spec().Handler()); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func childCommand() *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SERBENCH_FIDELITY_CHILD=1")
	return cmd
}

// TestRun runs the cycle, which overflows gob's stack, between two
// probes: the crash costs its cell, the next probe runs in a new child.
func TestRun(t *testing.T) {
	var codecs []codec.Info
	for _, n := range []string{"gob", "json"} {
		c, err := registry.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		codecs = append(codecs, c)
	}
	probes, err := fidelity.Lookup([]string{"slice-empty", "cycle", "nan"})
	if err != nil {
		t.Fatal(err)
	}
	progress := 0
	pool := &worker.Pool{Command: childCommand, Parallel: 2}
	m, err := study.Run(context.Background(), pool, fidelity.Spec(), study.Options{
		Codecs: names(codecs), Cases: names(probes), Timeout: time.Minute,
		Progress: func(int, int, results.MatrixCell) { progress++ }})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cells) != 6 || progress != 6 {
		t.Fatalf("%d cells and %d progress calls, want 6 and 6", len(m.Cells), progress)
	}
	for _, tc := range []struct {
		codec, probe string
		want         fidelity.Outcome
	}{
		{"gob", "slice-empty", fidelity.Normalised},
		{"gob", "cycle", fidelity.Crashed},
		{"gob", "nan", fidelity.Exact},
		{"json", "cycle", fidelity.RefusedEncode},
		{"json", "nan", fidelity.RefusedEncode},
	} {
		c := m.Cell(tc.codec, tc.probe)
		if c == nil || c.Outcome != tc.want {
			t.Errorf("%s %s: %+v, want %s", tc.codec, tc.probe, c, tc.want)
		}
	}
	if c := m.Cell("gob", "cycle"); c != nil && c.Detail == "" {
		t.Errorf("the crashed cell says nothing of the crash")
	}
}

// TestRunHang kills a child that does not answer: a command that
// announces a probe and never reads its request stands for a codec that
// hangs in it.
func TestRunHang(t *testing.T) {
	c, _ := registry.Lookup("json")
	probes, _ := fidelity.Lookup([]string{"nan", "string"})
	pool := &worker.Pool{Command: func() *exec.Cmd {
		return exec.Command("sh", "-c", `echo '{"beat":{"job":0,"step":"nan"}}' >&3; exec sleep 60`)
	}}
	m, err := study.Run(context.Background(), pool, fidelity.Spec(), study.Options{
		Codecs: names([]codec.Info{c}), Cases: names(probes), Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probes {
		if cell := m.Cell("json", p.Name); cell == nil || cell.Outcome != fidelity.Crashed {
			t.Errorf("%s: %+v, want crashed", p.Name, cell)
		}
	}
}
