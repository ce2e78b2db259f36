package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/internal/outdir"
	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/report/table"
	"github.com/serbench/serbench/results"
)

func reportCmd(args []string, stdout, stderr io.Writer) error {
	b := newFlags("report", "serbench report RESULTS.json|journal.jsonl|DIR [-o DIR]",
		"Renders every output again from saved results: a results.json, a run's journal.jsonl, or an\n"+
			"output directory (an unfinished run's DIR/partial too).", stderr)
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
	run, err := readRun(file)
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	run.Hostile = report.ReadHostile(file) // a directory's hostile matrix goes along
	d, err := openOut(out)
	if err != nil {
		return err
	}
	if err := writeOutputs(d.Path(), run); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "serbench: wrote %s\n", outputList(d.Path()))
	return table.Write(stdout, run)
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
			return nil, fmt.Errorf("%s holds neither results.json nor %s: not a serbench output directory", path, journal.Name)
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
