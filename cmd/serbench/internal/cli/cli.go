// Package cli implements the serbench command. Run is the whole program;
// main only wires it to the process.
package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/serbench/serbench/compliance"
	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/internal/suggest"
	"github.com/serbench/serbench/interop"
	"github.com/serbench/serbench/machine"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// A UsageError is a mistake in the command line; it exits with status 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// A RunError says the run itself could not finish (interrupted, or its
// files could not be written); what it measured is kept in its journal.
// It exits with status 3.
type RunError struct{ Msg string }

func (e *RunError) Error() string { return e.Msg }

// A FailedError says the run finished, its results written, but some
// benchmarks failed verification or errored. It exits with status 1.
type FailedError struct{ Msg string }

func (e *FailedError) Error() string { return e.Msg }

// errHelp reports that help was printed as asked.
var errHelp = errors.New("help requested")

// ExitCode maps an error from Run to a process exit status: 0 for nil
// (everything measured); 1 when some benchmark failed verification or
// errored (its results written) or for any other failure; 2 for misuse: a
// mistake in the command line, or an input file that report or compare
// cannot use (missing, malformed, truncated or empty); 3 when the run
// could not finish (its journal kept, see RunError).
func ExitCode(err error) int {
	var u *UsageError
	var r *RunError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		return 2
	case errors.As(err, &r):
		return 3
	default:
		return 1
	}
}

const usage = `serbench benchmarks Go serialization codecs, verifying every round trip.

Usage:
  serbench                      run the quick preset (same as: serbench run)
  serbench run [flags]          measure; print a table, write results to -o DIR
  serbench list [-v] [codecs|datasets|presets|probes|classes|cases|costs|claims|needs]
                                what -codecs, -datasets, -preset, fidelity's -probes,
                                hostile's -classes, evolve's -cases, cost's -costs,
                                reproduce's -claims and run's -need accept
  serbench report RESULTS [-o DIR]
                                re-render every output from saved results: a
                                results.json, a journal.jsonl or an output directory
                                (a run's DIR/partial too)
  serbench compare OLD NEW      deltas with significance, as benchstat computes them;
                                OLD and NEW: what report reads, a results.bench, or
                                go test -bench output
  serbench fidelity [-codecs LIST] [-probes LIST] [-o DIR] [-v]
                                what survives the round trip: every probe through
                                every codec, as a matrix; fidelity.csv, fidelity.json
  serbench hostile [-codecs LIST] [-classes LIST] [-quick] [-timeout D] [-o DIR]
                                which decoders survive malformed and malicious input
  serbench evolve [-codecs LIST] [-cases LIST] [-o DIR] [-v]
                                what each reader gets when writer and reader disagree
                                on the schema: every change both ways, as a matrix;
                                evolution.csv, evolution.json
  serbench interop [-codecs LIST] [-langs LIST] [-probes LIST] [-o DIR] [-v]
                                can Python, JavaScript, Java read it? every probe three
                                ways between each Go codec and the peers of its format
                                (scripts/interop-peers installs them); interop.csv,
                                interop.json, report.html, summary.md
  serbench cost [-codecs LIST] [-runs N] [-offline] [-o DIR] [-resume DIR]
                                what adopting each codec costs: binary bytes, cold-build
                                CPU-seconds, modules and licences, unsafe/asm/JIT,
                                generated code, deterministic output, upkeep; cost.csv,
                                cost.json
  serbench reproduce [-claims LIST] [-o DIR]
                                check the seed articles' claims; writes DIR/REPRODUCTION.md
  serbench version              the serbench version, the Go version and GOOS/GOARCH
  serbench help                 this text

Run 'serbench run -h' for the run flags.

Exit status: 0 when every benchmark was measured (or skipped with a
reason); 1 when some failed verification or errored (every output still
written); 2 for a mistake in the command line or an input file that
cannot be used (missing, malformed, truncated, empty); 3 when the run
itself could not finish (interrupted, or its files could not be
written): its results are kept in DIR/partial, and 'serbench run -resume
DIR' continues it.
`

