package cost

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Code counts the lines of serbench's own packages a codec adds: its
// adapter, its schema and the code generated from it.
type Code struct {
	// Generated counts the lines of Go files that carry Go's generated
	// header ("// Code generated ... DO NOT EDIT.").
	Generated int `json:"generated"`
	// Schema counts the lines of the schema files beside them (.proto,
	// .fbs, .capnp, .thrift, .bop, .avsc).
	Schema int `json:"schema"`
	// Adapter counts the hand-written lines of the adapter's packages
	// (the other Go files, tests left out); Helpers those of serbench's
	// shared adapter helpers (codecs/internal) it uses.
	Adapter int `json:"adapter"`
	Helpers int `json:"helpers"`
	// Tools names the tools its //go:generate lines run: what
	// regenerating the code needs.
	Tools []string `json:"tools,omitempty"`
}

// schemaExts are the extensions of the schema languages serbench's
// codecs use.
var schemaExts = []string{".proto", ".fbs", ".capnp", ".thrift", ".bop", ".avsc", ".avdl"}

// generatedRe is Go's generated-file header (go help generate).
var generatedRe = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// CountCode counts the lines of pkgs, serbench's own packages a codec
// adds (Dependencies.Serbench), and of their directories' schema files.
func CountCode(pkgs []Package) Code {
	var c Code
	for _, p := range pkgs {
		helper := strings.Contains(p.ImportPath, "/internal/")
		for _, f := range p.GoFiles {
			b, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				continue
			}
			n := bytes.Count(b, []byte("\n"))
			switch {
			case generatedRe.Match(headerOf(b)):
				c.Generated += n
			case helper:
				c.Helpers += n
			default:
				c.Adapter += n
			}
			for _, t := range generateTools(b) {
				if !slices.Contains(c.Tools, t) {
					c.Tools = append(c.Tools, t)
				}
			}
		}
		entries, _ := os.ReadDir(p.Dir)
		for _, e := range entries {
			if slices.Contains(schemaExts, filepath.Ext(e.Name())) {
				if b, err := os.ReadFile(filepath.Join(p.Dir, e.Name())); err == nil {
					c.Schema += bytes.Count(b, []byte("\n"))
				}
			}
		}
	}
	slices.Sort(c.Tools)
	return c
}

// headerOf returns a Go file's text before its package clause, where Go's
// generated header must be.
func headerOf(b []byte) []byte {
	if i := bytes.Index(b, []byte("\npackage ")); i >= 0 {
		return b[:i+1]
	}
	return b
}

// knownTools are the generators a //go:generate line may run, by the
// word that names them in it.
var knownTools = []string{"protoc", "flatc", "capnp", "thrift", "bebopc-go", "msgp", "easyjson", "sszgen",
	"protoc-gen-go", "protoc-gen-go-vtproto", "protoc-gen-gogofast", "capnpc-go", "mirrorgen"}

// generateTools returns the known generators b's //go:generate lines
// name.
func generateTools(b []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "//go:generate ")
		if !ok {
			continue
		}
		words := strings.FieldsFunc(line, func(r rune) bool {
			return r == ' ' || r == '"' || r == '=' || r == '(' || r == ')' || r == '/' || r == '$' || r == ','
		})
		for _, w := range words {
			if slices.Contains(knownTools, w) && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}
