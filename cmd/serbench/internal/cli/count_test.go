package cli

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

// TestMeasureFlag holds -measure: time by default and without Valgrind;
// a mode that counts finds Valgrind or is a mistake of the command line
// (exit 2) that says how to install it; one that counts refuses to run
// in this process.
func TestMeasureFlag(t *testing.T) {
	c, err := parseRun([]string{"-codecs", "json"}, io.Discard)
	if err != nil || c.mode != results.MeasureTime || c.opts.Count {
		t.Fatalf("default: mode %q count %v, %v; want time", c.mode, c.opts.Count, err)
	}
	if _, err := parseRun([]string{"-measure", "cycles"}, io.Discard); err == nil || !strings.Contains(err.Error(), "time, instructions, both") {
		t.Errorf("-measure cycles: %v; want the modes listed", err)
	}
	var ue *UsageError
	if _, err := parseRun([]string{"-measure", "both", "-in-process"}, io.Discard); !errors.As(err, &ue) || !strings.Contains(err.Error(), "-in-process") {
		t.Errorf("-measure both -in-process: %v; want a usage error naming -in-process", err)
	}
	t.Setenv("PATH", t.TempDir()) // no valgrind
	_, err = parseRun([]string{"-measure", "instructions"}, io.Discard)
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "scripts/apt-install valgrind") {
		t.Errorf("-measure instructions without Valgrind: %v; want a usage error (exit 2) saying how to install it", err)
	}
}

// TestRunMeasure: compare -interleave finds the -measure of the run flags
// it passes on, in each spelling the flag package reads.
func TestRunMeasure(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-codecs", "json", "-measure", "instructions"}, "instructions"},
		{[]string{"--measure=instructions"}, "instructions"},
		{[]string{"-measure=both", "-codecs", "json"}, "both"},
		{[]string{"-codecs", "measure"}, ""},
		{nil, ""},
	} {
		if got := runMeasure(tt.args); got != tt.want {
			t.Errorf("runMeasure(%q) = %q; want %q", tt.args, got, tt.want)
		}
	}
}
