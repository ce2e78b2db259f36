package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/report/csvfile"
	"github.com/serbench/serbench/report/html"
	"github.com/serbench/serbench/report/summary"
	"github.com/serbench/serbench/results"
)

// Files lists the files WriteFiles writes, each with its renderer.
var Files = []struct {
	Name  string
	Write func(io.Writer, *results.Run) error
}{
	{"results.json", func(w io.Writer, r *results.Run) error { return r.WriteJSON(w) }},
	{"results.bench", bench.Write},
	{"results.csv", csvfile.Write},
	{"report.html", html.Write},
	{"summary.md", summary.Write},
}

// WriteFiles writes every output of run into dir, creating it if needed:
// results.json, results.bench, results.csv, report.html and summary.md.
// When dir holds a fidelity.json (serbench fidelity -o dir), report.html
// shows its matrix; when it holds a hostile.json (serbench hostile -o
// dir), report.html and summary.md show that one.
// Each file is written to a temporary name and renamed, so a failure
// never leaves half a file; a file of the same name is replaced.
func WriteFiles(dir string, run *results.Run) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing the outputs: %w", err)
	}
	if run.Hostile == nil {
		run.Hostile = ReadHostile(dir)
	}
	matrix, err := readFidelity(dir)
	if err != nil {
		return err
	}
	for _, f := range Files {
		write := f.Write
		if f.Name == "report.html" && matrix != nil {
			write = func(w io.Writer, r *results.Run) error { return html.WriteWith(w, r, matrix) }
		}
		if err := writeAtomic(filepath.Join(dir, f.Name), func(w io.Writer) error { return write(w, run) }); err != nil {
			return err
		}
	}
	return nil
}

// ReadHostile reads dir/hostile.json, written by serbench hostile, if it
// is there and readable (nil if not): the report and the summary then
// show it.
func ReadHostile(dir string) *results.Hostile {
	f, err := os.Open(filepath.Join(dir, "hostile.json"))
	if err != nil {
		return nil
	}
	defer f.Close()
	h, err := results.ReadHostile(f, f.Name())
	if err != nil {
		return nil
	}
	return h
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

// readFidelity reads dir's fidelity.json, or returns nil if there is none.
func readFidelity(dir string) (*fidelity.Matrix, error) {
	f, err := os.Open(filepath.Join(dir, fidelity.JSONName))
	if os.IsNotExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := fidelity.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; run serbench fidelity -o %s again, or remove it", f.Name(), err, dir)
	}
	return m, nil
}
