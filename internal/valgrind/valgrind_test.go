package valgrind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotUnderValgrind: a test binary runs on the CPU itself, so the
// client request returns its default and no Counter opens.
func TestNotUnderValgrind(t *testing.T) {
	if Running() != 0 {
		t.Skip("this test runs under Valgrind")
	}
	if _, err := Open(); err == nil || !strings.Contains(err.Error(), "does not run under Valgrind") {
		t.Errorf("Open = %v; want an error saying the process is not under Valgrind", err)
	}
}

// TestReadTotal reads the instructions of a callgrind dump: its summary
// line, else its totals line; anything else is an error naming the file.
func TestReadTotal(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, body string
		want       uint64
		err        string
	}{
		{"summary", "# callgrind format\nevents: Ir\nsummary: 4346938\n\nfn=main\n1 5\ntotals: 4346938\n", 4346938, ""},
		{"totals", "# callgrind format\nevents: Ir\nfn=main\n1 5\ntotals: 42\n", 42, ""},
		{"none", "# callgrind format\nevents: Ir\n", 0, "not a callgrind dump"},
		{"empty", "summary:\n", 0, "an empty summary: line"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readTotal(path)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %d, %v; want an error containing %q", tt.name, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %d, %v; want %d", tt.name, got, err, tt.want)
		}
	}
}

// TestFlags: callgrind counts only what a Counter asks, one dump file per
// thread, in the directory given.
func TestFlags(t *testing.T) {
	f := strings.Join(Flags("/d"), " ")
	for _, want := range []string{"--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes", "--callgrind-out-file=/d/callgrind.out"} {
		if !strings.Contains(f, want) {
			t.Errorf("Flags = %s; want %s", f, want)
		}
	}
}
