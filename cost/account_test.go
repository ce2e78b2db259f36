package cost

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadLog reads a toolexec log as the wrapper writes it: the tools
// of a package summed, links apart by main, the go command's questions
// for no package apart, standard library compiles counted.
func TestReadLog(t *testing.T) {
	log := filepath.Join(t.TempDir(), "tools.log")
	os.WriteFile(log, []byte("\tcompile\t5000000\n"+
		"example.com/lib\tcompile\t2000000000\n"+
		"example.com/lib\tasm\t500000000\n"+
		"example.com/lib\tcompile\t100000000\n"+ // the asm package's second compile
		"encoding/xml\tcompile\t300000000\n"+
		"serbench.cost/x\tcompile\t10000000\n"+
		"serbench.cost/x\tlink\t700000000\n"+
		"garbled line\n"), 0o644)
	tools, link, queries, std, err := readLog(log)
	if err != nil {
		t.Fatal(err)
	}
	if tools["example.com/lib"] != 2.6 || link["serbench.cost/x"] != 0.7 || tools["serbench.cost/x"] != 0.01 || queries != 0.005 || std != 1 {
		t.Errorf("tools %v, link %v, queries %v, std %d", tools, link, queries, std)
	}
	if _, _, _, _, err := readLog(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("a missing log read without an error")
	}
}

// TestAccountingCPU: a main's CPU is its packages' tools outside the
// standard library and its link; a package the build did not compile is
// counted missing.
func TestAccountingCPU(t *testing.T) {
	a := Accounting{
		Tools: map[string]float64{"serbench.cost/x": 0.25, "example.com/lib": 2, "example.com/other": 9},
		Link:  map[string]float64{"serbench.cost/x": 0.5, "serbench.cost/y": 7},
	}
	pkgs := []Package{{ImportPath: "serbench.cost/x"}, {ImportPath: "example.com/lib"}, {ImportPath: "fmt", Standard: true}}
	if cpu, missing := a.CPU(pkgs, "serbench.cost/x"); cpu != 2.75 || missing != 0 {
		t.Errorf("CPU = %v, %d missing; want 2.75, 0", cpu, missing)
	}
	pkgs = append(pkgs, Package{ImportPath: "example.com/cached"})
	if _, missing := a.CPU(pkgs, "serbench.cost/x"); missing != 1 {
		t.Errorf("%d missing, want 1", missing)
	}
	if got := a.Tooled(); got != 18.75 {
		t.Errorf("Tooled = %v, want 18.75", got)
	}
}

// TestClosure: a main's packages are itself and its Deps; a main go list
// could not load says why.
func TestClosure(t *testing.T) {
	m := &Main{Codec: "x"}
	all := map[string]Package{
		"serbench.cost/x": {ImportPath: "serbench.cost/x", Deps: []string{"fmt", "example.com/lib"}},
		"fmt":             {ImportPath: "fmt", Standard: true},
		"example.com/lib": {ImportPath: "example.com/lib"},
	}
	pkgs, err := Closure(all, m)
	if err != nil || len(pkgs) != 3 || pkgs[0].ImportPath != "serbench.cost/x" {
		t.Errorf("Closure = %v, %v", pkgs, err)
	}
	all["example.com/lib"] = Package{ImportPath: "example.com/lib", Error: &struct{ Err string }{"no Go files"}}
	if _, err := Closure(all, m); err == nil {
		t.Error("a dependency go list could not load gave no error")
	}
	if _, err := Closure(all, &Main{Codec: "y"}); err == nil {
		t.Error("a main go list did not list gave no error")
	}
}
