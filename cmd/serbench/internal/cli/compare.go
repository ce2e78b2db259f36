package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/serbench/serbench/cmd/serbench/internal/progress"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/internal/outdir"
	"github.com/serbench/serbench/measure"
	"github.com/serbench/serbench/report/bench"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

func compareCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	b := newFlags("compare", `serbench compare OLD NEW
       serbench compare -interleave [-rounds N] OLDREF NEWREF [run flags]
       serbench compare -interleave -replace MODULE@V1,MODULE@V2 [REF] [-- run flags]`, `Compares two runs as benchstat does: per benchmark, each side's median
with its 95% interval, and the delta where a Mann-Whitney U test finds a
difference (p ≤ 0.05); then whether the codecs kept their ranking (a
pair is judged only where its two intervals are apart in both runs), and
each codec's geomean of NEW/OLD. OLD and NEW are each what serbench
report reads (a results.json, a journal.jsonl, a serbench output
directory or a run's DIR/partial), a results.bench, or the output of go
test -bench. Benchmarks only one of them holds are counted and named, not
compared.

As a CI gate: a significant change in the bad direction, with the two
medians' intervals apart and larger than -threshold, is a regression,
and compare then exits with status 1. At the default threshold two runs
of the same code flag under 5% of their comparisons on a busy shared
machine, measured as docs/compare.md says; there, a drift between two
runs can still fail the gate, and -interleave is the one to trust.

-interleave builds serbench at two git commits of this checkout (or one
commit with two versions of a library, -replace) and runs the builds
alternately, a short 'serbench run' each (old new, new old, ...), so the
machine's drift falls on both alike; the pooled samples are compared as
above and kept in a directory it names. With the run flag -measure
instructions it counts instead of timing: one run of each build (unless
-rounds says more), each benchmark counted under Valgrind by several
processes, the gate judging the counts beyond their spreads.

Exit status: 0 no regression; 1 a regression beyond the threshold (or a
failure); 2 misuse or an input that cannot be used; 3 interrupted.`, stderr)
	fs := b.fs
	threshold := compare.DefaultThreshold
	fs.Func("threshold", fmt.Sprintf("the relative `change` (5%% or 0.05) a significant change must exceed to be a regression (default %s)", compare.FormatThreshold(compare.DefaultThreshold)), func(s string) error {
		t, err := compare.ParseThreshold(s)
		threshold = t
		return err
	})
	interleave := fs.Bool("interleave", false, "build OLD and NEW (git commits) and run them alternately in one session, then compare their pooled samples")
	rounds := fs.Int("rounds", 8, "with -interleave: runs of each build (even balances the order; fewer than 8 let one slow run shift a side, see docs/compare.md)")
	replace := fs.String("replace", "", "with -interleave: `MODULE@V1,MODULE@V2`, one commit (REF, else HEAD) built with two versions of a library")
	if err := b.parse(args); err != nil {
		return err
	}
	gate := compare.Gate{Threshold: threshold}
	if *interleave {
		roundsSet := false
		fs.Visit(func(f *flag.Flag) { roundsSet = roundsSet || f.Name == "rounds" })
		return interleaveCmd(ctx, fs.Args(), *rounds, roundsSet, *replace, gate, stdout, stderr)
	}
	var misplaced error
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "replace" || f.Name == "rounds" {
			misplaced = usagef("-%s is for the interleaved comparison, which builds two versions: add -interleave", f.Name)
		}
	})
	if misplaced != nil {
		return misplaced
	}
	args = fs.Args()
	if len(args) != 2 {
		return usagef("compare needs two results: serbench compare OLD NEW, each a results.bench, a results.json, a serbench output directory or `go test -bench` output")
	}
	var sets [2]*compare.Set
	var machines [2]*results.Machine
	for i, name := range args {
		var err error
		if sets[i], machines[i], err = readSet(name); err != nil {
			return &UsageError{Msg: err.Error()}
		}
	}
	gate.Machines = machines
	v, err := writeComparison(stdout, gate, args[0], args[1], sets)
	if err != nil {
		return err
	}
	for i, m := range machines {
		if m != nil && m.Probes > 0 {
			if _, err := fmt.Fprintf(stdout, "Machine, %s run (%s): %s.\n", [2]string{"old", "new"}[i], args[i], m); err != nil {
				return err
			}
		}
	}
	return gateError(v)
}

