package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/serbench/serbench/cmd/serbench/internal/progress"
	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// A studyCommand is a study (package study) made a command: the one
// template of fidelity, hostile, evolve and every later study. It gives
// each the same flags (-codecs, -CASELIST, -o, -parallel, -timeout,
// -resume, -v, each from the flag builder), the same checks of names
// before any work, the same journal of cells in the output directory, and
// the same outputs: the matrix on stdout, NAME.csv and NAME.json in -o.
type studyCommand struct {
	// spec is the study, built from the command's own flags (parsed by
	// then) when it has any.
	spec func() (*study.Study, error)
	// command is the command's name where it is not the study's (evolve
	// runs the evolution study): the name its hints tell the user to type.
	command string
	// usage and about head the -h text.
	usage, about string
	// parallel is -parallel's default.
	parallel int
	// flags, if set, defines the command's own flags.
	flags func(b *flagBuilder)
	// then, if set, runs after the matrix is complete and before it is
	// written, on the same pool: hostile's JSON compliance matrix, whose
	// matrices it returns to be written and printed after the study's.
	then func(ctx context.Context, pool *worker.Pool, m *results.Matrix, o study.Options) ([]*results.Matrix, error)
	// after, if set, says how many cells then runs (a study's, and its
	// name), for the estimate: counted at the pace of the study's own.
	after func(o study.Options) (int, string)
	// args, if set, takes the arguments after the flags (hostile's
	// -input files), which are otherwise refused; it runs before spec.
	args func(args []string) error
	// cases, if set, returns the cases run, given -CASELIST's (nil when
	// it is not given: every case): hostile -input runs the user's files
	// alone, and -fuzz adds the class its crashers are decoded in.
	cases func(given []string) []string
	// pages, if set, writes report.html and summary.md of the matrices
	// in -o as well, where no run's results are there to draw them.
	pages bool
}

// commandName is the name of the command that runs the study named name.
func (sc *studyCommand) commandName(name string) string { return cmp.Or(sc.command, name) }

// journalName is the file a study's journal is kept in, in the output
// directory, while the study runs: its presence says the study did not
// finish.
func journalName(name string) string { return name + ".journal.jsonl" }

// run runs the command with args.
func (sc *studyCommand) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s, r, err := sc.parse(args, stderr)
	if err != nil || r.resume == "" {
		if err != nil {
			return err
		}
		return sc.execute(ctx, s, args, r, nil, stdout, stderr)
	}
	name := s.Matrix.Name
	for f := range r.set {
		if f != "resume" && f != "v" {
			return usagef("-resume takes the options of the study it finishes: give it alone (or with -v), not with -%s", f)
		}
	}
	h, cells, err := journal.ReadCells(filepath.Join(r.resume, journalName(name)))
	if err != nil {
		return &UsageError{Msg: fmt.Sprintf("nothing to resume in %s: %v", r.resume, err)}
	}
	if h.Study != name {
		return usagef("%s holds a journal of %q, not of %s", r.resume, h.Study, name)
	}
	// The journal's options, the output written where -resume points.
	verbose, dir := r.verbose, r.resume
	if s, r, err = sc.parse(append(append([]string(nil), h.Args...), "-o", dir), stderr); err != nil {
		return fmt.Errorf("the journal's arguments %q: %w", h.Args, err)
	}
	r.verbose = verbose
	return sc.execute(ctx, s, h.Args, r, cells, stdout, stderr)
}

// A studyRun is what a study command's flags ask for.
type studyRun struct {
	flags   studyFlags
	cases   string
	verbose bool
	resume  string
	set     map[string]bool // the flags given
}

// parse parses the command's flags and returns the study they build.
func (sc *studyCommand) parse(args []string, stderr io.Writer) (*study.Study, studyRun, error) {
	var r studyRun
	s, err := sc.spec()
	if err != nil {
		return nil, r, err
	}
	name := s.Matrix.Name
	b := newFlags(sc.commandName(name), sc.usage, sc.about, stderr)
	b.study(&r.flags, name+".csv and "+name+".json", sc.parallel, s.Timeout, s.Step)
	list := cmp.Or(s.CaseList, "cases")
	b.fs.StringVar(&r.cases, list, "", "comma-separated "+list+" (default: all; see serbench list "+list+")")
	b.verbose(&r.verbose, "print every cell that is not of the best outcome, with what it holds, and the codecs that take no part, with why")
	b.resume(&r.resume, "study")
	if sc.flags != nil {
		sc.flags(b)
	}
	if err := b.parse(args); err != nil {
		return nil, r, err
	}
	if sc.args != nil {
		if err := sc.args(b.fs.Args()); err != nil {
			return nil, r, err
		}
	} else if b.fs.NArg() > 0 {
		return nil, r, usagef("%s takes no arguments, got %q; use -codecs and -%s", sc.commandName(name), b.fs.Args(), list)
	}
	r.set = map[string]bool{}
	b.fs.Visit(func(f *flag.Flag) { r.set[f.Name] = true })
	// The study of the command's own flags, now parsed.
	s, err = sc.spec()
	return s, r, err
}

