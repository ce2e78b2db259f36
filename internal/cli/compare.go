package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/results"
)

func compareCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serbench compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: serbench compare OLD NEW

Compares two runs as benchstat does: per benchmark, each side's median
with its 95% interval, and the delta where a Mann-Whitney U test finds a
difference (p ≤ 0.05); then whether the codecs kept their ranking.
OLD and NEW are each what serbench report reads (a results.json, a
journal.jsonl, a serbench output directory or a run's DIR/partial), a
results.bench, or the output of go test -bench. Benchmarks only one of
them holds are counted and named, not compared.
`)
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	args = fs.Args()
	if len(args) != 2 {
		return usagef("compare needs two results: serbench compare OLD NEW, each a results.bench, a results.json, a serbench output directory or `go test -bench` output")
	}
	var sets [2]*compare.Set
	var machines [2]*results.Machine
	for i, name := range args {
		var err error
		if sets[i], machines[i], err = readSet(name); err != nil {
			return &UsageError{Msg: err.Error()}
		}
	}
	rows, err := compare.Compare(sets[0], sets[1])
	if err != nil {
		return &UsageError{Msg: fmt.Sprintf("%v: %s holds %d benchmarks, %s %d", err, args[0], len(sets[0].Names()), args[1], len(sets[1].Names()))}
	}
	if err := compare.WriteText(stdout, args[0], args[1], rows); err != nil {
		return err
	}
	if err := compare.WriteUnmatched(stdout, sets[0], sets[1]); err != nil {
		return err
	}
	for i, m := range machines {
		if m != nil && m.Probes > 0 {
			if _, err := fmt.Fprintf(stdout, "Machine, %s run (%s): %s.\n", [2]string{"old", "new"}[i], args[i], m); err != nil {
				return err
			}
		}
	}
	return nil
}

// readSet reads benchmark results from name: Go benchmark format, or
// whatever readRun reads (a serbench results.json, a journal, an output
// directory, whose results.bench it prefers). It also returns how steadily
// the machine ran, when name holds a record of the run that says.
func readSet(name string) (*compare.Set, *results.Machine, error) {
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		if bench := filepath.Join(name, "results.bench"); fileExists(bench) {
			var m *results.Machine
			if run, err := readRun(filepath.Join(name, "results.json")); err == nil {
				m = run.Machine
			}
			set, err := readBench(bench)
			return set, m, err
		}
		// A run's working directory, DIR/partial, holds its journal.
	} else if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".jsonl") {
		set, err := readBench(name)
		return set, nil, err
	}
	run, err := readRun(name)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := bench.Write(&buf, run); err != nil {
		return nil, nil, err
	}
	set, err := compare.Read(&buf, name)
	return set, run.Machine, err
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readBench reads a file in Go's benchmark format.
func readBench(path string) (*compare.Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return compare.Read(f, path)
}
