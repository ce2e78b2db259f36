package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/report"
	reporthostile "github.com/serbench/serbench/report/hostile"
	"github.com/serbench/serbench/worker"
)

// hostileCmd runs the hostile-input matrix: every cell in a child process,
// the matrix on stdout, hostile.csv, hostile.json and the reproducers of
// the cells that did not end cleanly under DIR/hostile/.
func hostileCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	b := newFlags("hostile", "serbench hostile [-codecs LIST] [-classes LIST] [-quick] [-timeout D] [-o DIR]",
		"Feeds every decoder malformed and malicious inputs, each codec in capped child processes,\n"+
			"and keeps the smallest reproducer of every crash, hang or blow-up.", stderr)
	fs := b.fs
	var (
		codecs, out string
		parallel    int
		timeout     time.Duration
		classes     = fs.String("classes", "", "comma-separated input classes (default: all; see serbench list classes)")
		quick       = fs.Bool("quick", false, "fewer inputs per class and nesting only to 100,000 levels")
	)
	b.codecs(&codecs, "every registered codec")
	b.out(&out, "hostile.csv, hostile.json and the reproducers under hostile/")
	b.parallel(&parallel, 1)
	b.timeout(&timeout, hostile.DefaultTimeout, "one input")
	if err := b.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("hostile takes no arguments, got %q", fs.Args())
	}
	if err := registry.Check(splitList(codecs)); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if err := hostile.CheckClasses(splitList(*classes)); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	d, err := openOut(out)
	if err != nil {
		return err
	}
	pool := &worker.Pool{Parallel: parallel}
	opts := hostile.Options{
		Codecs: splitList(codecs), Classes: splitList(*classes), Quick: *quick, Timeout: timeout,
		Progress: func(done, total int, c hostile.Cell) {
			if !c.Outcome.Clean() {
				fmt.Fprintf(stderr, "[%d/%d] %s %s: %s %s\n", done, total, c.Codec, c.Class, c.Outcome, c.Crash)
			}
		},
	}
	m, err := hostile.Run(ctx, pool, opts)
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
	}
	if err := writeHostile(d.Path(), m); err != nil {
		return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
	}
	fmt.Fprintf(stderr, "hostile: wrote %s, %s and the reproducers under %s\n", d.Join("hostile.json"), d.Join("hostile.csv"), d.Join("hostile"))
	// Beside a run's results, report.html and summary.md show the matrix.
	if d.Has("results.json") {
		run, err := readRun(d.Path())
		if err == nil {
			run.Hostile = m
			err = report.WriteFiles(d.Path(), run)
		}
		if err != nil {
			return &RunError{Msg: fmt.Sprintf("hostile: re-rendering the run's report in %s: %v", d.Path(), err)}
		}
		fmt.Fprintf(stderr, "hostile: %s holds a run's results: rendered its report.html and summary.md again with the matrix\n", d.Path())
	}
	return reporthostile.Write(stdout, m)
}

// writeHostile writes the reproducers, hostile.json and hostile.csv under
// dir, setting each cell's File.
func writeHostile(dir string, m *hostile.Matrix) error {
	rdir := filepath.Join(dir, "hostile")
	if err := os.MkdirAll(rdir, 0o755); err != nil {
		return err
	}
	// The reproducers of an earlier matrix would read as this one's.
	old, _ := filepath.Glob(filepath.Join(rdir, "*.bin"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	for i, c := range m.Cells {
		if c.Repro == nil {
			continue
		}
		name := filepath.Join("hostile", c.Codec+"-"+c.Class+".bin")
		if err := os.WriteFile(filepath.Join(dir, name), c.Repro, 0o644); err != nil {
			return err
		}
		m.Cells[i].File = filepath.ToSlash(name)
	}
	j, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "hostile.json"), append(j, '\n'), 0o644); err != nil {
		return err
	}
	var csv bytes.Buffer
	if err := reporthostile.WriteCSV(&csv, m); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "hostile.csv"), csv.Bytes(), 0o644)
}
