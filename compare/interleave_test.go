package compare_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/serbench/serbench/compare"
)

// fakeTools stands in for git, go and the two serbench builds: git
// resolves every ref but "nosuch", go build writes a file naming the
// worktree it ran in, and a build's run writes a results.bench whose
// time per op is its worktree's (perOp) plus the number of runs so far:
// the machine's drift.
type fakeTools struct {
	t       *testing.T
	perOp   map[string]float64 // commit -> ns/op
	mu      sync.Mutex
	calls   []string // "dir: name args", with the work directory as $W
	work    string
	runs    []string // the -o directory of each run, in order
	failRun string   // a run (old-2, ...) that fails without results
	cancel  func()   // called during the run named after
	after   string
	// cutBuild, if set, names the side (old, new) whose go build is
	// interrupted: it calls cancel, leaves half a binary and fails.
	cutBuild string
}

func (f *fakeTools) exec(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	line := strings.ReplaceAll(dir+": "+name+" "+strings.Join(args, " "), f.work, "$W")
	f.calls = append(f.calls, line)
	switch {
	case name == "git" && args[0] == "rev-parse" && args[1] == "--show-toplevel":
		return []byte("/repo\n"), nil
	case name == "git" && args[0] == "rev-parse":
		ref := strings.TrimSuffix(args[len(args)-1], "^{commit}")
		if ref == "nosuch" {
			return nil, errors.New("exit status 1")
		}
		return []byte("commit-" + ref + "\n"), nil
	case name == "git" && args[0] == "worktree" && args[1] == "add":
		return nil, os.MkdirAll(args[3], 0o755)
	case name == "git" && args[0] == "worktree" && args[1] == "remove":
		return nil, os.RemoveAll(args[3])
	case name == "go" && args[0] == "mod":
		return nil, nil
	case name == "go" && args[0] == "build":
		i := slices.Index(args, "-o")
		if err := os.MkdirAll(filepath.Dir(args[i+1]), 0o755); err != nil {
			return nil, err
		}
		if f.cutBuild != "" && filepath.Base(dir) == "src-"+f.cutBuild {
			f.cancel()
			os.WriteFile(args[i+1], []byte("half"), 0o755)
			return nil, errors.New("signal: killed")
		}
		// The "binary" names the worktree it was built in: src-old or src-new.
		return nil, os.WriteFile(args[i+1], []byte(filepath.Base(dir)), 0o755)
	case args[0] == "run":
		out := args[slices.Index(args, "-o")+1]
		f.runs = append(f.runs, filepath.Base(out))
		if filepath.Base(out) == f.failRun {
			return []byte("serbench: something broke\n"), errors.New("exit status 1")
		}
		side, _ := os.ReadFile(name)
		round := len(f.runs)
		var b strings.Builder
		for s := range 5 {
			fmt.Fprintf(&b, "BenchmarkEncode/codec=json/dataset=tiny 1000 %g ns/op 48 B/op\n", f.perOp[string(side)]+float64(round)+0.1*float64(s))
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, err
		}
		if filepath.Base(out) == f.after {
			f.cancel()
		}
		return nil, os.WriteFile(filepath.Join(out, "results.bench"), []byte(b.String()), 0o644)
	}
	f.t.Errorf("unexpected command %s", line)
	return nil, errors.New("unexpected")
}

func newInterleave(t *testing.T, f *fakeTools, old, new compare.Version, rounds int) *compare.Interleave {
	f.t = t
	f.work = t.TempDir()
	return &compare.Interleave{Repo: "/repo/sub", Old: old, New: new, Rounds: rounds,
		RunArgs: []string{"-codecs", "json", "-budget", "50ms"}, Dir: f.work, Exec: f.exec}
}

