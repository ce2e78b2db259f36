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

// Seed builds into cache, as BuildFlags say, the standard library
// packages std: a cold build that starts from a copy of it compiles
// every package of a main outside the standard library, and links.
func (w *Workspace) Seed(ctx context.Context, cache string, std []string) error {
	if len(std) == 0 {
		return nil
	}
	args := append(append([]string{"build"}, BuildFlags[:1]...), std...)
	if _, err := run(goCmd(ctx, w.Dir, cache, w.Dir, args...)); err != nil {
		return fmt.Errorf("cost: seeding the build cache with the standard library: %w", err)
	}
	return nil
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
