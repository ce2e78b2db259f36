package worker

import (
	"bufio"
	"os"
	"path"
	"strconv"
	"strings"
)

// readOOM reads the kernel's out-of-memory kill counters: the machine's
// (/proc/vmstat oom_kill) and those of this process's memory cgroup and
// its ancestors (cgroup v2 memory.events, v1 memory.oom_control), where a
// container's memory limit kills.
func readOOM() oomCounters {
	c := oomCounters{}
	if n, ok := counter("/proc/vmstat", "oom_kill"); ok {
		c["/proc/vmstat"] = n
	}
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return c
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "0::/path" (v2) or "4:memory:/path" (v1).
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var root, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			root, file = "/sys/fs/cgroup", "memory.events"
		case strings.Contains(","+parts[1]+",", ",memory,"):
			root, file = "/sys/fs/cgroup/memory", "memory.oom_control"
		default:
			continue
		}
		for dir := parts[2]; ; dir = path.Dir(dir) {
			p := path.Join(root, dir, file)
			if n, ok := counter(p, "oom_kill"); ok {
				c[p] = n
			}
			if dir == "/" || dir == "." {
				break
			}
		}
	}
	return c
}

// counter reads the value of the line "name N" in file.
func counter(file, name string) (uint64, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(rest), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// physicalMemory returns the machine's memory in bytes, 0 if unknown.
func physicalMemory() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			n, _ := strconv.ParseUint(f[1], 10, 64)
			return n << 10 // kB
		}
	}
	return 0
}
