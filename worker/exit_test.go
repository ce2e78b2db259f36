package worker

import (
	"errors"
	"testing"
)

// TestExitKind: a worker's death is named from its stderr, whichever
// runtime (with or without the race detector) wrote it.
func TestExitKind(t *testing.T) {
	for _, tc := range []struct{ stderr, want string }{
		{"runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow", "stack overflow"},
		{"fatal error: runtime: out of memory", "out of memory"},
		{"runtime: cannot allocate memory", "out of memory"},
		{"fatal error: too many address space collisions for -race mode", "out of memory"},
		{"WARNING: DATA RACE\nWrite at 0x00c", "data race, reported by the race detector"},
		{"fatal error: concurrent map writes", "fatal error: concurrent map writes"},
		{"panic: boom\n\ngoroutine 1", "unrecovered panic"},
		{"", "exit"},
	} {
		if got := exitKind(errors.New("exit"), tc.stderr); got != tc.want {
			t.Errorf("exitKind(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
	if e := taskExit(nil, "fatal error: too many address space collisions for -race mode"); e.Kind != ExitOutOfMemory {
		t.Errorf("taskExit of the race runtime's failed allocation: %q, want %q", e.Kind, ExitOutOfMemory)
	}
}