// writeComparison writes the benchstat tables, the summary and the gate's
// verdict of old against new.
func writeComparison(w io.Writer, gate compare.Gate, oldName, newName string, sets [2]*compare.Set) (compare.Verdict, error) {
	rows, err := compare.Compare(sets[0], sets[1])
	if err != nil {
		return compare.Verdict{}, &UsageError{Msg: fmt.Sprintf("%v: %s holds %d benchmarks, %s %d", err, oldName, len(sets[0].Names()), newName, len(sets[1].Names()))}
	}
	if err := compare.WriteText(w, oldName, newName, rows); err != nil {
		return compare.Verdict{}, err
	}
	if err := compare.WriteUnmatched(w, sets[0], sets[1]); err != nil {
		return compare.Verdict{}, err
	}
	v := gate.Judge(rows)
	return v, compare.WriteVerdict(w, v, rows)
}

// gateError is the error compare exits with: nil without a regression.
func gateError(v compare.Verdict) error {
	if len(v.Regressions) > 0 {
		return fmt.Errorf("%d regressions beyond the ±%s threshold (listed above); a change you expect passes with a larger -threshold", len(v.Regressions), compare.FormatThreshold(v.Threshold))
	}
	return nil
}

// runMeasure returns the -measure value among a run's flags, "" when
// they do not set it.
func runMeasure(args []string) string {
	for i, a := range args {
		name, val, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "measure" {
			continue
		}
		if has {
			return val
		}
		if i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// interleaveCmd builds two versions and compares their interleaved runs.
func interleaveCmd(ctx context.Context, args []string, rounds int, roundsSet bool, replace string, gate compare.Gate, stdout, stderr io.Writer) error {
	var old, new compare.Version
	if replace != "" {
		mods := splitList(replace)
		if len(mods) != 2 || !strings.Contains(mods[0], "@") || !strings.Contains(mods[1], "@") {
			return usagef("-replace %q: give two versions of one module, MODULE@V1,MODULE@V2", replace)
		}
		ref := "HEAD"
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			ref, args = args[0], args[1:]
		}
		old, new = compare.Version{Ref: ref, Module: mods[0]}, compare.Version{Ref: ref, Module: mods[1]}
	} else {
		if len(args) < 2 || strings.HasPrefix(args[0], "-") || strings.HasPrefix(args[1], "-") {
			return usagef("compare -interleave needs two git commits: serbench compare -interleave OLDREF NEWREF [run flags]")
		}
		old, new = compare.Version{Ref: args[0]}, compare.Version{Ref: args[1]}
		args = args[2:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	for _, a := range args {
		switch name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); {
		case !strings.HasPrefix(a, "-"):
		case name == "o" || name == "resume":
			return usagef("compare -interleave writes each run's output itself: leave %s out of the run flags", a)
		}
	}
	if rounds < 1 {
		return usagef("-rounds %d: give at least 1 (an even number balances the order of the runs)", rounds)
	}
	if m := runMeasure(args); m == results.MeasureInstructions && !roundsSet {
		// A count does not drift with the machine: one run of each build,
		// its benchmarks each counted by several processes, decides.
		rounds = 1
		fmt.Fprintf(stderr, "serbench: -measure %s: one run of each build (a count does not drift with the machine; -rounds N for more)\n", m)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	sweepSessions(ctx, os.TempDir(), cwd, stderr)
	dir, err := os.MkdirTemp("", sessionPrefix)
	if err != nil {
		return err
	}
	// The session's lock tells a later comparison that it lives; one
	// killed leaves its lock free, and the next sweeps what it left.
	session, err := outdir.Open(dir)
	if err != nil {
		return err
	}
	// Every temporary file of the builds and runs goes in the session
	// (go build's work directory too, which a killed go build leaves), so
	// that sweeping the session sweeps them.
	tmp := filepath.Join(dir, sessionTmp)
	if err := os.Mkdir(tmp, 0o755); err != nil {
		session.Close()
		return err
	}
	// The watcher sweeps the session the moment this process ends, kill
	// -9 too: the checkouts, their worktrees' registration, the builds,
	// the temporary files. Without one (it could not start), the next
	// interleaved comparison sweeps them.
	watcher, werr := worker.Watch(watchInterleave, dir, cwd)
	if werr != nil {
		fmt.Fprintf(stderr, "serbench: %v; if this comparison is killed, the next one removes what it leaves in %s\n", werr, dir)
	}
	defer func() {
		os.RemoveAll(tmp)
		session.Close()
		removeIfEmpty(dir)
		if watcher != nil {
			watcher.Release(time.Minute)
		}
	}()
	fmt.Fprintf(stderr, "serbench: interleaving %s and %s in %s\n", old, new, dir)
	env := append(os.Environ(), "TMPDIR="+tmp, "GOTMPDIR="+tmp)
	iv := &compare.Interleave{Repo: cwd, Old: old, New: new, Rounds: rounds, RunArgs: args, Dir: dir, Log: stderr,
		Exec: func(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
			cmd := worker.External(ctx, dir, name, args...)
			cmd.Env = env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				return nil, err
			}
			if watcher != nil {
				// go build's compilers, a built serbench's workers: killed
				// with their group if this process is.
				defer watcher.Guard(cmd.Process.Pid)()
			}
			err := cmd.Wait()
			return out.Bytes(), err
		}}
	runs := 2 * rounds
	each := runEstimate(args)
	if each > 0 {
		fmt.Fprintf(stderr, "serbench: 2 builds, then %d runs of about %v each (a run's own estimate, timed on this machine): %v after the builds\n",
			runs, each.Round(time.Second), (time.Duration(runs) * each).Round(time.Second))
	}
	pacer := progress.NewPacer(stderr, "runs", runs, 0, time.Now)
	pacer.SetDoing("building " + old.String())
	built := 0
	iv.Progress = func(name string, run bool) {
		if run {
			pacer.Done(name)
			return
		}
		if built++; built == 1 {
			pacer.SetDoing("building " + new.String())
		} else {
			pacer.SetDoing("")
		}
		if built == 2 && each > 0 {
			b := pacer.Elapsed()
			est := b + time.Duration(runs)*each
			fmt.Fprintf(stderr, "serbench: built in %v; about %v in all (the builds and %d runs of about %v)\n", b.Round(time.Second), est.Round(time.Second), runs, each.Round(time.Second))
			pacer.SetEstimate(est)
		}
	}
	pacer.Keepalive()
	o, n, err := iv.Run(ctx)
	pacer.Finish()
	var refErr *compare.RefError
	switch {
	case errors.As(err, &refErr):
		os.RemoveAll(dir)
		return &UsageError{Msg: err.Error()}
	case o == nil && ctx.Err() != nil:
		// Interrupted before both builds ran: exit status 3, as any
		// interrupted command; the runs measured so far stay in dir.
		return &RunError{Msg: fmt.Sprintf("interrupted: %v", err)}
	case o == nil:
		return err // the runs measured so far stay in dir for a look
	}
	interrupted := err
	sets := [2]*compare.Set{o.Set, n.Set}
	v, err := writeComparison(stdout, gate, sideLabel(o), sideLabel(n), sets)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Interleaved: %d runs of %s (commit %.12s), %d of %s (commit %.12s); pooled samples in %s and %s.\n",
		o.Runs, old, o.Commit, n.Runs, new, n.Commit, o.File, n.File)
	if interrupted != nil {
		return &RunError{Msg: fmt.Sprintf("interrupted after %d and %d runs (compared above): %v", o.Runs, n.Runs, interrupted)}
	}
	return gateError(v)
}

// runEstimate returns about how long one interleaved run of the run
// flags args takes: the run's own estimate (forecast, calibrated and
// measured here), or zero when the flags do not parse (the runs will say why) or
// name a document (-file).
func runEstimate(args []string) time.Duration {
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && name == "file" {
			return 0 // a user's document is read in a worker, by the runs alone
		}
	}
	c, err := parseRun(args, io.Discard)
	if err != nil {
		return 0
	}
	jobs, err := c.jobs()
	if err != nil {
		return 0
	}
	jobs = runner.OnProcs(jobs, c.cpus)
	return forecast(jobs, c.opts, measure.Calibrate(jobs, time.Now)).Total
}

