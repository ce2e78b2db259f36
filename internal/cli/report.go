package cli

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/serbench/serbench/report/table"
	"github.com/serbench/serbench/results"
)

func reportCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serbench report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "serbench-out", "directory to write the outputs into")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: serbench report RESULTS.json [-o DIR]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	// Accept the file before or after the flags.
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 || file == "" {
		return usagef("report needs exactly one results.json file")
	}
	run, err := readRun(file)
	if err != nil {
		return err
	}
	if err := checkWritable(*out); err != nil {
		return err
	}
	if err := writeOutputs(*out, run); err != nil {
		return err
	}
	return table.Write(stdout, run)
}

// readRun reads a serbench results.json.
func readRun(path string) (*results.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return results.ReadJSON(f, path)
}
