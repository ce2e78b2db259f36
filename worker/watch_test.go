package worker_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/serbench/serbench/worker"
)

// TestWatcher checks that a watcher does its work when its parent is
// killed with SIGKILL, which no deferred cleanup survives, having killed
// the process group its parent guarded (TestWatcherKillsGroups), and when
// its parent releases it.
func TestWatcher(t *testing.T) {
	t.Run("killed", func(t *testing.T) {
		t.Parallel()
		file := filepath.Join(t.TempDir(), "swept")
		parent := exec.Command(os.Args[0], "-test.run=^$")
		parent.Env = append(os.Environ(), watchParentEnv+"="+file)
		out, err := parent.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := parent.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "watching\n" {
			parent.Process.Kill()
			parent.Wait()
			t.Fatalf("the parent said %q, %v; want watching", line, err)
		}
		if _, err := os.Stat(file); err == nil {
			t.Fatal("the watcher worked before its parent ended")
		}
		orphans := groupOf(t, parent.Process.Pid)
		parent.Process.Kill() // SIGKILL
		parent.Wait()
		waitFor(t, file)
		orphans(t)
	})
	t.Run("released", func(t *testing.T) {
		t.Parallel()
		file := filepath.Join(t.TempDir(), "swept")
		w, err := worker.Watch(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Release(time.Minute); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(file); err != nil {
			t.Errorf("released, the watcher had not worked when it exited: %v", err)
		}
	})
}

// waitFor waits, up to a generous minute (a loaded machine), for file to
// exist.
func waitFor(t *testing.T, file string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(file); err == nil {
			return
		}
	}
	t.Errorf("the watcher had not worked a minute after its parent was killed")
}
