package cost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/serbench/serbench/worker"
)

// BuildFlags are the flags of every build the study measures: stripped
// and trimmed, as a release binary is built.
var BuildFlags = []string{"-trimpath", "-ldflags=-s -w"}

// goCmd returns the go command run in dir of workspace work, with the
// build cache cache (empty: the user's).
func goCmd(ctx context.Context, work, cache, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK="+filepath.Join(work, "go.work"), "GOTOOLCHAIN=local", "GOFLAGS=-buildvcs=false")
	if cache != "" {
		cmd.Env = append(cmd.Env, "GOCACHE="+cache)
	}
	return cmd
}

// run runs cmd and returns its standard output, or an error holding its
// standard error.
func run(cmd *exec.Cmd) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// Size builds main m as BuildFlags say, with build cache cache (empty:
// the user's), and returns the binary's size in bytes.
func (w *Workspace) Size(ctx context.Context, m *Main, cache string) (int64, error) {
	bin := filepath.Join(w.Dir, "bin-"+m.Codec)
	args := append([]string{"build"}, BuildFlags...)
	if _, err := run(goCmd(ctx, w.Dir, cache, m.Dir, append(args, "-o", bin, ".")...)); err != nil {
		return 0, fmt.Errorf("cost: building %s's main: %w", m.Codec, err)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		return 0, fmt.Errorf("cost: %w", err)
	}
	os.Remove(bin)
	return fi.Size(), nil
}

// Seed fills a new build cache in the workspace with the standard
// library's packages that any of mains needs and with the baseline's
// packages (serbench's codec contract and the dataset package, and
// their modules), built as BuildFlags say, and returns its directory:
// a cold build that starts from a copy of it compiles what the codec
// adds (its library, its adapter) and links, and nothing the baseline
// has.
func (w *Workspace) Seed(ctx context.Context, std []string) (string, error) {
	cache := filepath.Join(w.Dir, "seed-cache")
	if len(std) > 0 {
		args := append(append([]string{"build"}, BuildFlags[:1]...), std...)
		if _, err := run(goCmd(ctx, w.Dir, cache, w.Dir, args...)); err != nil {
			return "", fmt.Errorf("cost: seeding the build cache with the standard library: %w", err)
		}
	}
	if b := w.Mains[Baseline]; b != nil {
		args := append([]string{"build"}, BuildFlags...)
		if _, err := run(goCmd(ctx, w.Dir, cache, b.Dir, append(args, "-o", os.DevNull, ".")...)); err != nil {
			return "", fmt.Errorf("cost: seeding the build cache with the baseline: %w", err)
		}
	}
	return cache, nil
}

// BuildTask names the worker task that times one cold build.
const BuildTask = "cost-build"

// buildInput is BuildTask's input: the main to build, the workspace it
// is in and the seeded cache a copy of which the build starts from.
type buildInput struct {
	Work string `json:"work"`
	Dir  string `json:"dir"`
	Seed string `json:"seed"`
}

// buildOutput is BuildTask's output: the CPU time of the go command and
// every process it waited for (compile, link), and the wall time.
type buildOutput struct {
	CPU  float64 `json:"cpu_s"`
	User float64 `json:"user_s"`
	Sys  float64 `json:"sys_s"`
	Wall float64 `json:"wall_s"`
}

// Handler is the child's side of a cold build: it copies the seeded
// cache (hard links: its entries are never written in place) into a
// cache of its own, builds the main with it, and returns the build's
// CPU-seconds from the go command's rusage, which holds the compiler's
// and the linker's.
var Handler = worker.Handler{Name: BuildTask, Run: func(ctx context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
	var in buildInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("cost: reading the task: %w", err)
	}
	tmp, err := os.MkdirTemp(in.Work, "cold-")
	if err != nil {
		return nil, fmt.Errorf("cost: %w", err)
	}
	defer os.RemoveAll(tmp)
	step("copy cache")
	cache := filepath.Join(tmp, "cache")
	if err := linkTree(in.Seed, cache); err != nil {
		return nil, fmt.Errorf("cost: copying the seeded cache: %w", err)
	}
	step("build")
	args := append([]string{"build"}, BuildFlags...)
	cmd := goCmd(ctx, in.Work, cache, in.Dir, append(args, "-o", filepath.Join(tmp, "bin"), ".")...)
	start := time.Now()
	if _, err := run(cmd); err != nil {
		return nil, err
	}
	out := buildOutput{Wall: time.Since(start).Seconds()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		out.User = time.Duration(ru.Utime.Nano()).Seconds()
		out.Sys = time.Duration(ru.Stime.Nano()).Seconds()
		out.CPU = out.User + out.Sys
	} else {
		out.User = cmd.ProcessState.UserTime().Seconds()
		out.Sys = cmd.ProcessState.SystemTime().Seconds()
		out.CPU = out.User + out.Sys
	}
	return json.Marshal(out)
}}

// linkTree copies directory src to dst, hard-linking files where it can.
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		// The files at the top (trim.txt, README) may be rewritten in
		// place: each copy gets its own.
		if filepath.Dir(rel) != "." && os.Link(p, to) == nil {
			return nil
		}
		return copyFile(p, to)
	})
}

func copyFile(from, to string) error {
	r, err := os.Open(from)
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
