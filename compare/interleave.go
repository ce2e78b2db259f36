package compare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/serbench/serbench/worker"
)

// An Exec runs the command name with args in dir and returns what it
// wrote to stdout and stderr together. Interleave's commands (git, go,
// and the serbench builds) all go through one, so a test can stand in
// for them.
type Exec func(ctx context.Context, dir, name string, args ...string) ([]byte, error)

// Command is the Exec of the real commands, each under the supervisor
// (worker.External): it dies with this process, and when ctx is done its
// whole process group is killed, so that neither go build's compilers nor
// a built serbench's workers outlive an interrupted comparison.
func Command(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	return worker.External(ctx, dir, name, args...).CombinedOutput()
}

// A Version is what one side of an Interleave builds: the commit Ref of
// the checkout, with Module (module@version), if set, replacing that
// module's version in the commit's go.mod.
type Version struct {
	Ref    string
	Module string
}

func (v Version) String() string {
	if v.Module == "" {
		return v.Ref
	}
	return v.Ref + " with " + v.Module
}

// An Interleave builds serbench at two versions and runs the two builds
// alternately in one session, round after round, each run a short
// `serbench run`. Round i runs old then new when i is odd, new then old
// when it is even (A B B A A B ...), so that a drift of the machine that
// is linear over two rounds falls on both sides alike. Each side's
// samples are pooled over its rounds.
type Interleave struct {
	Repo     string   // a directory inside the git checkout to build from
	Old, New Version  // the two builds
	Rounds   int      // runs of each build, at least 1
	RunArgs  []string // flags for `serbench run` (not -o: each run's output is Interleave's)
	Dir      string   // a new or empty work directory: the builds, then each run's output
	Exec     Exec     // nil: Command
	Log      io.Writer
	// Progress, if set, is called as each build and each run ends, with
	// its name ("old", "new-3") and whether it was a run: what a
	// command's estimate and progress lines count.
	Progress func(name string, run bool)
}

// progress calls Progress, if set.
func (iv *Interleave) progress(name string, run bool) {
	if iv.Progress != nil {
		iv.Progress(name, run)
	}
}

// sideNames name the two builds in Dir and in the runs' directories.
var sideNames = [2]string{"old", "new"}

// A Side is what one build measured: the pooled samples of its runs, and
// the file they are written to (Dir/old.bench or Dir/new.bench).
type Side struct {
	Version Version
	Commit  string
	Runs    int
	Set     *Set
	File    string
}

// Run builds both versions and runs them. It returns both sides' pooled
// samples, also written to Dir/old.bench and Dir/new.bench beside each
// run's output in Dir/runs; the builds are removed. When ctx ends after
// both builds ran at least once, Run returns what the finished runs
// measured together with ctx's error; the run cut short is dropped.
func (iv *Interleave) Run(ctx context.Context) (old, new *Side, err error) {
	if iv.Exec == nil {
		iv.Exec = Command
	}
	if iv.Log == nil {
		iv.Log = io.Discard
	}
	if iv.Rounds < 1 {
		return nil, nil, fmt.Errorf("compare: %d rounds: an interleaved comparison needs at least 1", iv.Rounds)
	}
	top, err := iv.git(ctx, iv.Repo, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, nil, &RefError{Msg: fmt.Sprintf("%s is not inside a git checkout (%v): run the interleaved comparison from serbench's repository", iv.Repo, err)}
	}
	sides := [2]*Side{{Version: iv.Old}, {Version: iv.New}}
	for _, s := range sides {
		if s.Commit, err = iv.git(ctx, top, "rev-parse", "--verify", "--quiet", s.Version.Ref+"^{commit}"); err != nil {
			return nil, nil, &RefError{Msg: fmt.Sprintf("%q names no commit of %s: give a branch, tag or commit hash", s.Version.Ref, top)}
		}
	}
	bins := [2]string{}
	for i, s := range sides {
		name := sideNames[i]
		fmt.Fprintf(iv.Log, "building %s (%s, commit %.12s)\n", name, s.Version, s.Commit)
		// The builds go when the runs end, or a build is cut short; their
		// results stay.
		defer os.RemoveAll(filepath.Join(iv.Dir, name))
		if bins[i], err = iv.build(ctx, top, name, s); err != nil {
			return nil, nil, err
		}
		iv.progress(name, false)
	}
	var sets [2][]*Set
	for round := 1; round <= iv.Rounds && ctx.Err() == nil; round++ {
		order := []int{0, 1}
		if round%2 == 0 {
			order = []int{1, 0}
		}
		for _, i := range order {
			name := fmt.Sprintf("%s-%d", sideNames[i], round)
			fmt.Fprintf(iv.Log, "round %d of %d: %s\n", round, iv.Rounds, name)
			set, err := iv.measure(ctx, bins[i], name)
			if ctx.Err() != nil {
				break
			}
			if err != nil {
				return nil, nil, err
			}
			sets[i] = append(sets[i], set)
			iv.progress(name, true)
		}
	}
	if len(sets[0]) == 0 || len(sets[1]) == 0 {
		return nil, nil, fmt.Errorf("compare: interrupted before both builds ran once: %w", ctx.Err())
	}
	for i, s := range sides {
		s.Runs = len(sets[i])
		s.File = filepath.Join(iv.Dir, sideNames[i]+".bench")
		s.Set = Merge(s.File, sets[i]...)
		if werr := pool(s.File, iv.Dir, sideNames[i], s.Runs); werr != nil {
			return nil, nil, werr
		}
	}
	return sides[0], sides[1], ctx.Err()
}

