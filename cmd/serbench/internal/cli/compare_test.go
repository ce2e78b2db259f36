package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/outdir"
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
	killed := session("killed", "src-old/go.mod", "old/serbench", "new/serbench", "runs/old-1/results.bench")
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
	for _, gone := range []string{"src-old", "old", "new"} {
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
