// Command mirrorgen writes mirror types of serbench's dataset types into
// an adapter package, for code generators that add methods to types in the
// package they process (msgp, easyjson).
//
// For every type of dataset.All declared in package dataset (but the
// article-only datasets, dataset.ArticleOnly), and every dataset type those
// reach, it copies the declaration from the dataset
// sources (fields, types and struct tags unchanged). For every dataset with
// slice shapes it adds the list types TSlice ([]T) and TPtrSlice ([]*T).
// Last it writes a mirror.Table, mirrors, from the type of each value
// dataset.Dataset.Value hands out (*T, *[]T, *[]*T) to the adapter's
// generic function that prepares a case for it:
//
//	var mirrors = mirror.Table{
//		reflect.TypeFor[*dataset.Tiny](): prepareAs[dataset.Tiny, Tiny],
//		...
//	}
//
// Datasets whose type is not a named dataset type (the bare int64) get no
// mirror. It is run by go generate in the adapter's directory:
//
//	//go:generate go run github.com/serbench/serbench/codecs/internal/mirror/mirrorgen -o mirror_gen.go -prepare prepareAs
//
// Flags:
//
//	-o file         output file (required)
//	-lists file     write the list types and the table to this file instead,
//	                so that a generator run per file (msgp) treats the
//	                element types as opaque there and calls their methods
//	-prepare name   the adapter's generic prepare function (required)
//	-annotate text  a comment line, such as easyjson:json, put on every type
//	-pkg name       package name (default $GOPACKAGE)
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/serbench/serbench/dataset"
)

var datasetPkg = reflect.TypeFor[dataset.Tiny]().PkgPath()

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "mirrorgen:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("mirrorgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file (required)")
	lists := fs.String("lists", "", "output file for the list types and the table (default: the -o file)")
	prepare := fs.String("prepare", "", "the adapter's generic prepare function (required)")
	annotate := fs.String("annotate", "", "a comment line put on every type, such as easyjson:json")
	pkg := fs.String("pkg", os.Getenv("GOPACKAGE"), "package name")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return errors.New("-o is required")
	case *prepare == "":
		return errors.New("-prepare is required")
	case *pkg == "":
		return errors.New("-pkg is required outside go generate")
	}
	decls, err := parseDataset()
	if err != nil {
		return err
	}
	g := &generator{decls: decls, pkg: *pkg, prepare: *prepare, annotate: *annotate}
	if err := g.generate(); err != nil {
		return err
	}
	if *lists == "" {
		return g.write(*out, true, true)
	}
	if err := g.write(*out, true, false); err != nil {
		return err
	}
	return g.write(*lists, false, true)
}

// decls holds the type declarations of package dataset's sources.
type decls struct {
	fset  *token.FileSet
	types map[string]*ast.TypeSpec
}

func parseDataset() (*decls, error) {
	p, err := build.Import(datasetPkg, ".", 0)
	if err != nil {
		return nil, fmt.Errorf("finding package dataset: %w", err)
	}
	d := &decls{fset: token.NewFileSet(), types: map[string]*ast.TypeSpec{}}
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(d.fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, spec := range gd.Specs {
					ts := spec.(*ast.TypeSpec)
					d.types[ts.Name.Name] = ts
				}
			}
		}
	}
	return d, nil
}

// A generator collects the mirror declarations.
type generator struct {
	*decls
	pkg, prepare, annotate string

	types    bytes.Buffer // the element types and the types they reach
	lists    bytes.Buffer // the list types
	table    bytes.Buffer // the entries of the mirrors table
	seen     map[reflect.Type]bool
	usesTime bool
}