// A RefError says a version to build cannot be found: not a git checkout,
// or a ref that names no commit. It is a mistake in the command line.
type RefError struct{ Msg string }

func (e *RefError) Error() string { return "compare: " + e.Msg }

func (iv *Interleave) git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := iv.Exec(ctx, dir, "git", args...)
	if err != nil {
		return "", fmt.Errorf("%w: %s", err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

// build checks the side's commit out into a temporary git worktree under
// Dir, applies its module version, and builds serbench there into
// Dir/NAME/serbench. The worktree is removed whatever happens.
func (iv *Interleave) build(ctx context.Context, top, name string, s *Side) (bin string, err error) {
	src := filepath.Join(iv.Dir, "src-"+name)
	_, err = iv.git(ctx, top, "worktree", "add", "--detach", src, s.Commit)
	defer func() {
		// A fresh context: the worktree goes even when ctx has ended, and
		// one whose checkout was cut short too.
		_, rerr := iv.git(context.WithoutCancel(ctx), top, "worktree", "remove", "--force", src)
		if _, serr := os.Lstat(src); serr == nil {
			os.RemoveAll(src)
			iv.git(context.WithoutCancel(ctx), top, "worktree", "prune")
		}
		if rerr != nil && err == nil {
			err = fmt.Errorf("compare: removing the worktree %s: %v; remove it with git worktree remove --force %s", src, rerr, src)
		}
	}()
	if err != nil {
		return "", fmt.Errorf("compare: checking out %s into %s: %v", s.Version.Ref, src, err)
	}
	// -trimpath: the worktree's path is left out of the build, so the
	// build cache serves both sides and earlier interleaved sessions.
	args := []string{"build", "-trimpath"}
	if s.Version.Module != "" {
		path, _, ok := strings.Cut(s.Version.Module, "@")
		if !ok {
			return "", &RefError{Msg: fmt.Sprintf("%q is not module@version", s.Version.Module)}
		}
		if out, err := iv.Exec(ctx, src, "go", "mod", "edit", "-replace="+path+"="+s.Version.Module); err != nil {
			return "", fmt.Errorf("compare: setting %s in %s's go.mod: %v: %s", s.Version.Module, s.Version.Ref, err, bytes.TrimSpace(out))
		}
		args = append(args, "-mod=mod") // records the version's go.sum lines
	}
	bin = filepath.Join(iv.Dir, name, "serbench")
	if out, err := iv.Exec(ctx, src, "go", append(args, "-o", bin, "./cmd/serbench")...); err != nil {
		return "", fmt.Errorf("compare: building serbench at %s: %v: %s", s.Version, err, bytes.TrimSpace(out))
	}
	return bin, nil
}

// measure runs one build once into Dir/runs/NAME and reads its
// results.bench. A run that exits with failures but wrote its results
// (serbench's exit status 1) counts.
func (iv *Interleave) measure(ctx context.Context, bin, name string) (*Set, error) {
	out := filepath.Join(iv.Dir, "runs", name)
	args := append([]string{"run", "-q", "-o", out}, iv.RunArgs...)
	stdout, err := iv.Exec(ctx, iv.Dir, bin, args...)
	f, ferr := os.Open(filepath.Join(out, "results.bench"))
	if ferr != nil {
		return nil, fmt.Errorf("compare: run %s wrote no results (%v): %s", name, errors.Join(err, ferr), tail(stdout))
	}
	defer f.Close()
	return Read(f, f.Name())
}

// pool writes the results.bench files of one side's runs, in order, into
// one file: what compare reads again later.
func pool(file, dir, name string, runs int) error {
	var buf bytes.Buffer
	for i := 1; i <= runs; i++ {
		b, err := os.ReadFile(filepath.Join(dir, "runs", fmt.Sprintf("%s-%d", name, i), "results.bench"))
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}

// tail returns the last lines of a command's output, for an error.
func tail(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, "\n")
}
