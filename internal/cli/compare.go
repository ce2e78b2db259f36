package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/results"
)

func compareCmd(args []string, stdout io.Writer) error {
	if len(args) != 2 {
		return usagef("compare needs two results: serbench compare OLD NEW, each a results.bench, a results.json, a serbench output directory or `go test -bench` output")
	}
	var sets [2]*compare.Set
	for i, name := range args {
		var err error
		if sets[i], err = readSet(name); err != nil {
			return err
		}
	}
	rows, err := compare.Compare(sets[0], sets[1])
	if err != nil {
		return err
	}
	if err := compare.WriteText(stdout, args[0], args[1], rows); err != nil {
		return err
	}
	for i, name := range args {
		if m := recordedMachine(name); m != nil && m.Probes > 0 {
			if _, err := fmt.Fprintf(stdout, "Machine, %s run (%s): %s.\n", [2]string{"old", "new"}[i], name, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordedMachine returns how steadily the machine ran for the run that name
// (a serbench output directory or results.json) records, or nil if name
// does not record it.
func recordedMachine(name string) *results.Machine {
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		name = filepath.Join(name, "results.json")
	}
	if !strings.HasSuffix(name, ".json") {
		return nil
	}
	run, err := readRun(name)
	if err != nil {
		return nil
	}
	return run.Machine
}

// readSet reads benchmark results from name: Go benchmark format, a
// serbench results.json, or a serbench output directory.
func readSet(name string) (*compare.Set, error) {
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		name = filepath.Join(name, "results.bench")
	}
	if !strings.HasSuffix(name, ".json") {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return compare.Read(f, name)
	}
	run, err := readRun(name)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := bench.Write(&buf, run); err != nil {
		return nil, err
	}
	return compare.Read(&buf, name)
}
