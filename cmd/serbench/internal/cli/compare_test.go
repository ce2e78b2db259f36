package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/outdir"
	"github.com/serbench/serbench/worker"
)

// TestSweepSessions checks that what a killed interleaved comparison
// left (its checkouts and builds; its directory when it holds no run's
// results) is removed by the next one, and that a live session, or a
// directory serbench did not mark, is left alone.
func TestSweepSessions(t *testing.T) {
	tmp := t.TempDir()
	session := func(name string, files ...string) string {
		dir := filepath.Join(tmp, sessionPrefix+name)
		mkdir(t, dir)
		writeFile(t, filepath.Join(dir, outdir.Marker), nil)
		for _, f := range files {
			mkdir(t, filepath.Dir(filepath.Join(dir, f)))
			writeFile(t, filepath.Join(dir, f), []byte("x"))
		}
		return dir
	}
	killed := session("killed", "src-old/go.mod", "old/serbench", "new/serbench", "tmp/go-build1/b001/_pkg_.a", "runs/old-1/results.bench")
	bare := session("bare", "src-new/go.mod")
	live := session("live", "src-old/go.mod", "old/serbench")
	foreign := filepath.Join(tmp, sessionPrefix+"foreign")
	mkdir(t, filepath.Join(foreign, "src-old"))
	writeFile(t, filepath.Join(foreign, "src-old", "mine"), []byte("x"))
	d, err := outdir.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	var stderr strings.Builder
	sweepSessions(context.Background(), tmp, t.TempDir(), &stderr)
	for _, gone := range []string{"src-old", "old", "new", "tmp"} {
		if _, err := os.Lstat(filepath.Join(killed, gone)); !os.IsNotExist(err) {
			t.Errorf("the killed session's %s survived: %v", gone, err)
		}
	}
	if _, err := os.Stat(filepath.Join(killed, "runs", "old-1", "results.bench")); err != nil {
		t.Errorf("the killed session's results were removed: %v", err)
	}
	if _, err := os.Lstat(bare); !os.IsNotExist(err) {
		t.Errorf("a killed session without results survived: %v", err)
	}
	for _, kept := range []string{filepath.Join(live, "src-old", "go.mod"), filepath.Join(live, "old", "serbench"), filepath.Join(foreign, "src-old", "mine")} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s was removed: %v", kept, err)
		}
	}
	if !strings.Contains(stderr.String(), "removed the checkouts and builds a killed interleaved comparison left in "+killed) {
		t.Errorf("stderr %q does not say what it removed", stderr.String())
	}
}

// TestWatcherSweepsSession checks the watcher's work, as serbench's hidden
// command runs it once the interleaved comparison that started it has
// ended (kill -9 too: worker's TestWatcher): the session's checkout, its
// worktree's registration in the repository, its builds and temporary
// files are gone, and so is the session, which holds no run's results.
func TestWatcherSweepsSession(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	git(repo, "init", "-q")
	writeFile(t, filepath.Join(repo, "go.mod"), []byte("module m\n"))
	git(repo, "add", "go.mod")
	git(repo, "commit", "-qm", "m")
	session := filepath.Join(t.TempDir(), sessionPrefix+"killed")
	mkdir(t, session)
	writeFile(t, filepath.Join(session, outdir.Marker), nil)
	git(repo, "worktree", "add", "-q", "--detach", filepath.Join(session, "src-old"), "HEAD")
	for _, f := range []string{"old/serbench", "tmp/go-build1/b001/_pkg_.a"} {
		mkdir(t, filepath.Dir(filepath.Join(session, f)))
		writeFile(t, filepath.Join(session, f), []byte("x"))
	}
	if err := Run(context.Background(), []string{worker.WatchCommandName, watchInterleave, session, repo}, strings.NewReader(""), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(session); !os.IsNotExist(err) {
		t.Errorf("the session survived its watcher: %v", err)
	}
	if list := git(repo, "worktree", "list", "--porcelain"); strings.Contains(list, "src-old") {
		t.Errorf("the session's worktree is still registered:\n%s", list)
	}
}