// Run runs the serbench command with args (without the program name).
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	// A registry entry a package's init rewrote is refused in the parent
	// and in every child, before any codec runs.
	if err := registry.Intact(); err != nil {
		return err
	}
	if len(args) == 1 && args[0] == worker.CommandName {
		// The hidden command a worker.Pool starts every child with.
		return worker.Serve(ctx, stdin, func(s worker.Spec) (runner.Job, error) {
			return preset.Job(s.Codec, s.Dataset, s.Shape, s.Ops)
		}, append(studyHandlers(), needProbeHandler, freshHandler, coldHandler, sampleHandler, speedHandler)...)
	}
	if len(args) > 0 && args[0] == worker.WatchCommandName {
		// The hidden command a worker.Watcher is started with: it waits
		// for its parent to end, however it ends, and cleans up after it.
		worker.AwaitParent(stdin)
		return watcherWork(args[1:])
	}
	err := dispatch(ctx, args, stdout, stderr)
	if errors.Is(err, errHelp) {
		return nil // the flag package printed the usage asked for
	}
	return err
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runCmd(ctx, nil, stdout, stderr)
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		return runCmd(ctx, rest, stdout, stderr)
	case "list":
		return listCmd(rest, stdout, stderr)
	case "report":
		return reportCmd(rest, stdout, stderr)
	case "compare":
		return compareCmd(ctx, rest, stdout, stderr)
	case "fidelity":
		return fidelityCmd(ctx, rest, stdout, stderr)
	case "hostile":
		return hostileCmd(ctx, rest, stdout, stderr)
	case "evolve":
		return evolveCmd(ctx, rest, stdout, stderr)
	case "interop":
		return interopCmd(ctx, rest, stdout, stderr)
	case "reproduce":
		return reproduceCmd(ctx, rest, stdout, stderr)
	case "cost":
		return costCmd(ctx, rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	case "version", "-version", "--version":
		if len(rest) > 0 {
			return usagef("version takes no arguments, got %q", rest)
		}
		_, err := fmt.Fprintln(stdout, versionLine())
		return err
	default:
		if strings.HasPrefix(cmd, "-") {
			// Flags without a command mean "run".
			return runCmd(ctx, args, stdout, stderr)
		}
		return usagef("unknown command %q; known: run, list, report, compare, fidelity, hostile, evolve, interop, cost, reproduce, version, help", cmd)
	}
}

// versionLine is what 'serbench version' prints: "serbench VERSION
// GOVERSION GOOS/GOARCH".
func versionLine() string {
	return fmt.Sprintf("serbench %s %s %s/%s", machine.Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// parse parses flags, turning flag errors into usage errors. An unknown
// flag is named with the flags closest to it (-codec: did you mean
// -codecs?), without the whole flag list the flag package prints: -h
// prints it.
func parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	var said bytes.Buffer
	fs.SetOutput(&said)
	err := fs.Parse(args)
	fs.SetOutput(out)
	if err == nil {
		return nil
	}
	if errors.Is(err, flag.ErrHelp) {
		out.Write(said.Bytes())
		return errHelp
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, "-"+f.Name) })
		if err := suggest.Check("flag", []string{name}, known, nil, fs.Name()+" -h"); err != nil {
			return &UsageError{Msg: err.Error()}
		}
	}
	return &UsageError{Msg: err.Error()}
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// studyHandlers returns the worker tasks of every study (package study),
// which a child serves.
func studyHandlers() []worker.Handler {
	hs := []worker.Handler{fidelity.Spec().Handler(), hostile.Spec(false).Handler(), evolve.Spec().Handler(), interop.Handler, cost.Spec(cost.Options{}).Handler()}
	// The suite is embedded: it fails to load only in a broken build, and
	// the parent then says so before it starts any child.
	if s, err := compliance.Spec(); err == nil {
		hs = append(hs, s.Handler())
	}
	return hs
}
