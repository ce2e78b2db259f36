package machine

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// ProcessCPU returns the CPU time the process pid has used so far, all
// its threads', user and system, from the kernel's CPU clock of that
// process (clock_gettime on the clock glibc's clock_getcpuclockid names):
// one system call, to the nanosecond, nothing the process itself reports.
func ProcessCPU(pid int) (time.Duration, bool) {
	var ts unix.Timespec
	clock := int32(^pid)<<3 | 2 // the whole process's CPUCLOCK_SCHED
	if err := unix.ClockGettime(clock, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// ReadUsage reads the usage of process pid (this one too) from /proc: each thread's schedstat
// (nanoseconds on a CPU, nanoseconds runnable on a run queue) and statm
// (resident pages).
func ReadUsage(pid int) Usage {
	u := Usage{At: time.Now()}
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	tasks, err := filepath.Glob(filepath.Join(dir, "task", "*", "schedstat"))
	if err != nil || len(tasks) == 0 {
		return u
	}
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended meanwhile
		}
		f := bytes.Fields(b)
		if len(f) < 2 {
			return u
		}
		run, err1 := strconv.ParseInt(string(f[0]), 10, 64)
		wait, err2 := strconv.ParseInt(string(f[1]), 10, 64)
		if err1 != nil || err2 != nil {
			return u
		}
		u.CPU += time.Duration(run)
		u.Wait += time.Duration(wait)
		// The state follows the command's name, in parentheses, in stat.
		if st, err := os.ReadFile(filepath.Join(filepath.Dir(t), "stat")); err == nil {
			if i := bytes.LastIndexByte(st, ')'); i >= 0 && i+2 < len(st) && st[i+2] == 'D' {
				u.Held = true
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "statm"))
	if err != nil {
		return u
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return u
	}
	pages, err := strconv.ParseUint(string(f[1]), 10, 64)
	if err != nil {
		return u
	}
	u.RSS = pages * uint64(os.Getpagesize())
	u.OK = true
	return u
}