// sessionPrefix begins the name of an interleaved comparison's
// temporary directory.
const sessionPrefix = "serbench-interleave-"

// sessionTmp is the session's directory of temporary files: TMPDIR and
// GOTMPDIR of its builds and runs.
const sessionTmp = "tmp"

// watchInterleave names the watcher's work of an interleaved comparison
// (watcherWork): sweeping its session.
const watchInterleave = "interleave-sweep"

// watcherWork is the work of a worker.Watcher, once its parent has ended:
// "interleave-sweep SESSION REPO" sweeps an interleaved comparison's
// session (sweepSession) and prunes REPO's worktrees.
func watcherWork(args []string) error {
	if len(args) != 3 || args[0] != watchInterleave {
		return usagef("%s: unknown work %q", worker.WatchCommandName, args)
	}
	// The kernel may close the pipe of a killed parent before it
	// releases the parent's lock on the session, and a killed go build's
	// compilers may still be writing into the session's temporary files:
	// tries, a quarter of a second apart, for up to 30 seconds.
	for try := 0; try < 120; try++ {
		if _, err := sweepSession(args[1]); err == nil {
			break
		}
		time.Sleep(time.Second / 4)
	}
	return worker.External(context.Background(), args[2], "git", "worktree", "prune").Run()
}

// sweepSessions removes what interleaved comparisons killed before they
// could clean up, and whose watcher did not (a machine's reboot), left in
// tmp: their checkouts and builds, their temporary files, the git
// worktrees registered for them in the repository of dir, and each
// session directory that holds no run's results. A session whose process
// lives (its lock is held) is left alone.
func sweepSessions(ctx context.Context, tmp, dir string, stderr io.Writer) {
	paths, _ := filepath.Glob(filepath.Join(tmp, sessionPrefix+"*"))
	anySwept := false
	for _, p := range paths {
		if swept, _ := sweepSession(p); swept {
			fmt.Fprintf(stderr, "serbench: removed the checkouts and builds a killed interleaved comparison left in %s\n", p)
			anySwept = true
		}
	}
	if anySwept {
		// The worktrees whose directories are gone leave the repository's
		// list.
		worker.External(ctx, dir, "git", "worktree", "prune").Run()
	}
}