// execute runs the study s as r asks, journaling its cells into the
// output directory, and writes its matrix. done are the cells a resumed
// run keeps; args are the arguments the journal records.
func (sc *studyCommand) execute(ctx context.Context, s *study.Study, args []string, r studyRun, done []results.MatrixCell, stdout, stderr io.Writer) error {
	name := s.Matrix.Name
	o := study.Options{Codecs: splitList(r.flags.codecs), Cases: splitList(r.cases), Timeout: r.flags.timeout, Done: done}
	if sc.cases != nil {
		o.Cases = sc.cases(o.Cases)
	}
	if err := study.Check(s, o); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	d, err := openOut(r.flags.out)
	if err != nil {
		return err
	}
	defer d.Close()
	jpath := d.Join(journalName(name))
	var jw *journal.Writer
	if done == nil {
		if _, err := os.Lstat(jpath); err == nil {
			return &UsageError{Msg: fmt.Sprintf("%s holds an unfinished %s study; finish it with: %s %s -resume %s (or remove %s, or choose another -o)", d.Path(), name, Self, sc.commandName(name), d.Path(), jpath)}
		}
		jw, err = journal.Create(jpath, journal.Header{Study: name, Args: args})
	} else {
		jw, err = journal.Append(jpath)
	}
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("%s: %v", name, err)}
	}
	defer jw.Close()
	o.Journal = jw.AddCell
	// The estimate comes from the pace of the first cells, the cells of a
	// study differing too much (a refusal in milliseconds, a child run
	// out of memory in seconds) for a figure per cell.
	pacer := progress.NewPacer(stderr, "cells", 0, 0, time.Now)
	pacer.SetRerun(s.Rerun)
	if sc.after != nil {
		pacer.SetAfter(sc.after(o))
	}
	o.Task = pacer.Task
	o.Started = func(total, pending int) {
		pacer.SetTotal(pending)
		if s.Before != nil {
			pacer.SetDoing("preparing the cells")
		}
	}
	o.Running = func() {
		pacer.SetDoing("")
		pacer.Begin()
	}
	o.Progress = func(done, total int, c results.MatrixCell) {
		if s.Matrix.Kind(c.Outcome).Tone == results.ToneBad {
			fmt.Fprintf(stderr, "[%d/%d] %s %s: %s %s\n", done, total, c.Codec, c.Case, c.Outcome, c.Note)
		}
		pacer.Done(c.Codec + " " + c.Case)
	}
	pacer.Keepalive()
	defer pacer.Finish()
	pool := &worker.Pool{Parallel: r.flags.parallel}
	m, err := study.Run(ctx, pool, s, o)
	if err != nil {
		kept := 0
		if m != nil {
			kept = len(m.Cells)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, name+":") {
			msg = name + ": " + msg
		}
		return &RunError{Msg: fmt.Sprintf("%s; the %d cells done are kept in %s: finish with %s %s -resume %s", msg, kept, jpath, Self, sc.commandName(name), d.Path())}
	}
	fmt.Fprintf(stderr, "%s: %s by %s in %s\n", name, counted(len(m.Codecs), "codec"), counted(len(m.Cases), s.Matrix.CaseWord), m.Elapsed)
	var more []*results.Matrix
	if sc.then != nil {
		if more, err = sc.then(ctx, pool, m, o); err != nil {
			return &RunError{Msg: fmt.Sprintf("%s: %v; the study's cells are kept in %s: finish with %s %s -resume %s", name, err, jpath, Self, sc.commandName(name), d.Path())}
		}
	}
	for _, mm := range append([]*results.Matrix{m}, more...) {
		if err := writeMatrix(d.Path(), mm, stderr); err != nil {
			return &RunError{Msg: fmt.Sprintf("%s: %v", mm.Study.Name, err)}
		}
	}
	if sc.pages {
		if err := writePages(d.Path(), stderr); err != nil {
			return &RunError{Msg: fmt.Sprintf("%s: %v", name, err)}
		}
	}
	jw.Close()
	if err := d.Remove(journalName(name)); err != nil {
		return &RunError{Msg: fmt.Sprintf("%s: %v", name, err)}
	}
	for i, mm := range append([]*results.Matrix{m}, more...) {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := matrix.Write(stdout, mm, r.verbose); err != nil {
			return err
		}
	}
	if r.verbose {
		_, out := s.Participants()
		if len(out) > 0 {
			fmt.Fprintf(stdout, "\nTaking no part (%d):\n", len(out))
			for _, e := range out {
				fmt.Fprintf(stdout, "  %s\n", e)
			}
		}
	}
	return nil
}

// plural returns the plural of a case word: "probes", "classes".
func plural(w string) string {
	switch {
	case w == "":
		return "cases"
	case strings.HasSuffix(w, "s"):
		return w + "es"
	}
	return w + "s"
}

// counted says n of the word w: "1 class", "2 classes".
func counted(n int, w string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", cmp.Or(w, "case"))
	}
	return fmt.Sprintf("%d %s", n, plural(w))
}