func (g *generator) generate() error {
	g.seen = map[reflect.Type]bool{}
	listed := map[reflect.Type]bool{}
	for _, ds := range dataset.All {
		t := ds.Type()
		if t.PkgPath() != datasetPkg {
			continue // a bare scalar: nothing to mirror
		}
		if _, ok := dataset.ArticleOnly[ds.Name]; ok || ds.Corpus != nil || listed[t] {
			// An article's own payload or a corpus, which the adapters
			// omit, or a second dataset of a type already listed
			// (complexmap5).
			continue
		}
		listed[t] = true
		if err := g.declare(t); err != nil {
			return err
		}
		name := t.Name()
		fmt.Fprintf(&g.table, "reflect.TypeFor[*dataset.%s](): %s[dataset.%[1]s, %[1]s],\n", name, g.prepare)
		if ds.SliceLen == 0 {
			continue
		}
		g.writeType(&g.lists, name+"Slice", "mirrors []dataset."+name+", the dataset's slice shape.", "[]"+name)
		g.writeType(&g.lists, name+"PtrSlice", "mirrors []*dataset."+name+", the dataset's pointer-slice shape.", "[]*"+name)
		fmt.Fprintf(&g.table, "reflect.TypeFor[*[]dataset.%s](): %s[[]dataset.%[1]s, %[1]sSlice],\n", name, g.prepare)
		fmt.Fprintf(&g.table, "reflect.TypeFor[*[]*dataset.%s](): %s[[]*dataset.%[1]s, %[1]sPtrSlice],\n", name, g.prepare)
	}
	g.lists.WriteString("// mirrors maps the type of each dataset value handed to Prepare to the\n")
	g.lists.WriteString("// function that prepares a case over its mirror.\n")
	g.lists.WriteString("var mirrors = mirror.Table{\n")
	g.lists.Write(g.table.Bytes())
	g.lists.WriteString("}\n")
	return nil
}

// declare copies the declaration of t, if it is a dataset type, and of the
// dataset types it reaches.
func (g *generator) declare(t reflect.Type) error {
	switch {
	case t == reflect.TypeFor[time.Time]():
		g.usesTime = true
		return nil
	case t.PkgPath() == datasetPkg:
		if g.seen[t] {
			return nil
		}
		g.seen[t] = true
		ts, ok := g.decls.types[t.Name()]
		if !ok {
			return fmt.Errorf("no declaration of dataset.%s in the dataset sources", t.Name())
		}
		var expr bytes.Buffer
		if err := printer.Fprint(&expr, g.fset, ts.Type); err != nil {
			return err
		}
		g.writeType(&g.types, t.Name(), "mirrors dataset."+t.Name()+".", expr.String())
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return g.declare(t.Elem())
	case reflect.Map:
		if err := g.declare(t.Key()); err != nil {
			return err
		}
		return g.declare(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if err := g.declare(t.Field(i).Type); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *generator) writeType(w io.Writer, name, doc, expr string) {
	fmt.Fprintf(w, "// %s %s\n", name, doc)
	if g.annotate != "" {
		fmt.Fprintf(w, "//\n//%s\n", strings.TrimPrefix(g.annotate, "//"))
	}
	fmt.Fprintf(w, "type %s %s\n\n", name, expr)
}

// write writes a formatted file holding the element types, the list types
// and the table, or some of them.
func (g *generator) write(name string, types, lists bool) error {
	var src bytes.Buffer
	fmt.Fprintf(&src, "// Code generated by mirrorgen from package dataset; DO NOT EDIT.\n\npackage %s\n\n", g.pkg)
	var imports []string
	if lists {
		imports = append(imports, "reflect")
	}
	if types && g.usesTime {
		imports = append(imports, "time")
	}
	if lists {
		imports = append(imports, "", "github.com/serbench/serbench/codecs/internal/mirror", datasetPkg)
	}
	if len(imports) > 0 {
		src.WriteString("import (\n")
		for _, imp := range imports {
			if imp != "" {
				fmt.Fprintf(&src, "%q", imp)
			}
			src.WriteString("\n")
		}
		src.WriteString(")\n\n")
	}
	if types {
		src.Write(g.types.Bytes())
	}
	if lists {
		src.Write(g.lists.Bytes())
	}
	out, err := format.Source(src.Bytes())
	if err != nil {
		return fmt.Errorf("formatting %s: %w", name, err)
	}
	return os.WriteFile(name, out, 0o644)
}