// sweepSession removes what the interleaved comparison of session p left
// when it was killed: its checkouts (src-*), builds (old, new) and
// temporary files, and p itself when it holds no run's results. It
// reports whether it removed anything, and an error when it could not
// remove all of it or the session's lock is held (its process lives, or
// is still ending). A directory serbench did not mark, or gone, is left
// alone.
func sweepSession(p string) (swept bool, err error) {
	if _, err := os.Lstat(filepath.Join(p, outdir.Marker)); err != nil {
		return false, nil // not a session this serbench marked, or gone
	}
	d, err := outdir.Open(p)
	if err != nil {
		return false, err // alive, or not ours
	}
	defer func() {
		d.Close()
		if removeIfEmpty(p) {
			swept = true
		}
	}()
	leftovers, _ := filepath.Glob(filepath.Join(p, "src-*"))
	for _, name := range []string{"old", "new", sessionTmp} {
		leftovers = append(leftovers, filepath.Join(p, name))
	}
	for _, l := range leftovers {
		if _, lerr := os.Lstat(l); lerr == nil {
			swept = true
			err = errors.Join(err, os.RemoveAll(l))
		}
	}
	return swept, err
}

// removeIfEmpty removes a session directory that holds no run's results
// (nothing but its marker and lock), and reports whether it did.
func removeIfEmpty(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() != outdir.Marker && e.Name() != outdir.LockName {
			return false
		}
	}
	return os.RemoveAll(dir) == nil
}

// sideLabel names an interleaved side in the table's header: its ref, or
// its module version, or for a long ref (a full hash) its short commit.
func sideLabel(s *compare.Side) string {
	switch {
	case s.Version.Module != "":
		return s.Version.Module
	case len(s.Version.Ref) > 20:
		return fmt.Sprintf("%.12s", s.Commit)
	}
	return s.Version.Ref
}

// readSet reads benchmark results from name: Go benchmark format, or
// whatever readRun reads (a serbench results.json, a journal, an output
// directory, whose results.bench it prefers). It also returns how steadily
// the machine ran, when name holds a record of the run that says.
func readSet(name string) (*compare.Set, *results.Machine, error) {
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		if bench := filepath.Join(name, "results.bench"); fileExists(bench) {
			var m *results.Machine
			if run, err := readRun(filepath.Join(name, "results.json")); err == nil {
				m = run.Machine
			}
			set, err := readBench(bench)
			return set, m, err
		}
		// A run's working directory, DIR/partial, holds its journal.
	} else if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".jsonl") {
		set, err := readBench(name)
		return set, nil, err
	}
	run, err := readRun(name)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := bench.Write(&buf, run); err != nil {
		return nil, nil, err
	}
	set, err := compare.Read(&buf, name)
	return set, run.Machine, err
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readBench reads a file in Go's benchmark format.
func readBench(path string) (*compare.Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return compare.Read(f, path)
}
