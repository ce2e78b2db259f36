package runner

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

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
	}
}

// Version returns serbench's module version, or its VCS revision when built
// from a work tree.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 && (v == "" || v == "(devel)") {
			v = "devel-" + s.Value[:12]
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}

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

// LoopOverhead measures one iteration of the timed encode loop around a
// case that does nothing, in ns: the floor under every figure.
func (r *Runner) LoopOverhead(ctx context.Context) float64 {
	b := &bench{loop: encodeLoop(nop{})}
	n, err := r.calibrate(ctx, b.loop)
	if err != nil {
		return 0
	}
	b.n = n
	r.sample(ctx, []*bench{b}, func(*bench) {})
	return b.res.NsPerOp.Median
}
