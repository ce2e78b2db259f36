//go:build linux

package proctest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A Proc is a process, named by its pid and its start time (so that a
// reused pid is not taken for it).
type Proc struct {
	Pid   int
	Start string
	Name  string
}

// KillParent starts parent, waits (up to a minute) until it has a child
// and the child has run for settle, kills the parent with SIGKILL, and
// fails t if any child of it is still alive when the kernel has had a
// generous time (30s) to kill it. It returns the children it saw.
func KillParent(t testing.TB, parent *exec.Cmd, settle time.Duration) []Proc {
	t.Helper()
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	var kids []Proc
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if kids = Children(parent.Process.Pid); len(kids) > 0 {
			break
		}
		if time.Now().After(deadline) {
			parent.Process.Kill()
			parent.Wait()
			t.Fatalf("the parent started no child in a minute")
		}
	}
	time.Sleep(settle)
	kids = Children(parent.Process.Pid)
	if len(kids) == 0 {
		parent.Process.Kill()
		parent.Wait()
		t.Fatalf("the parent's child ended before it could be orphaned: nothing to test")
	}
	if err := syscall.Kill(parent.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	var alive []Proc
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		alive = alive[:0]
		for _, k := range kids {
			if Alive(k) {
				alive = append(alive, k)
			}
		}
		if len(alive) == 0 {
			return kids
		}
	}
	for _, k := range alive {
		syscall.Kill(k.Pid, syscall.SIGKILL)
	}
	t.Errorf("%d of %d children outlived their parent by 30s: %v", len(alive), len(kids), alive)
	return kids
}

// Children returns the live children of the process pid.
func Children(pid int) []Proc {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []Proc
	for _, d := range dirs {
		p, ppid, state, ok := stat(d)
		if ok && ppid == pid && state != "Z" {
			out = append(out, p)
		}
	}
	return out
}

// Alive reports whether p is still running (a zombie is not).
func Alive(p Proc) bool {
	q, _, state, ok := stat(fmt.Sprintf("/proc/%d", p.Pid))
	return ok && q.Start == p.Start && state != "Z"
}

// stat reads a process's /proc/PID/stat: its name, parent, state and
// start time.
func stat(dir string) (p Proc, ppid int, state string, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return p, 0, "", false
	}
	s := string(b)
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return p, 0, "", false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 20 {
		return p, 0, "", false
	}
	p.Pid, _ = strconv.Atoi(strings.TrimSpace(s[:open]))
	p.Name = s[open+1 : end]
	ppid, _ = strconv.Atoi(f[1])
	p.Start = f[19] // field 22, starttime
	return p, ppid, f[0], true
}
