package fidelity_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
)

// TestDeclarations is the one check of declaration honesty: it fails
// when a registered codec's declared unsupported features or losses differ
// from what its probes show (Derive, Mismatches), when a reflection codec
// declares a loss no probe could decide, and when Shown (the probe a run's
// record names for a declared loss) names none. Codecs with a schema or
// generated code have no message for the probes' types and decide nothing.
func TestDeclarations(t *testing.T) {
	m := fidelity.CheckAll(registry.Codecs, fidelity.Light())
	checked := 0
	for _, c := range registry.Codecs {
		d := fidelity.Derive(m, c.Name)
		if d.Supported|d.Unsupported != 0 {
			checked++
		}
		for _, msg := range fidelity.Mismatches(c, d) {
			t.Errorf("%s; correct its codec.Info (registry) or the adapter", msg)
		}
		if c.API != codec.Reflection {
			continue
		}
		shown := fidelity.Shown(c)
		for _, l := range c.Losses {
			if l.Kind == codec.InterfaceTypes {
				continue // declared for generic data, which no probe's type is
			}
			if !d.Checked[l.Kind] {
				t.Errorf("%s declares the loss %s, which no probe it supports could decide", c.Name, l)
			}
			if shown[l.String()] == "" {
				t.Errorf("%s: no probe shows its declared loss %s, for a run's record", c.Name, l)
			}
		}
	}
	// The reflection codecs take the probes' types; the schema ones
	// have no message for them and decide nothing.
	if checked < 25 {
		t.Errorf("only %d codecs decided a feature; the probes no longer reach the reflection codecs", checked)
	}
	jf, _ := registry.Lookup("jsoniter-fastest")
	if got := fidelity.Shown(jf)["float-precision(6)"]; got != "float-full" {
		t.Errorf("jsoniter-fastest's float-precision(6) is shown by %q, want float-full", got)
	}
	gob, _ := registry.Lookup("gob")
	if got := fidelity.Shown(gob)["nil-empty"]; got != "slice-empty" {
		t.Errorf("gob's nil-empty is shown by %q, want slice-empty", got)
	}
}

// TestCodecsDoc fails when docs/codecs.md differs from what generation
// gives: the registry or a codec's behaviour changed since.
func TestCodecsDoc(t *testing.T) {
	var b bytes.Buffer
	if err := fidelity.WriteCodecs(&b, registry.Codecs); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("../docs/codecs.md")
	if err != nil {
		t.Fatalf("%v; run go generate ./fidelity", err)
	}
	if !bytes.Equal(committed, b.Bytes()) {
		diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A: difflib.SplitLines(string(committed)), B: difflib.SplitLines(b.String()),
			FromFile: "docs/codecs.md", ToFile: "generated", Context: 1,
		})
		t.Errorf("docs/codecs.md is stale; run go generate ./fidelity:\n%s", diff)
	}
	for _, c := range registry.Codecs {
		if !strings.Contains(b.String(), "| `"+c.Name+"` |") {
			t.Errorf("docs/codecs.md has no row for %s", c.Name)
		}
	}
}
