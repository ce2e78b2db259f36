package serbench_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDeps fails when the root package links a study it does not use:
// every program that imports serbench (to call Benchmark or Run) links
// what it does.
func TestDeps(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, unwanted := range []string{
		"github.com/serbench/serbench/fidelity", "github.com/serbench/serbench/hostile", "github.com/serbench/serbench/evolve",
		"github.com/serbench/serbench/compliance", "github.com/serbench/serbench/study", "github.com/serbench/serbench/claims", "github.com/serbench/serbench/worker", "time/tzdata",
	} {
		if slices.Contains(deps, unwanted) {
			t.Errorf("package serbench links %s; Benchmark and Run do not need it (go list -deps . shows the path)", unwanted)
		}
	}
}