func TestInterleave(t *testing.T) {
	f := &fakeTools{perOp: map[string]float64{"src-old": 100, "src-new": 150}}
	iv := newInterleave(t, f, compare.Version{Ref: "v1"}, compare.Version{Ref: "main"}, 4)
	var steps []string
	iv.Progress = func(name string, run bool) { steps = append(steps, fmt.Sprint(name, run)) }
	old, new, err := iv.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The builds alternate old new, new old, ...
	if want := []string{"old-1", "new-1", "new-2", "old-2", "old-3", "new-3", "new-4", "old-4"}; !slices.Equal(f.runs, want) {
		t.Errorf("runs in the order %v, want %v", f.runs, want)
	}
	// Progress hears of each build, then of each run as it ends.
	if want := []string{"oldfalse", "newfalse", "old-1true", "new-1true", "new-2true", "old-2true", "old-3true", "new-3true", "new-4true", "old-4true"}; !slices.Equal(steps, want) {
		t.Errorf("progress %v, want %v", steps, want)
	}
	for _, want := range []string{
		"/repo/sub: git rev-parse --show-toplevel",
		"/repo: git rev-parse --verify --quiet v1^{commit}",
		"/repo: git worktree add --detach $W/src-old commit-v1",
		"$W/src-old: go build -trimpath -o $W/old/serbench ./cmd/serbench",
		"/repo: git worktree remove --force $W/src-old",
		"$W: $W/new/serbench run -q -o $W/runs/new-2 -codecs json -budget 50ms",
	} {
		if !slices.Contains(f.calls, want) {
			t.Errorf("no command %q among:\n%s", want, strings.Join(f.calls, "\n"))
		}
	}
	if old.Runs != 4 || new.Runs != 4 || old.Commit != "commit-v1" || new.Commit != "commit-main" {
		t.Errorf("sides: old %d runs of %s, new %d of %s", old.Runs, old.Commit, new.Runs, new.Commit)
	}
	for _, s := range []*compare.Side{old, new} {
		pooled, err := os.Open(s.File)
		if err != nil {
			t.Fatal(err)
		}
		set, err := compare.Read(pooled, s.File)
		pooled.Close()
		if err != nil {
			t.Fatal(err)
		}
		rows, err := compare.Compare(set, s.Set)
		if err != nil || rows[0].Cmp.N1 != 20 || rows[0].Cmp.N2 != 20 {
			t.Errorf("%s: %d pooled samples in the file, %d in the set, want 20 each (%v)", s.File, rows[0].Cmp.N1, rows[0].Cmp.N2, err)
		}
	}
	rows, err := compare.Compare(old.Set, new.Set)
	if err != nil {
		t.Fatal(err)
	}
	v := compare.Gate{Threshold: 0.25}.Judge(rows)
	if len(v.Regressions) != 1 || v.Regressions[0].Unit != "sec/op" {
		t.Errorf("the 50%% slower build: %d regressions, want the sec/op one", len(v.Regressions))
	}
	for _, gone := range []string{"src-old", "src-new", "old", "new"} {
		if _, err := os.Stat(filepath.Join(f.work, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still in the work directory (%v)", gone, err)
		}
	}
	if _, err := os.Stat(filepath.Join(f.work, "runs", "old-4", "results.bench")); err != nil {
		t.Errorf("a run's results are gone: %v", err)
	}
}

// TestInterleaveSame checks that one commit against itself passes the
// gate although the machine drifts a little from round to round: the
// alternating order gives both sides the same drift.
func TestInterleaveSame(t *testing.T) {
	f := &fakeTools{perOp: map[string]float64{"src-old": 100, "src-new": 100}}
	old, new, err := newInterleave(t, f, compare.Version{Ref: "HEAD"}, compare.Version{Ref: "HEAD"}, 4).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows, err := compare.Compare(old.Set, new.Set)
	if err != nil {
		t.Fatal(err)
	}
	if v := (compare.Gate{}).Judge(rows); v.Significant != 0 {
		t.Errorf("the same build: %d significant changes, want none", v.Significant)
	}
}

func TestInterleaveModule(t *testing.T) {
	f := &fakeTools{perOp: map[string]float64{"src-old": 100, "src-new": 100}}
	iv := newInterleave(t, f,
		compare.Version{Ref: "HEAD", Module: "github.com/fxamacker/cbor/v2@v2.9.5"},
		compare.Version{Ref: "HEAD", Module: "github.com/fxamacker/cbor/v2@v2.9.6"}, 1)
	if _, _, err := iv.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"$W/src-old: go mod edit -replace=github.com/fxamacker/cbor/v2=github.com/fxamacker/cbor/v2@v2.9.5",
		"$W/src-old: go build -trimpath -mod=mod -o $W/old/serbench ./cmd/serbench",
		"$W/src-new: go mod edit -replace=github.com/fxamacker/cbor/v2=github.com/fxamacker/cbor/v2@v2.9.6",
	} {
		if !slices.Contains(f.calls, want) {
			t.Errorf("no command %q among:\n%s", want, strings.Join(f.calls, "\n"))
		}
	}
}

