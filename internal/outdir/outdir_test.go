package outdir

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestOpen(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, path string)
		wantErr string // "" when the directory is claimed
	}{
		{"missing", func(*testing.T, string) {}, ""},
		{"missing parents", nil, ""},
		{"empty", func(t *testing.T, p string) { os.Mkdir(p, 0o755) }, ""},
		{"marked, with a user's file", func(t *testing.T, p string) {
			write(t, filepath.Join(p, Marker), "")
			write(t, filepath.Join(p, "notes.txt"), "mine")
		}, ""},
		{"unmarked, only serbench's names", func(t *testing.T, p string) {
			write(t, filepath.Join(p, "results.json"), "{}")
			write(t, filepath.Join(p, "hostile", "a.bin"), "x")
		}, ""},
		{"a user's files", func(t *testing.T, p string) {
			write(t, filepath.Join(p, "notes.txt"), "mine")
			write(t, filepath.Join(p, "main.go"), "package main")
		}, "holds files serbench did not write (main.go, notes.txt)"},
		{"many user files", func(t *testing.T, p string) {
			for _, n := range []string{"a", "b", "c", "d", "e"} {
				write(t, filepath.Join(p, n), n)
			}
		}, "(a, b, c, and 2 more)"},
		{"a file", func(t *testing.T, p string) { write(t, p, "mine") }, "it is a file"},
		{"under a file", nil, "a directory on its path is a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			path := filepath.Join(base, "out")
			switch tt.name {
			case "missing parents":
				path = filepath.Join(base, "a", "b", "out")
			case "under a file":
				write(t, filepath.Join(base, "f"), "mine")
				path = filepath.Join(base, "f", "out")
			default:
				tt.setup(t, path)
			}
			before := snapshot(t, base)
			d, err := Open(path)
			if tt.wantErr != "" {
				var oe *Error
				if !errors.As(err, &oe) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Open(%s) = %v; want an *Error containing %q", path, err, tt.wantErr)
				}
				if after := snapshot(t, base); after != before {
					t.Errorf("a refused Open changed the tree:\nbefore %s\nafter  %s", before, after)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open(%s): %v", path, err)
			}
			if !d.Has(Marker) {
				t.Errorf("no marker in %s", d.Path())
			}
			if tt.name == "marked, with a user's file" && read(t, d.Join("notes.txt")) != "mine" {
				t.Error("the user's file changed")
			}
		})
	}
}

// snapshot lists every path under dir with its content.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p)
		if !e.IsDir() {
			c, _ := os.ReadFile(p)
			b.WriteString("=" + string(c))
		}
		b.WriteString(";")
		return nil
	})
	return b.String()
}

// TestOpenDot checks -o . : the working directory itself, claimed only
// when it is empty, with the run's working directory inside it.
func TestOpenDot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	d, err := Open(".")
	if err != nil {
		t.Fatal(err)
	}
	if d.Path() != "." || d.Work() != WorkName {
		t.Errorf("Open(.) = %s, work %s; want . and %s", d.Path(), d.Work(), WorkName)
	}
	if err := d.NewWork(); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d.Work(), "results.json"), "new")
	if err := d.Publish([]string{"results.json"}); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dir, "results.json")) != "new" || d.Has(WorkName) {
		t.Error("-o . did not publish into the working directory")
	}

	other := t.TempDir()
	write(t, filepath.Join(other, "go.mod"), "module x")
	t.Chdir(other)
	if _, err := Open("."); err == nil || !strings.Contains(err.Error(), "go.mod") {
		t.Errorf("Open(.) in a project: %v; want a refusal naming go.mod", err)
	}
}

func TestOpenReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into a read-only directory")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(dir, 0o555)
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "you can write to") {
		t.Errorf("Open(read-only) = %v; want a refusal saying so", err)
	}
}

// TestPublish checks that a run's files replace the previous ones and
// nothing else in the directory changes.
func TestPublish(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, d.Join("notes.txt"), "mine")
	write(t, d.Join("results.json"), "old")
	write(t, d.Join("fidelity.json"), "matrix")
	if err := d.NewWork(); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d.Work(), "results.json"), "new")
	write(t, filepath.Join(d.Work(), "summary.md"), "new summary")
	write(t, filepath.Join(d.Work(), "fidelity.json"), "a copy to render with")
	if err := d.Publish([]string{"results.json", "summary.md", "report.html"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"notes.txt": "mine", "results.json": "new", "summary.md": "new summary", "fidelity.json": "matrix",
	} {
		if got := read(t, d.Join(name)); got != want {
			t.Errorf("%s = %q; want %q", name, got, want)
		}
	}
	if d.Has(WorkName) {
		t.Error("the working directory survived Publish")
	}
}

func TestWriteFile(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, d.Join("summary.md"), "old")
	failed := errors.New("renderer failed")
	if err := d.WriteFile("summary.md", func(w io.Writer) error {
		io.WriteString(w, "half")
		return failed
	}); !errors.Is(err, failed) {
		t.Errorf("WriteFile = %v; want the renderer's error", err)
	}
	if got := read(t, d.Join("summary.md")); got != "old" {
		t.Errorf("a failed write left %q; want the old file", got)
	}
	entries, _ := os.ReadDir(d.Path())
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}
