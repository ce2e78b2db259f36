package cost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
)

// baselinePackages are the packages the baseline main imports.
var baselinePackages = []string{"fmt", "os", ModulePath + "/codec", ModulePath + "/dataset"}

// ListAdapters returns, for each codec of adapters, what its main would
// add to the baseline's dependencies and code, read from one go list of
// the repository at root without building anything: the part of the
// study the declarations (codec.Adoption) are checked against, cheap
// enough for a test over every codec.
func ListAdapters(ctx context.Context, root string, adapters map[string]Adapter) (map[string]Listed, error) {
	paths := slices.Clone(baselinePackages)
	for _, a := range adapters {
		if !slices.Contains(paths, a.Path) {
			paths = append(paths, a.Path)
		}
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-deps", "-json"}, paths...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := run(cmd)
	if err != nil {
		return nil, fmt.Errorf("cost: listing the adapters' dependencies: %w", err)
	}
	all := map[string]Package{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p Package
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("cost: reading go list's output: %w", err)
		}
		all[p.ImportPath] = p
	}
	closure := func(roots ...string) []Package {
		seen := map[string]bool{}
		var pkgs []Package
		var visit func(string)
		visit = func(path string) {
			if seen[path] {
				return
			}
			seen[path] = true
			p, ok := all[path]
			if !ok {
				return
			}
			for _, imp := range p.Imports {
				visit(imp)
			}
			pkgs = append(pkgs, p)
		}
		for _, r := range roots {
			visit(r)
		}
		return pkgs
	}
	base := closure(baselinePackages...)
	rows := map[string]Listed{}
	for name, a := range adapters {
		d := Added(closure(append(slices.Clone(baselinePackages), a.Path)...), base)
		rows[name] = Listed{Deps: d, Code: CountCode(d.Serbench)}
	}
	return rows, nil
}

// Listed is what ListAdapters finds of a codec.
type Listed struct {
	Deps Dependencies
	Code Code
}
