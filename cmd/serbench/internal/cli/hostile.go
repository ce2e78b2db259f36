package cli

import (
	"context"
	"fmt"
	"io"
	"time"

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
	b := newFlags("hostile", "serbench hostile [-codecs LIST] [-classes LIST] [-quick] [-compliance=false] [-timeout D] [-fuzz D] [-o DIR] [-input FILE...]",
		"Feeds every decoder malformed and malicious inputs, each codec in capped child processes,\n"+
			"and keeps the smallest reproducer of every crash, hang or blow-up. Then runs JSONTestSuite's\n"+
			"valid, invalid and implementation-defined cases through every JSON codec among them.\n"+
			"With -input, the files given (and every file under a directory given) are the inputs instead.\n"+
			"With -fuzz, each decoder is first fuzzed (go test -fuzz, coverage-guided, from serbench's source)\n"+
			"for that long, and the crashers found join the matrix as the class fuzz. A nightly campaign,\n"+
			"-fuzz 60s, takes about 70 CPU-minutes over every codec: the budget times the codecs, on one core each.", stderr)
	fs := b.fs
	var (
		sf      studyFlags
		classes = fs.String("classes", "", "comma-separated input classes (default: all; see serbench list classes)")
		quick   = fs.Bool("quick", false, "fewer inputs per class and nesting only to 100,000 levels")
		suite   = fs.Bool("compliance", true, "also run JSONTestSuite's cases through the JSON codecs among -codecs (json-compliance.csv, .json)")
		input   = fs.String("input", "", "decode this `FILE` (and the files after the flags; a directory's files too) with every decoder, "+
			"in the same capped children, instead of the classes (add -classes to run them too); each file at most 64 MiB, 256 MiB in all")
		fuzz = fs.Duration("fuzz", 0, "first fuzz each decoder with go test -fuzz for this `long` (its CPU time too: one fuzzing worker), "+
			"in capped children, and add the crashers found as the class fuzz; needs serbench's source and a Go toolchain (0: no fuzzing)")
	)
	b.study(&sf, "hostile.csv, hostile.json and the reproducers under hostile/", 1, hostile.DefaultTimeout, "one input")
	if err := b.parse(args); err != nil {
		return err
	}
	codecs, out, parallel, timeout := sf.codecs, sf.out, sf.parallel, sf.timeout
	if fs.NArg() > 0 && *input == "" {
		return usagef("hostile takes no arguments but -input's files, got %q", fs.Args())
	}
	var inputs []hostile.External
	if *input != "" {
		var err error
		if inputs, err = hostile.ReadInputs(append([]string{*input}, fs.Args()...)); err != nil {
			return &UsageError{Msg: err.Error()}
		}
		*suite = *suite && *classes != "" // the user's bytes alone, unless classes are asked for too
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
		Codecs: splitList(codecs), Classes: splitList(*classes), Quick: *quick, Timeout: timeout, Inputs: inputs,
		Progress: func(done, total int, c hostile.Cell) {
			if !hostile.IsClean(&c) {
				fmt.Fprintf(stderr, "[%d/%d] %s %s: %s %s\n", done, total, c.Codec, c.Case, c.Outcome, c.Note)
			}
		},
	}
	if *fuzz < 0 {
		return usagef("-fuzz %v: a fuzzing budget is a positive duration (60s), or 0 for none", *fuzz)
	}
	if *fuzz > 0 {
		stats, err := hostile.Fuzz(ctx, pool, hostile.FuzzOptions{Codecs: splitList(codecs), Budget: *fuzz,
			Progress: func(st hostile.FuzzStat) {
				fmt.Fprintf(stderr, "fuzz %s: %d crashers in %v, %v of CPU time%s\n", st.Codec, len(st.Crashers), st.Elapsed, st.CPU.Round(100*time.Millisecond), errNote(st.Err))
			}})
		if err != nil {
			return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
		}
		opts.Fuzzed = map[string][]hostile.External{}
		var cpu time.Duration
		for _, st := range stats {
			opts.Fuzzed[st.Codec] = st.Crashers
			cpu += st.CPU
		}
		fmt.Fprintf(stderr, "fuzz: %d codecs, %v of CPU time in all\n", len(stats), cpu.Round(time.Second))
	}
	m, err := hostile.Run(ctx, pool, opts)
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("hostile: %v", err)}
	}
	for _, line := range hostile.FuzzFindings(m) {
		fmt.Fprintln(stderr, line)
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

// errNote is ", ERR" for an error, or nothing.
func errNote(err string) string {
	if err == "" {
		return ""
	}
	return "; " + err
}
