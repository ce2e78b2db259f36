package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/worker"
)

// costDeterminism is the worker's side of the cost study's determinism
// check.
var costDeterminism = worker.Handler{Name: cost.DeterminismTask, Run: cost.DeterminismHandler(registry.Lookup)}

// costCmd measures what adopting each codec costs, prints the matrix and
// writes cost.csv and cost.json into -o; a report.html beside a run's
// results there is rendered again with it.
func costCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	b := newFlags("cost", "serbench cost [-codecs LIST] [-runs N] [-src DIR] [-offline] [-o DIR]",
		"Measures what adopting each codec costs besides run time: the bytes it adds to a stripped\n"+
			"binary, the CPU-seconds it adds to a cold build, the modules, licences, unsafe, assembly,\n"+
			"cgo and JIT code it brings, its generated code and generator, whether its output is the\n"+
			"same bytes every time, and its module's latest release. It builds a small main per codec\n"+
			"in a temporary directory from the serbench checkout -src; cold builds run in child processes.", stderr)
	fs := b.fs
	var sf studyFlags
	var (
		runs    = fs.Int("runs", cost.DefaultRuns, "cold builds of each codec's main, whose median and 95% interval are reported (6 is the fewest with an interval); "+flagRanges["runs"].String())
		src     = fs.String("src", "", "the serbench checkout whose codecs are built (default: the module around the current directory)")
		offline = fs.Bool("offline", false, "ask the module proxy nothing: the upkeep column says so")
		quiet   bool
	)
	b.quiet(&quiet)
	b.study(&sf, "cost.csv and cost.json", 1, cost.DefaultTimeout, "one cold build")
	if err := b.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("cost takes no arguments, got %q; use -codecs", fs.Args())
	}
	infos := registry.Codecs
	if sf.codecs != "" {
		names := splitList(sf.codecs)
		if err := registry.Check(names); err != nil {
			return &UsageError{Msg: err.Error()}
		}
		infos = nil
		for _, n := range names {
			c, _ := registry.Lookup(n)
			infos = append(infos, c)
		}
	}
	root, err := checkout(*src)
	if err != nil {
		return err
	}
	d, err := openOut(sf.out)
	if err != nil {
		return err
	}
	r := &cost.Runner{Root: root, Runs: *runs, Parallel: sf.parallel, Timeout: sf.timeout}
	if *offline {
		r.Proxy = "off"
	}
	if !quiet {
		r.Progress = func(s string) { fmt.Fprintln(stderr, "cost:", s) }
	}
	m, err := r.Measure(ctx, infos)
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("cost: %v; nothing written", err)}
	}
	mx := m.Matrix(infos, registry.Version)
	fmt.Fprintf(stderr, "cost: %d codecs in %v\n", len(infos), mx.Elapsed)
	if err := writeMatrix(d.Path(), mx, stderr); err != nil {
		return &RunError{Msg: fmt.Sprintf("cost: %v", err)}
	}
	return matrix.Write(stdout, mx, false)
}

// checkout returns the serbench checkout src names, or the module root
// around the current directory.
func checkout(src string) (string, error) {
	if src != "" {
		abs, err := filepath.Abs(src)
		if err != nil {
			return "", &UsageError{Msg: fmt.Sprintf("-src %s: %v", src, err)}
		}
		return abs, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", &UsageError{Msg: err.Error()}
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", &UsageError{Msg: fmt.Sprintf("no go.mod in %s or above: run serbench cost in a serbench checkout, or name one with -src", dir)}
		}
	}
}
