package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// partialDir is where a run with output directory out works until it
// ends: its journal, and its outputs if it is interrupted.
func partialDir(out string) string { return filepath.Clean(out) + ".partial" }

// prepareWorkDir creates the working directory of a run into out, before
// any time is spent measuring. An unfinished run's working directory is
// never overwritten: its results are the user's.
func prepareWorkDir(out, work string) error {
	if _, err := os.Stat(filepath.Join(work, journal.Name)); err == nil {
		return &UsageError{Msg: fmt.Sprintf("%s holds an unfinished run; continue it with: serbench run -resume %s (or remove %s, or choose another -o)", work, out, work)}
	}
	if err := os.RemoveAll(work); err != nil {
		return &UsageError{Msg: fmt.Sprintf("cannot create output directory %s: %v; choose another with -o", work, err)}
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return &UsageError{Msg: fmt.Sprintf("cannot create output directory: %v; choose another with -o", err)}
	}
	return nil
}

// matrices are what serbench fidelity and serbench hostile write into an
// output directory. They do not depend on a run's timings, so a new run
// into the same directory keeps them (carryMatrices) and its report.html
// and summary.md show them.
var matrices = []string{"fidelity.json", "fidelity.csv", "hostile.json", "hostile.csv", "hostile"}

// carryMatrices copies the matrices of the previous outputs in out into
// work, where work does not have its own.
func carryMatrices(out, work string) error {
	for _, name := range matrices {
		from, to := filepath.Join(out, name), filepath.Join(work, name)
		if _, err := os.Lstat(to); err == nil {
			continue
		}
		fi, err := os.Lstat(from)
		if err != nil {
			continue // not there: nothing to keep
		}
		if fi.IsDir() {
			err = os.CopyFS(to, os.DirFS(from))
		} else if fi.Mode().IsRegular() {
			var b []byte
			if b, err = os.ReadFile(from); err == nil {
				err = os.WriteFile(to, b, 0o644)
			}
		}
		if err != nil {
			return fmt.Errorf("keeping %s of the previous outputs: %w", from, err)
		}
	}
	return nil
}

// publish makes a finished run's working directory the output directory
// out, as a set: the previous outputs stay in place until the new ones
// are complete, and are removed only once the new directory has taken
// their name.
func publish(work, out string) error {
	old := filepath.Clean(out) + ".old"
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("publishing the outputs: %w", err)
	}
	if _, err := os.Lstat(out); err == nil {
		if err := os.Rename(out, old); err != nil {
			return fmt.Errorf("publishing the outputs: moving the previous %s aside: %w", out, err)
		}
	}
	if err := os.Rename(work, out); err != nil {
		os.Rename(old, out) // put the previous outputs back
		return fmt.Errorf("publishing the outputs: %w", err)
	}
	return os.RemoveAll(old)
}

// checkWritable creates dir if needed and proves a file can be written in
// it, before any time is spent.
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

// writeOutputs renders every output into dir (report.WriteFiles).
func writeOutputs(dir string, run *results.Run) error { return report.WriteFiles(dir, run) }
