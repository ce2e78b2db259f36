package runner

import (
	"bufio"
	"context"
	"github.com/serbench/serbench/codec"
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
			return cpuList(strings.TrimSpace(v))
		}
	}
	return nil
}

// cpuList parses a Linux CPU list ("0-3,6"), or returns nil.
func cpuList(s string) []int {
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

// nop is a case that does nothing, to measure the harness's own cost.
type nop struct{}

func (nop) Encode() ([]byte, error) { return nil, nil }
func (nop) Decode([]byte) error     { return nil }
func (nop) Value() (any, error)     { return nil, nil }

// LoopOverhead measures one iteration of the timed encode loop around a
// pool of cases that do nothing, in ns: the floor under every figure. It
// is the fastest of a few short batches (as the floors timed beside each
// benchmark are), so that a busy phase of a shared machine at the start of
// a run does not raise it; 0 if ctx is done.
func (r *Runner) LoopOverhead(ctx context.Context) float64 {
	if ctx.Err() != nil {
		return 0
	}
	return r.fastestOf([]loop{nopLoop(r.now)})[0]
}

// nopLoop is the timed encode loop over a pool of cases that do nothing.
func nopLoop(now func() time.Time) loop {
	cases := make([]codec.Case, PoolSize)
	for k := range cases {
		cases[k] = nop{}
	}
	ctl := newControl(PoolSize, 1, now, func(int, []byte) error { return nil })
	return encodeLoop(cases, ctl)
}
