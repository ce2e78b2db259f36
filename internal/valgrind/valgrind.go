// Package valgrind is this process's side of counting instructions under
// Valgrind's callgrind tool: whether the process runs under Valgrind, and
// a Counter that counts the instructions of a stretch of code, by client
// requests (the same magic instruction sequence valgrind.h and
// callgrind.h emit) that turn callgrind's instrumentation on and off,
// zero its counters and dump them to a file this package reads back.
//
// The parent starts the process as Command says: callgrind with its
// instrumentation off at the start (process start-up and everything
// before the first count run at Valgrind's uninstrumented speed), its
// dumps in a directory named by the environment variable DirEnv, one
// file per thread. Only the instructions between Counter.Start and
// Counter.Stop are counted, and only those of the thread that counts
// (the busiest thread of the dump: the caller locks its goroutine to its
// thread): the runtime's other threads (sysmon, whose work follows the
// wall clock, and the collector's background workers) are left out.
package valgrind

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Request codes, as valgrind.h and callgrind.h define them.
const (
	runningOnValgrind = 0x1001
	toolBase          = uintptr('C')<<24 | uintptr('T')<<16
	dumpStats         = toolBase + 0
	zeroStats         = toolBase + 1
	toggleCollect     = toolBase + 2
	stopInstr         = toolBase + 5
	startInstr        = toolBase + 4
)

// DirEnv names the environment variable that holds the directory of the
// callgrind dumps of a counting process (Command sets it).
const DirEnv = "SERBENCH_CALLGRIND_DIR"

// dumpBase is the name of the dumps in DirEnv's directory: callgrind
// writes dump n of a process as dumpBase.n.
const dumpBase = "callgrind.out"

// Running reports how many Valgrinds this process runs under: 0 when it
// runs on the CPU itself.
func Running() int {
	return int(request(&[6]uintptr{runningOnValgrind}, 0))
}

// Flags are callgrind's options for a counting process whose dumps go to
// dir: instrumentation off until a count starts, a dump file per thread,
// only instructions counted (no cache simulation, no per-line figures),
// and nothing but errors on stderr.
func Flags(dir string) []string {
	return []string{
		"--tool=callgrind",
		"--instr-atstart=no",
		"--separate-threads=yes",
		"--dump-line=no",
		"--dump-instr=no",
		"--compress-strings=no",
		"--compress-pos=no",
		"--callgrind-out-file=" + filepath.Join(dir, dumpBase),
		"--quiet",
		"--error-exitcode=0",
	}
}

// A Counter counts the instructions between its Start and Stop; it is
// for one goroutine at a time.
type Counter struct {
	dir   string
	dumps int // dumps written so far: the next is dumps+1
}

var (
	counterOnce sync.Once
	counter     *Counter
	counterErr  error
)

// Open returns the process's Counter, or why it has none: the process
// does not run under Valgrind, or was not started as Command starts it.
func Open() (*Counter, error) {
	counterOnce.Do(func() {
		dir := os.Getenv(DirEnv)
		switch {
		case Running() == 0:
			counterErr = fmt.Errorf("valgrind: this process does not run under Valgrind")
		case dir == "":
			counterErr = fmt.Errorf("valgrind: %s is not set: the process was not started to count", DirEnv)
		default:
			counter = &Counter{dir: dir}
		}
	})
	return counter, counterErr
}

// Start turns instrumentation on and zeroes the counts.
func (c *Counter) Start() {
	request(&[6]uintptr{startInstr}, 0)
	request(&[6]uintptr{zeroStats}, 0)
}

// Pause stops counting this thread's instructions until Resume: a check
// inside a counted loop runs uncounted. Collection is callgrind's state
// per thread: the goroutine must stay on its thread (LockOSThread).
func (c *Counter) Pause() { request(&[6]uintptr{toggleCollect}, 0) }

// Resume counts again after Pause.
func (c *Counter) Resume() { request(&[6]uintptr{toggleCollect}, 0) }

// Stop dumps the counts since Start and returns the instructions the
// busiest thread ran.
func (c *Counter) Stop() (uint64, error) {
	request(&[6]uintptr{dumpStats}, 0)
	c.dumps++
	paths, err := filepath.Glob(filepath.Join(c.dir, fmt.Sprintf("%s.%d-*", dumpBase, c.dumps)))
	if err == nil && len(paths) == 0 {
		err = fmt.Errorf("valgrind: callgrind wrote no dump %d in %s", c.dumps, c.dir)
	}
	if err != nil {
		return 0, err
	}
	var most uint64
	for _, p := range paths {
		n, err := readTotal(p)
		if err != nil {
			return 0, err
		}
		most = max(most, n)
		os.Remove(p) // read once; the directory is the parent's to remove
	}
	return most, nil
}

// readTotal reads the instructions (event Ir) a callgrind dump sums up:
// its "summary:" line, or its "totals:" line.
func readTotal(path string) (uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("valgrind: reading callgrind's dump: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		for _, key := range []string{"summary:", "totals:"} {
			if rest, ok := strings.CutPrefix(line, key); ok {
				fields := strings.Fields(rest)
				if len(fields) == 0 {
					return 0, fmt.Errorf("valgrind: %s: an empty %s line", path, key)
				}
				return strconv.ParseUint(fields[0], 10, 64)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("valgrind: reading %s: %w", path, err)
	}
	return 0, fmt.Errorf("valgrind: %s has no summary: not a callgrind dump", path)
}

// Off turns instrumentation off until the next Start: what runs between
// counts runs at Valgrind's uninstrumented speed.
func (c *Counter) Off() { request(&[6]uintptr{stopInstr}, 0) }
