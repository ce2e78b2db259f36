package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/internal/outdir"
	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/report/table"
	"github.com/serbench/serbench/results"
)

func reportCmd(args []string, stdout, stderr io.Writer) error {
	b := newFlags("report", "serbench report RESULTS.json|journal.jsonl|DIR [-o DIR]",
		"Renders every output again from what a run or a study saved: a results.json, a run's journal.jsonl,\n"+
			"or an output directory (an unfinished run's DIR/partial too) holding a run, study matrices\n"+
			"(fidelity.json, hostile.json), or both.", stderr)
	fs := b.fs
	var out string
	b.out(&out, "the outputs")
	// Accept the file before or after the flags.
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := b.parse(args); err != nil {
		return err
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 || file == "" {
		return usagef("report needs exactly one results.json, journal.jsonl or output directory")
	}
	run, ms, err := readOutputs(file)
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	d, err := openOut(out)
	if err != nil {
		return err
	}
	defer d.Close()
	if run == nil {
		if err := report.WriteMatrices(d.Path(), ms); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "serbench: wrote %s\n", strings.Join(matrixOutputs(d.Path(), ms, true), ", "))
		return printVerdicts(stdout, ms)
	}
	run.Matrices = ms
	if err := writeOutputs(d.Path(), run); err != nil {
		return err
	}
	written := append([]string{outputList(d.Path())}, matrixOutputs(d.Path(), ms, false)...)
	fmt.Fprintf(stderr, "serbench: wrote %s\n", strings.Join(written, ", "))
	if err := table.Write(stdout, run); err != nil {
		return err
	}
	return printVerdicts(stdout, ms)
}

// printVerdicts prints each matrix's verdicts after a blank line.
func printVerdicts(w io.Writer, ms []*results.Matrix) error {
	for _, m := range ms {
		fmt.Fprintln(w)
		if err := matrix.WriteVerdicts(w, m); err != nil {
			return err
		}
	}
	return nil
}

// matrixOutputs names the files written of matrices ms into dir, with
// report.html and summary.md when page is set.
func matrixOutputs(dir string, ms []*results.Matrix, page bool) []string {
	var names []string
	if page {
		names = append(names, filepath.Join(dir, "report.html"), filepath.Join(dir, "summary.md"))
	}
	for _, m := range ms {
		for _, f := range report.MatrixFiles(m) {
			names = append(names, filepath.Join(dir, f))
		}
	}
	return names
}

// writePages writes report.html and summary.md of the study matrices in
// dir, when dir holds no run's results (whose pages writeMatrix renders
// again), and says so on w.
func writePages(dir string, w io.Writer) error {
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err == nil {
		return nil
	}
	ms, err := report.ReadMatrices(dir)
	if err != nil {
		return err
	}
	if err := report.WriteMatrices(dir, ms); err != nil {
		return err
	}
	fmt.Fprintf(w, "serbench: wrote %s and %s of the matrices there\n", filepath.Join(dir, "report.html"), filepath.Join(dir, "summary.md"))
	return nil
}

// writeMatrix writes a study's matrix into dir, and when dir holds a
// run's results renders the run's outputs again so that report.html and
// summary.md show the matrix; it says on w what it wrote.
func writeMatrix(dir string, m *results.Matrix, w io.Writer) error {
	if err := report.WriteMatrix(dir, m); err != nil {
		return err
	}
	name := m.Study.Name
	wrote := strings.Join(matrixOutputs(dir, []*results.Matrix{m}, false), ", ")
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		// The hint renders dir itself: report's default -o is another
		// directory, whose report it would replace.
		fmt.Fprintf(w, "%s: wrote %s; %s report %s -o %s draws it as report.html there\n", name, wrote, Self, dir, dir)
		return nil
	}
	run, err := readRun(filepath.Join(dir, "results.json"))
	if err != nil {
		return fmt.Errorf("re-rendering the run's outputs in %s: %w", dir, err)
	}
	if err := writeOutputs(dir, run); err != nil {
		return fmt.Errorf("re-rendering the run's outputs in %s: %w", dir, err)
	}
	fmt.Fprintf(w, "%s: wrote %s; rendered the run's report.html and summary.md there again, with the matrix\n", name, wrote)
	return nil
}

// readOutputs reads what path holds: a run (a results.json or a journal),
// or an output directory (or a run's working directory, DIR.partial) with
// a run, study matrices (fidelity.json, hostile.json, ...), or both. The
// run is nil when a directory holds matrices alone.
func readOutputs(path string) (*results.Run, []*results.Matrix, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		run, err := readRun(path)
		return run, nil, err
	}
	ms, merr := report.ReadMatrices(path)
	run, err := readRun(path)
	var none *noRunError
	switch {
	case errors.As(err, &none) && merr != nil:
		return nil, nil, merr
	case errors.As(err, &none) && len(ms) > 0:
		return nil, ms, nil
	case err == nil && merr != nil:
		// The run is rendered; the matrix that cannot be read costs its
		// section, and the run's warnings say why.
		run.Warnings = append(run.Warnings, strings.Split(merr.Error(), "\n")...)
	}
	return run, ms, err
}

// A noRunError says a directory holds no run.
type noRunError struct{ dir string }

func (e *noRunError) Error() string {
	return fmt.Sprintf("%s holds no results.json, %s or study matrix (fidelity.json, hostile.json): not a serbench output directory", e.dir, journal.Name)
}

// readRun reads a serbench results.json, a run's journal, or the one of
// them an output directory (or a run's working directory, DIR/partial)
// holds.
func readRun(path string) (*results.Run, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		found := ""
		// An unfinished run's journal is read only where the directory
		// holds no finished run's.
		for _, name := range []string{"results.json", journal.Name, filepath.Join(outdir.WorkName, journal.Name)} {
			if _, err := os.Stat(filepath.Join(path, name)); err == nil {
				found = filepath.Join(path, name)
				break
			}
		}
		if found == "" {
			return nil, &noRunError{path}
		}
		path = found
	}
	if strings.HasSuffix(path, ".jsonl") {
		h, rs, err := journal.Read(path)
		if err != nil {
			return nil, err
		}
		if len(rs) == 0 {
			return nil, fmt.Errorf("%s: no results: its run stopped before its first benchmark", path)
		}
		run := h.Run
		run.Results = rs
		results.MarkImplausible(run.Results, run.Env.Overhead)
		if len(rs) < h.Jobs {
			run.Warnings = append(run.Warnings, fmt.Sprintf("unfinished run: its journal holds %d of its %d benchmarks", len(rs), h.Jobs))
		}
		return &run, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return results.ReadJSON(f, path)
}
