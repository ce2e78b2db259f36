package worker_test

import (
	"testing"
	"time"

	"github.com/serbench/serbench/internal/proctest"
)

// groupOf returns a check that the grandchildren of parent (the sleep of
// the guarded group TestMain's watched parent starts, which outlives the
// parent-death signal of its shell) are gone after the parent is killed:
// the watcher killed their group.
func groupOf(t *testing.T, parent int) func(*testing.T) {
	t.Helper()
	var grand []proctest.Proc
	for deadline := time.Now().Add(time.Minute); len(grand) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, c := range proctest.Children(parent) {
			grand = append(grand, proctest.Children(c.Pid)...)
		}
	}
	if len(grand) == 0 {
		t.Fatal("the watched parent's guarded group started no process in a minute")
	}
	return func(t *testing.T) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			alive := 0
			for _, p := range grand {
				if proctest.Alive(p) {
					alive++
				}
			}
			if alive == 0 {
				return
			}
		}
		t.Errorf("the guarded group's processes %v outlived the watcher by a minute", grand)
	}
}