func TestInterleaveErrors(t *testing.T) {
	t.Run("a ref that names no commit", func(t *testing.T) {
		f := &fakeTools{}
		_, _, err := newInterleave(t, f, compare.Version{Ref: "HEAD"}, compare.Version{Ref: "nosuch"}, 2).Run(context.Background())
		var refErr *compare.RefError
		if !errors.As(err, &refErr) || !strings.Contains(err.Error(), `"nosuch" names no commit`) {
			t.Errorf("err = %v, want a RefError naming nosuch", err)
		}
		if len(f.runs) != 0 {
			t.Errorf("ran %v before checking the refs", f.runs)
		}
	})
	t.Run("a run that fails without results", func(t *testing.T) {
		f := &fakeTools{perOp: map[string]float64{}, failRun: "new-2"}
		_, _, err := newInterleave(t, f, compare.Version{Ref: "a"}, compare.Version{Ref: "b"}, 4).Run(context.Background())
		if err == nil || !strings.Contains(err.Error(), "run new-2 wrote no results") || !strings.Contains(err.Error(), "something broke") {
			t.Errorf("err = %v, want the run and its output named", err)
		}
	})
	t.Run("interrupted keeps the finished runs", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		f := &fakeTools{perOp: map[string]float64{"src-old": 1, "src-new": 1}, cancel: cancel, after: "new-2"}
		old, new, err := newInterleave(t, f, compare.Version{Ref: "a"}, compare.Version{Ref: "b"}, 4).Run(ctx)
		if !errors.Is(err, context.Canceled) || old == nil || new == nil {
			t.Fatalf("Run = %v, %v, %v; want both sides and context.Canceled", old, new, err)
		}
		// new-2 ended with the context: it is dropped, as a run cut short.
		if old.Runs != 1 || new.Runs != 1 {
			t.Errorf("kept %d old and %d new runs, want 1 and 1", old.Runs, new.Runs)
		}
	})
	t.Run("interrupted in a build leaves no checkout or build", func(t *testing.T) {
		for _, side := range []string{"old", "new"} {
			ctx, cancel := context.WithCancel(context.Background())
			f := &fakeTools{perOp: map[string]float64{}, cancel: cancel, cutBuild: side}
			_, _, err := newInterleave(t, f, compare.Version{Ref: "a"}, compare.Version{Ref: "b"}, 4).Run(ctx)
			cancel()
			if err == nil {
				t.Errorf("cut in %s's build: no error", side)
			}
			if !slices.Contains(f.calls, "/repo: git worktree remove --force $W/src-"+side) {
				t.Errorf("cut in %s's build: its worktree was not removed:\n%s", side, strings.Join(f.calls, "\n"))
			}
			if left, _ := os.ReadDir(f.work); len(left) > 0 {
				var names []string
				for _, e := range left {
					names = append(names, e.Name())
				}
				t.Errorf("cut in %s's build: left %v in the work directory", side, names)
			}
		}
	})
	t.Run("interrupted before both ran", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		f := &fakeTools{perOp: map[string]float64{}, cancel: cancel, after: "old-1"}
		_, _, err := newInterleave(t, f, compare.Version{Ref: "a"}, compare.Version{Ref: "b"}, 4).Run(ctx)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "before both builds ran once") {
			t.Errorf("err = %v", err)
		}
	})
}
