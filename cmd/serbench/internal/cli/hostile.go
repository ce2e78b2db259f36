package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/serbench/serbench/compliance"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// hostileCmd runs the hostile-input matrix: every cell in a child process,
// the matrix on stdout, hostile.csv, hostile.json and the reproducers of
// the cells that did not end cleanly under DIR/hostile/; then, unless
// -compliance=false, the JSON compliance matrix of the JSON codecs among
// them (json-compliance.*), whose wrong accepts the hostile verdicts say.
func hostileCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	b := newFlags("hostile", "serbench hostile [-codecs LIST] [-classes LIST] [-quick] [-compliance=false] [-timeout D] [-o DIR]",
		"Feeds every decoder malformed and malicious inputs, each codec in capped child processes,\n"+
			"and keeps the smallest reproducer of every crash, hang or blow-up. Then runs JSONTestSuite's\n"+
			"valid, invalid and implementation-defined cases through every JSON codec among them.", stderr)
	fs := b.fs
	var (
		sf      studyFlags
		classes = fs.String("classes", "", "comma-separated input classes (default: all; see serbench list classes)")
		quick   = fs.Bool("quick", false, "fewer inputs per class and nesting only to 100,000 levels")
		suite   = fs.Bool("compliance", true, "also run JSONTestSuite's cases through the JSON codecs among -codecs (json-compliance.csv, .json)")
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
	defer d.Close()
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
	var cm *results.Matrix
	if jsonCodecs := compliance.JSONCodecs(splitList(codecs)); *suite && len(jsonCodecs) > 0 {
		if cm, err = compliance.Run(ctx, pool, compliance.Options{Codecs: jsonCodecs, Timeout: timeout}); err != nil {
			return &RunError{Msg: fmt.Sprintf("json-compliance: %v", err)}
		}
		compliance.Annotate(m, cm)
	}
	if err := writeMatrix(d.Path(), m, stderr); err != nil {
		return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
	}
	if err := matrix.Write(stdout, m, false); err != nil || cm == nil {
		return err
	}
	if err := writeMatrix(d.Path(), cm, stderr); err != nil {
		return &RunError{Msg: fmt.Sprintf("json-compliance: %v", err)}
	}
	fmt.Fprintln(stdout)
	return matrix.Write(stdout, cm, false)
}
