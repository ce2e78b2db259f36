package cost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/licensecheck"
)

// A Package is what the study reads of one package a main depends on
// (go list -deps -json).
type Package struct {
	ImportPath string
	Name       string
	Dir        string
	Standard   bool
	Module     *struct {
		Path    string
		Version string
		Dir     string
		Main    bool
	}
	GoFiles  []string
	CgoFiles []string
	SFiles   []string
	Imports  []string
	// Deps are the packages it depends on, directly or not.
	Deps []string
	// Error says why go list -e could not load it.
	Error *struct{ Err string }
}

// Deps lists the packages main m depends on, itself included.
func (w *Workspace) Deps(ctx context.Context, m *Main) ([]Package, error) {
	out, err := run(goCmd(ctx, w.Dir, "", m.Dir, "list", "-deps", "-json", "."))
	if err != nil {
		return nil, fmt.Errorf("cost: listing %s's dependencies: %w", m.Codec, err)
	}
	var pkgs []Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p Package
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("cost: reading go list's output for %s: %w", m.Codec, err)
		}
		pkgs = append(pkgs, p)
	}
}

// A Module is a module a codec adds to a binary.
type Module struct {
	Path    string `json:"path"`
	Version string `json:"version,omitempty"`
	// Licence is the licence its LICENSE file holds, as licensecheck
	// names it ("MIT", "Apache-2.0"); "none found" without such a file,
	// "unknown" when the file matches no licence it knows.
	Licence  string `json:"licence"`
	Packages int    `json:"packages"`
}

// A Dependencies is what a codec's main depends on beyond the
// baseline's.
type Dependencies struct {
	Modules []Module `json:"modules"`
	// Packages counts the packages added outside the standard library;
	// Std the standard library's.
	Packages int `json:"packages"`
	Std      int `json:"std"`
	// Unsafe, Asm and Cgo name the added packages outside the standard
	// library that import unsafe, hold assembly (.s files) or use cgo;
	// JIT those whose Go files map memory executable (PROT_EXEC).
	Unsafe []string `json:"unsafe,omitempty"`
	Asm    []string `json:"asm,omitempty"`
	Cgo    []string `json:"cgo,omitempty"`
	JIT    []string `json:"jit,omitempty"`
	// Serbench lists the packages of serbench's module the codec adds:
	// its adapter and the adapter's schema and helpers.
	Serbench []Package `json:"-"`
}

// Added returns what pkgs add to base: the modules, the packages, and
// which of the packages outside the standard library import unsafe, hold
// assembly, use cgo or map memory executable. serbench's own packages
// (the adapter and its generated code) are counted apart, in Serbench.
func Added(pkgs, base []Package) Dependencies {
	had := map[string]bool{}
	for _, p := range base {
		had[p.ImportPath] = true
	}
	var d Dependencies
	mods := map[string]*Module{}
	var order []string
	for _, p := range pkgs {
		if had[p.ImportPath] || p.ImportPath == "unsafe" || p.ImportPath == "C" {
			continue
		}
		switch {
		case p.Standard:
			d.Std++
			continue
		case p.Module == nil || p.Module.Main || strings.HasPrefix(p.ImportPath, "serbench.cost/"):
			if p.Name != "main" {
				d.Serbench = append(d.Serbench, p)
			}
			continue
		}
		d.Packages++
		m := mods[p.Module.Path]
		if m == nil {
			m = &Module{Path: p.Module.Path, Version: p.Module.Version, Licence: licence(p.Module.Dir)}
			mods[p.Module.Path] = m
			order = append(order, p.Module.Path)
		}
		m.Packages++
		if slices.Contains(p.Imports, "unsafe") {
			d.Unsafe = append(d.Unsafe, p.ImportPath)
		}
		if len(p.SFiles) > 0 {
			d.Asm = append(d.Asm, p.ImportPath)
		}
		if len(p.CgoFiles) > 0 {
			d.Cgo = append(d.Cgo, p.ImportPath)
		}
		if mapsExec(p) {
			d.JIT = append(d.JIT, p.ImportPath)
		}
	}
	slices.Sort(order)
	for _, path := range order {
		d.Modules = append(d.Modules, *mods[path])
	}
	return d
}

// mapsExec reports whether one of p's Go files asks for executable
// memory: the mark of a package that generates machine code at run time.
func mapsExec(p Package) bool {
	for _, f := range slices.Concat(p.GoFiles, p.CgoFiles) {
		b, err := os.ReadFile(filepath.Join(p.Dir, f))
		if err == nil && bytes.Contains(b, []byte("PROT_EXEC")) {
			return true
		}
	}
	return false
}

// licenceFiles are the names a module's licence file goes by.
var licenceFiles = []string{"LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE", "COPYING", "LICENSE-MIT", "LICENSE.MIT"}

// licence names the licence in the module's licence file, as
// licensecheck detects it.
func licence(dir string) string {
	if dir == "" {
		return "none found"
	}
	for _, n := range licenceFiles {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		return Licence(b)
	}
	return "none found"
}

// Licence names the licence text holds, as licensecheck detects it: the
// IDs of the licences that cover most of it, joined by " AND ", or
// "unknown".
func Licence(text []byte) string {
	cov := licensecheck.Scan(text)
	if cov.Percent < 50 {
		return "unknown"
	}
	var ids []string
	for _, m := range cov.Match {
		if !slices.Contains(ids, m.ID) {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return "unknown"
	}
	return strings.Join(ids, " AND ")
}
