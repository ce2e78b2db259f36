package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/report/csvfile"
	"github.com/serbench/serbench/report/html"
	"github.com/serbench/serbench/report/summary"
	"github.com/serbench/serbench/results"
)

// outputs lists the files written into the output directory, each by its
// renderer.
var outputs = []struct {
	name  string
	write func(io.Writer, *results.Run) error
}{
	{"results.json", func(w io.Writer, r *results.Run) error { return r.WriteJSON(w) }},
	{"results.bench", bench.Write},
	{"results.csv", csvfile.Write},
	{"report.html", html.Write},
	{"summary.md", summary.Write},
}

func outputList(dir string) string {
	var names []string
	for _, o := range outputs {
		names = append(names, filepath.Join(dir, o.name))
	}
	return strings.Join(names, ", ")
}

// checkWritable creates dir if needed and proves a file can be written in
// it, before any time is spent measuring.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &UsageError{Msg: fmt.Sprintf("cannot create output directory: %v; choose another with -o", err)}
	}
	f, err := os.CreateTemp(dir, ".serbench-check-*")
	if err != nil {
		return &UsageError{Msg: fmt.Sprintf("cannot write to output directory %s: %v; choose another with -o", dir, err)}
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeOutputs renders every output into dir. Each file is written to a
// temporary name and renamed, so a failure never leaves half a file.
func writeOutputs(dir string, run *results.Run) error {
	for _, o := range outputs {
		if err := writeAtomic(filepath.Join(dir, o.name), func(w io.Writer) error { return o.write(w, run) }); err != nil {
			return err
		}
	}
	return nil
}

func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // no-op after the rename
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes 0600
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
