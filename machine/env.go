package machine

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/internal/buildinfo"
	"github.com/serbench/serbench/results"
)

// Environment describes this process: Go version, platform, CPU model,
// GOMAXPROCS, date and serbench's own version.
func Environment(now time.Time) results.Env {
	return results.Env{
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		CPU:        cpuModel(),
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		Serbench:   Version(),
		Date:       now.UTC().Format(time.RFC3339),
		Cores:      cores(),
		Load:       loadAvg(),
	}
}

// loadAvg returns the load averages over 1, 5 and 15 minutes from
// /proc/loadavg, or "" where the OS has none.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}

// cores returns the CPUs this process may run on, as the OS numbers them
// (Cpus_allowed_list in /proc/self/status: "0-3,6"), or nil where it
// cannot tell.
func cores() []int {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Cpus_allowed_list:"); ok {
			return CPUList(strings.TrimSpace(v))
		}
	}
	return nil
}

// cpuList parses a Linux CPU list ("0-3,6"), or returns nil.
func CPUList(s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out
}

// Version returns serbench's module version, or "devel-" and its VCS
// revision (with "+dirty" for uncommitted changes) when built from a work
// tree (see buildinfo.Main).
func Version() string { return buildinfo.Main() }

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
