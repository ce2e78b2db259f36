package worker

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestClassify: a child's death is named from its stderr, whichever
// runtime (with or without the race detector) wrote it, and a SIGKILL
// from the kernel's evidence of an out-of-memory kill, or as unknown.
func TestClassify(t *testing.T) {
	killed := func() error {
		cmd := exec.Command("sh", "-c", "kill -9 $$")
		return cmd.Run()
	}()
	for _, tc := range []struct {
		name   string
		err    error
		stderr string
		ev     oomEvidence
		kind   string
		says   string
	}{
		{"stack", errors.New("exit"), "runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow", oomEvidence{}, ExitStackOverflow, "stack overflow"},
		{"oom", errors.New("exit"), "fatal error: runtime: out of memory", oomEvidence{}, ExitOutOfMemory, "out of memory"},
		{"mmap", errors.New("exit"), "runtime: cannot allocate memory", oomEvidence{}, ExitOutOfMemory, "out of memory"},
		{"race oom", errors.New("exit"), "fatal error: too many address space collisions for -race mode", oomEvidence{}, ExitOutOfMemory, "out of memory"},
		{"race", errors.New("exit"), "WARNING: DATA RACE\nWrite at 0x00c", oomEvidence{}, ExitRace, "data race, reported by the race detector"},
		{"map", errors.New("exit"), "fatal error: concurrent map writes", oomEvidence{}, ExitFatal, "fatal error: concurrent map writes"},
		{"panic", errors.New("exit"), "panic: boom\n\ngoroutine 1", oomEvidence{}, ExitPanic, "unrecovered panic"},
		{"status", errors.New("exit"), "", oomEvidence{}, ExitOther, "exit"},
		{"no end", nil, "", oomEvidence{}, ExitOther, "ended without its results"},
		{"sigkill, oom counted", killed, "", oomEvidence{oom: true, source: "/proc/vmstat"}, ExitOOMKilled, "out-of-memory kill: SIGKILL while /proc/vmstat counted an out-of-memory kill"},
		{"sigkill, nothing counted", killed, "", oomEvidence{source: "/proc/vmstat"}, ExitKilled, "killed, cause unknown: SIGKILL with no out-of-memory kill counted by /proc/vmstat"},
		{"sigkill, no counter", killed, "", oomEvidence{}, ExitKilled, "killed, cause unknown: SIGKILL; no kernel out-of-memory counter is readable here"},
	} {
		e := classify(tc.err, tc.stderr, tc.ev)
		if e.Kind != tc.kind || !strings.Contains(e.String(), tc.says) {
			t.Errorf("%s: %q (%q), want %q (%q)", tc.name, e.Kind, e.String(), tc.kind, tc.says)
		}
	}
}

// TestOOMCounters: a counter that went up is evidence; unchanged ones
// name what was read.
func TestOOMCounters(t *testing.T) {
	before := oomCounters{"/proc/vmstat": 3, "/sys/fs/cgroup/memory.events": 1}
	if ev := before.since(oomCounters{"/proc/vmstat": 3, "/sys/fs/cgroup/memory.events": 2}); !ev.oom || ev.source != "/sys/fs/cgroup/memory.events" {
		t.Errorf("a cgroup's kill: %+v", ev)
	}
	if ev := before.since(oomCounters{"/proc/vmstat": 3, "/sys/fs/cgroup/memory.events": 1}); ev.oom || ev.source != "the kernel's counters" {
		t.Errorf("no kill: %+v", ev)
	}
	if ev := (oomCounters{}).since(oomCounters{}); ev.oom || ev.source != "" {
		t.Errorf("nothing readable: %+v", ev)
	}
}
