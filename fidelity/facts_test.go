package fidelity_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
)

// TestFacts checks cells whose outcome is documented by the libraries
// themselves, so that the matrix is known to see them.
func TestFacts(t *testing.T) {
	for _, tc := range []struct {
		codec, probe string
		outcome      fidelity.Outcome
		has          string // in the normalisation or the detail (of Tried, for a declared cell)
		tried        fidelity.Outcome
	}{
		{"bson", "time-nanos", fidelity.Normalised, "1ms", ""},
		{"bson", "time-offset", fidelity.Normalised, "UTC,1ms", ""},
		{"cbor", "time-nanos", fidelity.Normalised, "1s", ""},
		{"cbor-nano", "time-nanos", fidelity.Exact, "", ""},
		{"xml", "map-string-key", fidelity.Unsupported, "unsupported type: map", fidelity.RefusedEncode},
		{"gob", "slice-empty", fidelity.Normalised, "nil≡empty", ""},
		{"gob", "reuse", fidelity.Changed, ".B: -0 +7", ""},
		{"xml", "bytes-binary", fidelity.Normalised, "U+FFFD", ""},
		{"xml", "string-nul", fidelity.Normalised, "U+FFFD", ""},
		{"json", "string-invalid-utf8", fidelity.Normalised, "U+FFFD", ""},
		{"go-toml", "string-invalid-utf8", fidelity.Changed, `.S: -"a\xffb" +"aÿb"`, ""},
		{"gob", "neg-zero", fidelity.Changed, ".F: --0 +0", ""},
		{"msgpack", "time-offset", fidelity.Normalised, "UTC", ""},
		{"gob", "time-zone", fidelity.Normalised, "offset", ""},
		{"gob", "unexported", fidelity.Normalised, "unexported-dropped", ""},
		{"gob", "big-int", fidelity.Exact, "", ""},
		{"xdr", "int-wide", fidelity.Changed, ".U: -1099511627779 +3", ""}, // xdr3's doc: int and uint are XDR's 32-bit Integer
		{"json", "int-wide", fidelity.Exact, "", ""},
		{"json", "nan", fidelity.RefusedEncode, "NaN", ""},
		{"json", "any-2^53+1", fidelity.Normalised, "any-types,int→float64", ""},
		{"json", "map-int-key", fidelity.Exact, "", ""},
		{"json", "map-struct-key", fidelity.RefusedEncode, "unsupported type", ""},
		{"gob", "map-struct-key", fidelity.Exact, "", ""},
		{"proto", "forward-unknown", fidelity.Exact, "", ""},
		{"proto", "forward-discard", fidelity.Changed, ".B: -42 +0", ""},
		{"json", "forward-unknown", fidelity.Unsupported, "codec.Forwarder", ""},
	} {
		info, err := registry.Lookup(tc.codec)
		if err != nil {
			t.Fatal(err)
		}
		probes, err := fidelity.Lookup([]string{tc.probe})
		if err != nil {
			t.Fatal(err)
		}
		c := fidelity.Check(info, probes[0])
		ev := c
		if tc.tried != "" {
			if c.Tried == nil {
				t.Errorf("%s %s: no Tried cell", tc.codec, tc.probe)
				continue
			}
			ev = *c.Tried
			if ev.Outcome != tc.tried {
				t.Errorf("%s %s: tried %s, want %s", tc.codec, tc.probe, fidelity.Study.Text(&ev), tc.tried)
			}
		}
		if c.Outcome != tc.outcome {
			t.Errorf("%s %s: %s, want %s", tc.codec, tc.probe, fidelity.Study.Text(&c), tc.outcome)
			continue
		}
		if !strings.Contains(ev.Note+ev.Detail, tc.has) {
			t.Errorf("%s %s: %q does not hold %q", tc.codec, tc.probe, fidelity.Study.Text(&ev), tc.has)
		}
	}
}
