package worker_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/worker"
)

func init() {
	testHandlers = append(testHandlers,
		// daemon starts a process with no parent-death signal, as a codec
		// could, and leaves it behind.
		worker.Handler{Name: "daemon", Run: func(context.Context, json.RawMessage, func(string)) (json.RawMessage, error) {
			cmd := exec.Command("sleep", "60")
			if err := cmd.Start(); err != nil {
				return nil, err
			}
			return json.Marshal(cmd.Process.Pid)
		}},
		// where says where the child runs and what it was told.
		worker.Handler{Name: "where", Run: func(context.Context, json.RawMessage, func(string)) (json.RawMessage, error) {
			wd, err := os.Getwd()
			if err != nil {
				return nil, err
			}
			return json.Marshal([]string{wd, os.Getenv("HOME"), os.Getenv("TMPDIR"), os.Getenv(secretEnv)})
		}},
	)
}

// secretEnv is set in the test's environment: an isolated child must not
// see it.
const secretEnv = "TEST_PARENT_SECRET"

// TestDaemonDies: a process a child started and left behind dies when the
// child's task ends (the child's process group is killed).
func TestDaemonDies(t *testing.T) {
	p := testPool(t, time.Minute)
	trs, err := p.RunTasks(context.Background(), []worker.Task{{Name: "daemon"}})
	if err != nil || trs[0].Err != "" || trs[0].Exit != nil {
		t.Fatalf("%v %+v", err, trs)
	}
	var pid int
	if err := json.Unmarshal(trs[0].Output, &pid); err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); alive(pid); {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("the daemon %d the task left is alive after its child ended", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether process pid runs (a zombie does not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

// TestIsolated: an isolated child runs in a directory of its own, its
// HOME and TMPDIR there, without the parent's environment, and the
// directory is gone once it ends.
func TestIsolated(t *testing.T) {
	t.Setenv(secretEnv, "the parent's")
	p := testPool(t, time.Minute)
	p.Isolated = true
	trs, err := p.RunTasks(context.Background(), []worker.Task{{Name: "where"}})
	if err != nil || trs[0].Err != "" || trs[0].Exit != nil {
		t.Fatalf("%v %+v", err, trs)
	}
	var got []string
	if err := json.Unmarshal(trs[0].Output, &got); err != nil {
		t.Fatal(err)
	}
	wd, home, tmp, secret := got[0], got[1], got[2], got[3]
	if here, _ := os.Getwd(); wd == here || home != wd || tmp != wd || secret != "" {
		t.Errorf("the isolated child ran in %q (HOME %q, TMPDIR %q, secret %q); the parent in %q", wd, home, tmp, secret, here)
	}
	if _, err := os.Stat(wd); !os.IsNotExist(err) {
		t.Errorf("the isolated child's directory %s is left: %v", wd, err)
	}
}
