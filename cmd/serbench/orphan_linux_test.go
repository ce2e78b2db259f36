package main

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/serbench/serbench/internal/proctest"
)

// TestNoOrphans kills serbench with SIGKILL while each kind of child it
// starts is busy: a fidelity probe (go-toml on a cycle spins without
// end), a hostile input and a benchmark job (planted-hang on Big), and
// finds no child alive after.
func TestNoOrphans(t *testing.T) {
	exe, err := exec.LookPath("serbench") // testscript.Main put it on PATH
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		kind string
		args []string
	}{
		{"fidelity probe", []string{"fidelity", "-codecs", "go-toml", "-probes", "cycle", "-o", dir + "/fidelity"}},
		{"hostile input", []string{"hostile", "-codecs", "planted-spin", "-classes", "empty", "-timeout", "1h", "-o", dir + "/hostile"}},
		{"benchmark job", []string{"run", "-q", "-codecs", "planted-hang", "-datasets", "big", "-shapes", "single", "-budget", "50ms", "-timeout", "1h", "-o", dir + "/run"}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(exe, tc.args...)
			cmd.Env = append(os.Environ(), "SERBENCH_PLANTED=1")
			kids := proctest.KillParent(t, cmd, time.Second)
			if !t.Failed() {
				t.Logf("serbench %v: %d child(ren), none alive after kill -9 of serbench: %v", tc.args, len(kids), kids)
			}
		})
	}
}
