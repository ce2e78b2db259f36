package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/serbench/serbench/compliance"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// hostileCmd runs the hostile-input matrix: every cell in a child process,
// the matrix on stdout, hostile.csv, hostile.json and the reproducers of
// the cells that did not end cleanly under DIR/hostile/; then, unless
// -compliance=false, the JSON compliance matrix of the JSON codecs among
// them (json-compliance.*), whose wrong accepts the hostile verdicts say.
// -input adds the user's files as the class input (alone, unless -classes
// asks for more); -fuzz first fuzzes each decoder and adds its crashers
// as the class fuzz.
func hostileCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		quick, suite     bool
		input            string
		rest             []string
		inputs           []hostile.External
		fuzz             time.Duration
		fuzzCPU          time.Duration
		fuzzRuns         int // the codecs fuzzed
		complianceCodecs func(o study.Options) []string
	)
	sc := &studyCommand{
		spec: func() (*study.Study, error) {
			o := hostile.Options{Quick: quick, Inputs: inputs}
			if fuzz > 0 {
				fuzzCPU, fuzzRuns = 0, 0
				o.Fuzz = &hostile.FuzzOptions{Budget: fuzz, Progress: func(st hostile.FuzzStat) {
					fuzzCPU, fuzzRuns = fuzzCPU+st.CPU, fuzzRuns+1
					fmt.Fprintf(stderr, "fuzz %s: %d crashers in %v, %v of CPU time%s\n", st.Codec, len(st.Crashers), st.Elapsed, st.CPU.Round(100*time.Millisecond), errNote(st.Err))
				}}
			}
			return hostile.SpecOf(o), nil
		},
		usage: "serbench hostile [-codecs LIST] [-classes LIST] [-quick] [-compliance=false] [-timeout D] [-fuzz D] [-o DIR] [-v] [-resume DIR]\n" +
			"       serbench hostile -input FILE [FILE|DIR...] [-codecs LIST] [-o DIR]",
		about: "Feeds every decoder malformed and malicious inputs, each codec in capped child processes,\n" +
			"and keeps the smallest reproducer of every crash, hang or blow-up. Then runs JSONTestSuite's\n" +
			"valid, invalid and implementation-defined cases through every JSON codec among them.\n" +
			"With -input, the files given (and every file under a directory given) are the inputs instead.\n" +
			"The class fuzz decodes the crashers fuzzing found before, kept in serbench's tree (hostile/crashers).\n" +
			"With -fuzz, each decoder is first fuzzed (go test -fuzz, coverage-guided, from serbench's source)\n" +
			"for that long, and the crashers found join them in the class fuzz. A nightly campaign,\n" +
			"-fuzz 60s, takes about 70 CPU-minutes over every codec: the budget times the codecs, on one core each.",
		parallel: 1,
		flags: func(b *flagBuilder) {
			b.fs.BoolVar(&quick, "quick", false, "fewer inputs per class and nesting only to 100,000 levels")
			b.fs.BoolVar(&suite, "compliance", true, "also run JSONTestSuite's cases through the JSON codecs among -codecs (json-compliance.csv, .json)")
			b.fs.StringVar(&input, "input", "", "decode this `FILE` (and the files after the flags; a directory's files too) with every decoder, "+
				"in the same capped children, instead of the classes (add -classes to run them too); each file at most 64 MiB, 256 MiB in all")
			b.fs.DurationVar(&fuzz, "fuzz", 0, "first fuzz each decoder with go test -fuzz for this `long` (its CPU time too: one fuzzing worker), "+
				"in capped children, and add the crashers found as the class fuzz; needs serbench's source and a Go toolchain (0: no fuzzing)")
		},
		args: func(args []string) error {
			rest = args
			if len(args) > 0 && input == "" {
				return usagef("hostile takes no arguments but -input's files, got %q", args)
			}
			if fuzz < 0 {
				return usagef("-fuzz %v: a fuzzing budget is a positive duration (60s), or 0 for none", fuzz)
			}
			inputs = nil
			if input != "" {
				var err error
				if inputs, err = hostile.ReadInputs(append([]string{input}, rest...)); err != nil {
					return &UsageError{Msg: err.Error()}
				}
			}
			return nil
		},
		cases: func(given []string) []string {
			switch {
			case len(given) > 0:
				// -fuzz fuzzes the codecs that have a cell of the class
				// fuzz, where its crashers are decoded: named or not.
				if fuzz > 0 && !slices.Contains(given, hostile.ClassFuzz) {
					given = append(given, hostile.ClassFuzz)
				}
				return given
			case len(inputs) == 0:
				return nil
			case fuzz > 0:
				// The user's bytes alone (and the crashers of -fuzz),
				// unless -classes asks for more.
				return []string{hostile.ClassInput, hostile.ClassFuzz}
			}
			return []string{hostile.ClassInput}
		},
		after: func(o study.Options) (int, string) {
			s, err := compliance.Spec()
			if err != nil {
				return 0, ""
			}
			return len(complianceCodecs(o)) * len(s.Cases), "cells of " + s.Matrix.Name
		},
		then: func(ctx context.Context, pool *worker.Pool, m *results.Matrix, o study.Options) ([]*results.Matrix, error) {
			if fuzzRuns > 0 {
				fmt.Fprintf(stderr, "fuzz: %d codecs, %v of CPU time in all\n", fuzzRuns, fuzzCPU.Round(time.Second))
			}
			for _, line := range hostile.FuzzFindings(m) {
				fmt.Fprintln(stderr, line)
			}
			jsonCodecs := complianceCodecs(o)
			if len(jsonCodecs) == 0 {
				return nil, nil
			}
			s, err := compliance.Spec()
			if err != nil {
				return nil, err
			}
			cm, err := study.Run(ctx, pool, s, study.Options{Codecs: jsonCodecs, Timeout: o.Timeout})
			if err != nil {
				return nil, err
			}
			compliance.Annotate(m, cm)
			return []*results.Matrix{cm}, nil
		},
	}
	// complianceCodecs returns the JSON codecs the compliance study runs
	// after the cells o selects: none without -compliance, or when the
	// user's -input files are the only class.
	complianceCodecs = func(o study.Options) []string {
		if !suite || len(inputs) > 0 && slices.Equal(o.Cases, []string{hostile.ClassInput}) {
			return nil
		}
		return compliance.JSONCodecs(o.Codecs)
	}
	return sc.run(ctx, args, stdout, stderr)
}

// errNote is "; ERR" for an error, or nothing.
func errNote(err string) string {
	if err == "" {
		return ""
	}
	return "; " + err
}
