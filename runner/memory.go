package runner

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// memAvailable returns the memory the OS says is available to start new
// work without swapping (MemAvailable in /proc/meminfo), and false where it
// cannot tell.
func memAvailable() (uint64, bool) {
	return procKB("/proc/meminfo", "MemAvailable:")
}

// peakRSS returns the process's peak resident set size (VmHWM), or 0.
func peakRSS() uint64 {
	v, _ := procKB("/proc/self/status", "VmHWM:")
	return v
}

// procKB reads a "Key:   123 kB" line from a /proc file, in bytes.
func procKB(file, key string) (uint64, bool) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, false
			}
			return n * 1024, true
		}
	}
	return 0, false
}
