package cli

import (
	"context"
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
	b := newFlags("hostile", "serbench hostile [-codecs LIST] [-classes LIST] [-quick] [-timeout D] [-o DIR]",
		"Feeds every decoder malformed and malicious inputs, each codec in capped child processes,\n"+
			"and keeps the smallest reproducer of every crash, hang or blow-up.", stderr)
	fs := b.fs
	var (
		sf      studyFlags
		classes = fs.String("classes", "", "comma-separated input classes (default: all; see serbench list classes)")
		quick   = fs.Bool("quick", false, "fewer inputs per class and nesting only to 100,000 levels")
	)
	b.study(&sf, "hostile.csv, hostile.json and the reproducers under hostile/", 1, hostile.DefaultTimeout, "one input")
	if err := b.parse(args); err != nil {
		return err
	}
	codecs, out, parallel, timeout := sf.codecs, sf.out, sf.parallel, sf.timeout
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
			if !hostile.IsClean(&c) {
				fmt.Fprintf(stderr, "[%d/%d] %s %s: %s %s\n", done, total, c.Codec, c.Case, c.Outcome, c.Note)
			}
		},
	}
	m, err := hostile.Run(ctx, pool, opts)
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
	}
	if err := writeMatrix(d.Path(), m, stderr); err != nil {
		return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
	}
	return matrix.Write(stdout, m, false)
}
