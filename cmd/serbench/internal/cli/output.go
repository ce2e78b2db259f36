package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/internal/outdir"
	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/results"
)

func outputList(dir string) string {
	var names []string
	for _, f := range report.Files {
		names = append(names, filepath.Join(dir, f.Name))
	}
	return strings.Join(names, ", ")
}

// openOut claims dir as an output directory (package outdir): a file, or
// a directory holding files serbench did not write, is a usage error.
func openOut(dir string) (*outdir.Dir, error) {
	d, err := outdir.Open(dir)
	if err != nil {
		return nil, &UsageError{Msg: err.Error() + " (-o)"}
	}
	return d, nil
}

// prepareWorkDir creates the working directory of a run into d, before
// any time is spent measuring. An unfinished run's working directory is
// never overwritten: its results are the user's.
func prepareWorkDir(d *outdir.Dir) error {
	if _, err := os.Stat(filepath.Join(d.Work(), journal.Name)); err == nil {
		return &UsageError{Msg: fmt.Sprintf("%s holds an unfinished run; continue it with: %s run -resume %s (or remove %s, or choose another -o)", d.Work(), Self, d.Path(), d.Work())}
	}
	if err := d.NewWork(); err != nil {
		return &UsageError{Msg: err.Error() + "; choose another directory with -o"}
	}
	return nil
}

// runFiles are the files a finished run publishes into its output
// directory: the renderers' outputs and the journal.
func runFiles() []string {
	names := []string{journal.Name}
	for _, f := range report.Files {
		names = append(names, f.Name)
	}
	return names
}

// carryMatrices copies the study matrices (fidelity, hostile, any study's)
// of the previous outputs in out into work, where work does not have its
// own: they do not depend on a run's timings, so a new run into the same
// directory renders them in its report.html and summary.md. They are not
// published again: out keeps its own. A matrix that cannot be read is
// left where it is and said in the warning returned.
func carryMatrices(out, work string) (warning string, err error) {
	ms, rerr := report.ReadMatrices(out)
	if rerr != nil {
		warning = fmt.Sprintf("the report leaves out a matrix of %s: %v", out, rerr)
	}
	for _, m := range ms {
		if _, err := os.Lstat(filepath.Join(work, m.FileName())); err == nil {
			continue
		}
		if err := report.WriteMatrix(work, m); err != nil {
			return warning, fmt.Errorf("keeping the %s matrix of the previous outputs: %w", m.Study.Name, err)
		}
	}
	return warning, nil
}

// writeOutputs renders every output into dir (report.WriteFiles).
func writeOutputs(dir string, run *results.Run) error { return report.WriteFiles(dir, run) }
