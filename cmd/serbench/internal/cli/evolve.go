package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// evolveCmd runs the schema-evolution matrix: every case both ways through
// every codec that takes part, each cell in a child process, the matrix
// on stdout, evolution.csv and evolution.json.
func evolveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	b := newFlags("evolve", "serbench evolve [-codecs LIST] [-cases LIST] [-parallel N] [-timeout D] [-o DIR] [-v]",
		"Runs every schema change both ways (an old reader on new data, a new reader on old data)\n"+
			"through every codec that can express it, and says what each reader gets.", stderr)
	fs := b.fs
	var (
		sf      studyFlags
		cases   = fs.String("cases", "", "comma-separated schema changes (default: all; see serbench list cases)")
		verbose = fs.Bool("v", false, "print every cell that does not read as the rules say, with what was written and read, or the message")
	)
	b.study(&sf, "evolution.csv and evolution.json", 2, evolve.DefaultTimeout, "one encode or decode")
	if err := b.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("evolve takes no arguments, got %q", fs.Args())
	}
	if err := evolve.CheckCodecs(splitList(sf.codecs)); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if err := evolve.CheckCases(splitList(*cases)); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	d, err := openOut(sf.out)
	if err != nil {
		return err
	}
	defer d.Close()
	pool := &worker.Pool{Parallel: sf.parallel}
	opts := evolve.Options{
		Codecs: splitList(sf.codecs), Cases: splitList(*cases), Timeout: sf.timeout,
		Progress: func(done, total int, c results.MatrixCell) {
			if c.Outcome == evolve.Crash {
				fmt.Fprintf(stderr, "[%d/%d] %s %s: %s %s\n", done, total, c.Codec, c.Case, c.Outcome, c.Note)
			}
		},
	}
	m, err := evolve.Run(ctx, pool, opts)
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("evolve: %v", err)}
	}
	if err := writeMatrix(d.Path(), m, stderr); err != nil {
		return &RunError{Msg: fmt.Sprintf("evolve: %v", err)}
	}
	return matrix.Write(stdout, m, *verbose)
}
