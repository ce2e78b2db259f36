package worker

import (
	"fmt"
	"os"
	"time"
)

// watchParent makes this child exit once its parent is gone: where the
// kernel has no parent-death signal, an orphan would otherwise go on
// spinning in a hung codec. On Linux the signal (dieWithParent) kills it
// first; the watch costs one system call a second.
func watchParent() {
	parent := os.Getppid()
	go func() {
		for range time.Tick(parentEvery) {
			if os.Getppid() != parent {
				fmt.Fprintln(os.Stderr, "serbench worker: the parent process is gone; exiting")
				os.Exit(3)
			}
		}
	}()
}

// parentEvery is how often a child looks for its parent.
const parentEvery = time.Second
