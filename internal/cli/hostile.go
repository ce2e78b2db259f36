package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/worker"
)

// hostileCmd runs the hostile-input matrix: every cell in a child process,
// the matrix on stdout, hostile.csv, hostile.json and the reproducers of
// the cells that did not end cleanly under DIR/hostile/.
func hostileCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serbench hostile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		codecs   = fs.String("codecs", "", "comma-separated codecs (default: every registered codec; see serbench list codecs)")
		classes  = fs.String("classes", "", "comma-separated input classes (default: all; see serbench list classes)")
		quick    = fs.Bool("quick", false, "fewer inputs per class and nesting only to 100,000 levels")
		timeout  = fs.Duration("timeout", hostile.DefaultTimeout, "how long one input may take before its child process is killed as hung")
		parallel = fs.Int("parallel", 1, "how many child processes run at once")
		out      = fs.String("o", "serbench-out", "directory for hostile.csv, hostile.json and the reproducers under hostile/")
	)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("hostile takes no arguments, got %q", fs.Args())
	}
	if err := registry.Check(splitList(*codecs)); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if err := hostile.CheckClasses(splitList(*classes)); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if *timeout <= 0 || *parallel < 1 {
		return usagef("-timeout must be positive and -parallel at least 1")
	}
	pool := &worker.Pool{Parallel: *parallel}
	opts := hostile.Options{
		Codecs: splitList(*codecs), Classes: splitList(*classes), Quick: *quick, Timeout: *timeout,
		Progress: func(done, total int, c hostile.Cell) {
			if !hostile.IsClean(&c) {
				fmt.Fprintf(stderr, "[%d/%d] %s %s: %s %s\n", done, total, c.Codec, c.Case, c.Outcome, c.Note)
			}
		},
	}
	m, err := hostile.Run(ctx, pool, opts)
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
	}
	if err := writeMatrix(*out, m, stderr); err != nil {
		return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
	}
	return matrix.Write(stdout, m, false)
}
