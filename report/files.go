package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/serbench/serbench/internal/outdir"
	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/report/csvfile"
	"github.com/serbench/serbench/report/html"
	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/report/summary"
	"github.com/serbench/serbench/results"
)

// Files lists the files WriteFiles writes of a run, each with its
// renderer.
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

// WriteFiles writes every output of run into dir, creating it:
// results.json, results.bench, results.csv, report.html and summary.md,
// and the files of each study matrix beside the run (WriteMatrix), which
// report.html and summary.md show. Those are run.Matrices, or when it is
// nil the matrices dir holds already (ReadMatrices: what serbench
// fidelity -o dir and serbench hostile -o dir wrote).
// Each file is written to a temporary name and renamed, so a failure
// never leaves half a file; a file of the same name is replaced.
func WriteFiles(dir string, run *results.Run) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing the outputs: %w", err)
	}
	if run.Matrices == nil {
		// A matrix that cannot be read costs its section, not the run's
		// outputs: the run's warnings say why it is missing.
		ms, err := ReadMatrices(dir)
		if err != nil {
			run.Warnings = append(run.Warnings, strings.Split(err.Error(), "\n")...)
		}
		run.Matrices = ms
	}
	for _, f := range Files {
		if err := writeAtomic(filepath.Join(dir, f.Name), func(w io.Writer) error { return f.Write(w, run) }); err != nil {
			return err
		}
	}
	for _, m := range run.Matrices {
		if err := WriteMatrix(dir, m); err != nil {
			return err
		}
	}
	return nil
}

// WriteMatrices writes the outputs of study matrices without a run into
// dir, creating it: report.html and summary.md of the matrices alone, and
// each matrix's files (WriteMatrix).
func WriteMatrices(dir string, ms []*results.Matrix) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing the outputs: %w", err)
	}
	if err := writeAtomic(filepath.Join(dir, "report.html"), func(w io.Writer) error { return html.WriteMatrices(w, ms) }); err != nil {
		return err
	}
	err := writeAtomic(filepath.Join(dir, "summary.md"), func(w io.Writer) error {
		if _, err := io.WriteString(w, "# serbench findings\n"); err != nil {
			return err
		}
		for _, m := range ms {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
			if err := matrix.WriteMarkdown(w, m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, m := range ms {
		if err := WriteMatrix(dir, m); err != nil {
			return err
		}
	}
	return nil
}

// MatrixFiles returns the names of the files WriteMatrix writes of m.
func MatrixFiles(m *results.Matrix) []string {
	names := []string{m.FileName(), m.Study.Name + ".csv"}
	if slices.ContainsFunc(m.Cells, func(c results.MatrixCell) bool { return c.Repro != nil && c.Repro.Data != nil }) {
		names = append(names, m.Study.Name+"/")
	}
	return names
}

// WriteMatrix writes study matrix m into dir: NAME.json, NAME.csv, and
// under NAME/ each reproducer whose bytes m holds, as CODEC-CASE.bin
// (setting its File). The reproducers of an earlier matrix of the study
// there are removed: they would read as this one's.
func WriteMatrix(dir string, m *results.Matrix) error {
	name := m.Study.Name
	if name == "" || !filepath.IsLocal(name) || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("writing a study matrix: bad study name %q", name)
	}
	rdir := filepath.Join(dir, name)
	if err := outdir.RemoveMatching(rdir, "*.bin"); err != nil {
		return fmt.Errorf("removing the reproducers of the last %s matrix: %w", name, err)
	}
	for i := range m.Cells {
		r := m.Cells[i].Repro
		if r == nil {
			continue
		}
		if r.Data == nil {
			r.File = "" // not kept: nothing to point at
			continue
		}
		if err := outdir.MakeDir(rdir); err != nil {
			return fmt.Errorf("writing the %s reproducers: %w", name, err)
		}
		file := fileName(m.Cells[i].Codec + "-" + m.Cells[i].Case + ".bin")
		if err := writeAtomic(filepath.Join(rdir, file), func(w io.Writer) error { _, err := w.Write(r.Data); return err }); err != nil {
			return err
		}
		r.File = name + "/" + file
	}
	if err := writeAtomic(filepath.Join(dir, m.FileName()), m.WriteJSON); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, name+".csv"), func(w io.Writer) error { return matrix.WriteCSV(w, m) })
}

// fileName makes s a safe file name: a character that is not a letter,
// a digit or one of "-_.+^" becomes "_".
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.+^", r) {
			return r
		}
		return '_'
	}, s)
}

// ReadMatrices reads the study matrices dir holds, in name order: each
// NAME.json that is the matrix of a study named NAME, with its
// reproducers' bytes where their files are there. A JSON file that is not
// a matrix is left alone; one that looks like a matrix but cannot be read
// is an error that says what to do, returned with the matrices that read
// (errors.Join, a line each).
func ReadMatrices(dir string) ([]*results.Matrix, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var ms []*results.Matrix
	var errs []error
	for _, path := range paths {
		m, err := readMatrix(dir, path)
		if err != nil {
			errs = append(errs, err)
		} else if m != nil {
			ms = append(ms, m)
		}
	}
	return ms, errors.Join(errs...)
}

// readMatrix reads path as a matrix of dir (see ReadMatrices); it returns
// nil and no error for a file that is not a matrix.
func readMatrix(dir, path string) (*results.Matrix, error) {
	base := strings.TrimSuffix(filepath.Base(path), ".json")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head struct {
		Study *struct {
			Name string `json:"name"`
		} `json:"study"`
		Cells json.RawMessage `json:"cells"`
	}
	if json.Unmarshal(b, &head) != nil || head.Cells == nil {
		return nil, nil // not a matrix: results.json, a file of the user's
	}
	if head.Study == nil {
		return nil, fmt.Errorf("%s: a matrix written by an older serbench; remove it, or write it again with: serbench %s -o %s", path, base, dir)
	}
	if head.Study.Name != base {
		return nil, nil
	}
	m, err := results.ReadMatrix(bytes.NewReader(b), path)
	if err != nil {
		return nil, fmt.Errorf("%w; or remove it", err)
	}
	for i := range m.Cells {
		r := m.Cells[i].Repro
		if r == nil || r.File == "" || !filepath.IsLocal(r.File) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, r.File))
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		r.Data = data
	}
	return m, nil
}

// writeAtomic writes path through write, never leaving half a file
// (outdir.WriteAtomic).
func writeAtomic(path string, write func(io.Writer) error) error {
	return outdir.WriteAtomic(path, write)
}
