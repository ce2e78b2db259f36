package runner

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
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

// Version returns serbench's module version, or "devel-" and its VCS
// revision (with "+dirty" for uncommitted changes) when built from a work
// tree. go build stamps the revision into the binary; go run does not, so
// then it asks git about the work tree serbench runs in, if that is
// serbench's own.
func Version() string { return version() }

var version = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		rev, dirty = gitRevision(bi.Main.Path)
	}
	if len(rev) < 12 {
		return "(devel)"
	}
	v = "devel-" + rev[:12]
	if dirty {
		v += "+dirty"
	}
	return v
})

// gitRevision returns the HEAD revision of the git work tree around the
// current directory and whether it has uncommitted changes, if that work
// tree holds module modPath; "" if not, or without git.
func gitRevision(modPath string) (rev string, dirty bool) {
	git := func(args ...string) string {
		out, err := exec.Command("git", args...).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	top := git("rev-parse", "--show-toplevel")
	if top == "" || modPath == "" {
		return "", false
	}
	mod, err := os.ReadFile(filepath.Join(top, "go.mod"))
	if err != nil || !slices.Contains(strings.Split(string(mod), "\n"), "module "+modPath) {
		return "", false
	}
	rev = git("-C", top, "rev-parse", "HEAD")
	dirty = git("-C", top, "status", "--porcelain", "--untracked-files=no") != ""
	return rev, dirty
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
	var last []byte
	b := &bench{loop: encodeLoop(nop{}, &last)}
	n, err := r.calibrate(ctx, b.loop)
	if err != nil {
		return 0
	}
	b.n = n
	// A second is plenty for a loop that does nothing.
	budget := r.opts.Budget
	r.opts.Budget = min(budget, time.Second)
	defer func() { r.opts.Budget = budget }()
	r.sample(ctx, []*bench{b}, func(*bench) {})
	return b.res.NsPerOp.Median
}
