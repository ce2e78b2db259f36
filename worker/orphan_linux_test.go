package worker_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/serbench/serbench/internal/proctest"
)

// TestNoOrphans kills, with SIGKILL, a parent whose child hangs, for each
// kind of child the pool starts (a benchmark worker, a task child), and
// finds no child alive after.
func TestNoOrphans(t *testing.T) {
	for _, kind := range []string{"job", "task"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			parent := exec.Command(os.Args[0], "-test.run=^$")
			parent.Env = append(os.Environ(), parentEnv+"="+kind)
			kids := proctest.KillParent(t, parent, 300*time.Millisecond)
			if !t.Failed() {
				t.Logf("%d child(ren) of the killed parent, none alive after: %v", len(kids), kids)
			}
		})
	}
}
