package cost

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ModulePath is serbench's module path, which the generated mains import.
const ModulePath = "github.com/serbench/serbench"

// An Adapter is where a codec's registry entry lives: the adapter package
// that declares it, and the Go expression naming its codec.Info there.
type Adapter struct {
	Dir  string // the package's directory, relative to the module root
	Path string // its import path
	Expr string // the Info's expression, the package's name qualifying it: "cbor.Nano", "seed004.Codecs[1]"
	Pkg  string // the package's name
}

// Locate finds the adapter package of every codec named in names under
// root/codecs: the exported package-level variable whose initializer
// holds the codec's name as a string literal (`Name: "cbor-nano"`, or
// `info("mus", ...)`), or the element of an exported slice of Infos
// that does. It reads the sources (go/parser), so it needs the
// repository, not a build.
func Locate(root string, names []string) (map[string]Adapter, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	found := map[string][]Adapter{}
	dirs, err := adapterDirs(filepath.Join(root, "codecs"))
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		rel = filepath.ToSlash(rel)
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			return nil, fmt.Errorf("cost: reading %s: %w", rel, err)
		}
		for pname, pkg := range pkgs {
			if pname == "main" {
				continue
			}
			at := Adapter{Dir: rel, Path: ModulePath + "/" + rel, Pkg: pname}
			for _, f := range pkg.Files {
				for _, d := range f.Decls {
					g, ok := d.(*ast.GenDecl)
					if !ok || g.Tok != token.VAR {
						continue
					}
					for _, s := range g.Specs {
						vs := s.(*ast.ValueSpec)
						for i, id := range vs.Names {
							if !id.IsExported() || i >= len(vs.Values) {
								continue
							}
							for name, expr := range named(vs.Values[i], pname+"."+id.Name) {
								if want[name] {
									a := at
									a.Expr = expr
									found[name] = append(found[name], a)
								}
							}
						}
					}
				}
			}
		}
	}
	out := map[string]Adapter{}
	var missing []string
	for _, n := range names {
		switch as := found[n]; len(as) {
		case 1:
			out[n] = as[0]
		case 0:
			missing = append(missing, n+" (no exported variable of an adapter package holds its name)")
		default:
			var where []string
			for _, a := range as {
				where = append(where, a.Expr)
			}
			sort.Strings(where)
			missing = append(missing, fmt.Sprintf("%s (held by %s)", n, strings.Join(where, ", ")))
		}
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("cost: no adapter found for %s", strings.Join(missing, "; "))
	}
	return out, nil
}

// named returns the codec names an initializer holds, each with the
// expression that names its Info: expr itself, or expr[i] for the i-th
// element of a slice literal of Infos (a slice of identifiers is one of
// other variables, found through them).
func named(init ast.Expr, expr string) map[string]string {
	out := map[string]string{}
	if cl, ok := init.(*ast.CompositeLit); ok {
		if _, isSlice := cl.Type.(*ast.ArrayType); isSlice {
			for i, e := range cl.Elts {
				if id, ok := e.(*ast.Ident); ok {
					_ = id // another variable: found through it
					continue
				}
				for n := range named(e, "") {
					out[n] = fmt.Sprintf("%s[%d]", expr, i)
				}
			}
			return out
		}
	}
	var lits []string
	ast.Inspect(init, func(n ast.Node) bool {
		if kv, ok := n.(*ast.KeyValueExpr); ok {
			// Only a literal keyed Name counts in a composite literal;
			// the first string argument of a call counts (info("mus", ...)).
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name != "Name" {
				return false
			}
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			for _, a := range x.Args {
				if bl, ok := a.(*ast.BasicLit); ok && bl.Kind == token.STRING {
					if s, err := strconv.Unquote(bl.Value); err == nil {
						lits = append(lits, s)
					}
					break
				}
			}
		case *ast.KeyValueExpr:
			if bl, ok := x.Value.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				if s, err := strconv.Unquote(bl.Value); err == nil {
					lits = append(lits, s)
				}
			}
		}
		return true
	})
	for _, s := range lits {
		out[s] = expr
	}
	return out
}

// adapterDirs lists the directories under codecs that may hold adapter
// packages: all but codecs/internal and the schema packages' testdata.
func adapterDirs(codecs string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(codecs, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "internal", "testdata":
			return filepath.SkipDir
		}
		dirs = append(dirs, p)
		return nil
	})
	return dirs, err
}
