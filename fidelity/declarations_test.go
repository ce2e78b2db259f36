package fidelity_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
)

// light returns the probes that run safely in the test's own process.
func light() []fidelity.Probe {
	var out []fidelity.Probe
	for _, p := range fidelity.Probes {
		if !p.Heavy {
			out = append(out, p)
		}
	}
	return out
}

// TestDeclarations fails when a registered codec's declared unsupported
// features or losses differ from what its probes show.
func TestDeclarations(t *testing.T) {
	probes := light()
	m := fidelity.NewMatrix(registry.Codecs, probes)
	for _, c := range registry.Codecs {
		for _, p := range probes {
			m.Add(fidelity.Check(c, p))
		}
	}
	checked := 0
	for _, c := range registry.Codecs {
		d := fidelity.Derive(m, c.Name)
		if d.Supported|d.Unsupported != 0 {
			checked++
		}
		for _, msg := range fidelity.Mismatches(c, d) {
			t.Errorf("%s; correct its codec.Info (registry) or the adapter", msg)
		}
	}
	// The reflection codecs take the probes' types; the schema ones
	// have no message for them and decide nothing.
	if checked < 25 {
		t.Errorf("only %d codecs decided a feature; the probes no longer reach the reflection codecs", checked)
	}
}

// TestShown names, for every loss a reflection codec declares, the probe
// that shows it: what the † of a run's table and report names. Codecs with
// a schema or generated code have no message for the probes' types.
func TestShown(t *testing.T) {
	for _, c := range registry.Codecs {
		if c.API != codec.Reflection {
			continue
		}
		shown := fidelity.Shown(c)
		for _, l := range c.Losses {
			if l.Kind == "interface-types" {
				continue
			}
			if shown[l.String()] == "" {
				t.Errorf("%s: no probe shows its declared loss %s", c.Name, l)
			}
		}
	}
	gob, _ := registry.Lookup("gob")
	if got := fidelity.Shown(gob)["nil-empty"]; got != "slice-empty" {
		t.Errorf("gob's nil-empty is shown by %q, want slice-empty", got)
	}
}
