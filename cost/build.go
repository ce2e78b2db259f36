package cost

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
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

// Seed builds into cache, as BuildFlags say, the standard library
// packages std and, with a non-nil base, the baseline main's packages
// (serbench's codec contract and the dataset package, and their
// modules): a cold build that starts from a copy of it compiles what a
// codec adds (its library, its adapter) and links, and nothing the
// baseline has.
func (w *Workspace) Seed(ctx context.Context, cache string, std []string, base *Main) error {
	if len(std) > 0 {
		args := append(append([]string{"build"}, BuildFlags[:1]...), std...)
		if _, err := run(goCmd(ctx, w.Dir, cache, w.Dir, args...)); err != nil {
			return fmt.Errorf("cost: seeding the build cache with the standard library: %w", err)
		}
	}
	if base != nil {
		args := append([]string{"build"}, BuildFlags...)
		if _, err := run(goCmd(ctx, w.Dir, cache, base.Dir, append(args, "-o", os.DevNull, ".")...)); err != nil {
			return fmt.Errorf("cost: seeding the build cache with the baseline: %w", err)
		}
	}
	return nil
}

// coldBuild builds the main in dir of workspace work with a build cache
// of its own, a copy of seed (hard links: the cache's entries are never
// written in place), and returns the build's CPU-seconds: user and
// system time from the go command's rusage, which holds the compiler's
// and the linker's, the processes it waited for.
func coldBuild(ctx context.Context, work, dir, seed string) (float64, error) {
	tmp, err := os.MkdirTemp(work, "cold-")
	if err != nil {
		return 0, fmt.Errorf("cost: %w", err)
	}
	defer os.RemoveAll(tmp)
	cache := filepath.Join(tmp, "cache")
	if err := linkTree(seed, cache); err != nil {
		return 0, fmt.Errorf("cost: copying the seeded cache: %w", err)
	}
	args := append([]string{"build"}, BuildFlags...)
	cmd := goCmd(ctx, work, cache, dir, append(args, "-o", filepath.Join(tmp, "bin"), ".")...)
	if _, err := run(cmd); err != nil {
		return 0, err
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds(), nil
	}
	return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds(), nil
}

// linkTree copies directory src to dst, hard-linking files where it can;
// a file dst has already is left as it is.
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
		if _, err := os.Lstat(to); err == nil {
			return nil
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
