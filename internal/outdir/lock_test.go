package outdir

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for a second serbench process:
// with OUTDIR_HOLD set it opens that directory, says so on stdout and
// holds it until its stdin closes or it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("OUTDIR_HOLD"); dir != "" {
		d, err := Open(dir)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("holding")
		io.Copy(io.Discard, os.Stdin)
		d.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// hold starts a process that holds dir; it returns once dir is locked.
func hold(t *testing.T, dir string) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "OUTDIR_HOLD="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "holding\n" {
		t.Fatalf("the holder said %q", line)
	}
	return cmd, stdin
}

// TestLock checks that a directory another process writes is refused,
// naming that process; that a writer killed leaves a lock taken over;
// and that one that ended leaves none.
func TestLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	holder, _ := hold(t, dir)
	_, err := Open(dir)
	var oe *Error
	want := fmt.Sprintf("serbench process %d is writing it", holder.Process.Pid)
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), want) {
		t.Fatalf("Open of a directory held: %v; want an *Error containing %q", err, want)
	}
	if strings.Contains(err.Error(), "-resume") {
		t.Errorf("the refusal suggests -resume while its writer lives: %v", err)
	}

	holder.Process.Kill()
	holder.Wait()
	d, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after its writer was killed: %v", err)
	}
	if d.Stale != holder.Process.Pid {
		t.Errorf("Stale = %d; want the killed writer's pid %d", d.Stale, holder.Process.Pid)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid())) {
		t.Errorf("a second Open in the same process: %v; want a refusal naming it", err)
	}
	d.Close()

	// A writer that ends releases the directory and leaves no pid.
	ended, stdin := hold(t, dir)
	stdin.Close()
	if err := ended.Wait(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(dir)
	if err != nil {
		t.Fatalf("Open after its writer ended: %v", err)
	}
	if d.Stale != 0 {
		t.Errorf("Stale = %d after a writer that ended; want 0", d.Stale)
	}
	d.Close()
}

// TestLinks checks that no symbolic link inside an output directory is
// followed: Open refuses one anywhere under it, and MakeDir,
// RemoveMatching, WriteAtomic and NewWork refuse one where serbench's
// own file or directory would be, leaving the user's files as they were.
func TestLinks(t *testing.T) {
	base := t.TempDir()
	user := filepath.Join(base, "user")
	write(t, filepath.Join(user, "data.bin"), "mine")
	write(t, filepath.Join(user, "results.json"), "mine too")
	before := snapshot(t, user)

	for _, tc := range []struct {
		name string
		link string // under the output directory
		to   string
	}{
		{"a study's directory", "hostile", user},
		{"the working directory", WorkName, user},
		{"a file", "results.json", filepath.Join(user, "results.json")},
		{"deeper", "hostile/x", user},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(base, strings.ReplaceAll(tc.name, " ", "-"))
			write(t, filepath.Join(out, Marker), "")
			if err := os.MkdirAll(filepath.Dir(filepath.Join(out, tc.link)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(tc.to, filepath.Join(out, tc.link)); err != nil {
				t.Fatal(err)
			}
			_, err := Open(out)
			if err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
				t.Errorf("Open with %s a link: %v; want a refusal naming the link", tc.link, err)
			}
		})
	}

	// The parts that write refuse a link themselves, whoever calls them.
	out := filepath.Join(base, "direct")
	write(t, filepath.Join(out, Marker), "")
	os.Symlink(user, filepath.Join(out, "hostile"))
	os.Symlink(filepath.Join(user, "results.json"), filepath.Join(out, "results.json"))
	var le *LinkError
	if err := MakeDir(filepath.Join(out, "hostile")); !errors.As(err, &le) {
		t.Errorf("MakeDir on a link: %v; want a *LinkError", err)
	}
	if err := RemoveMatching(filepath.Join(out, "hostile"), "*.bin"); !errors.As(err, &le) {
		t.Errorf("RemoveMatching in a link: %v; want a *LinkError", err)
	}
	if err := WriteAtomic(filepath.Join(out, "results.json"), func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); !errors.As(err, &le) {
		t.Errorf("WriteAtomic over a link: %v; want a *LinkError", err)
	}
	os.Symlink(user, filepath.Join(out, WorkName))
	d := &Dir{path: out}
	if err := d.NewWork(); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("NewWork with %s a link: %v; want a refusal", WorkName, err)
	}
	if after := snapshot(t, user); after != before {
		t.Errorf("the user's files changed:\n%s\nwant\n%s", after, before)
	}
}

// TestOpenLinkedRoot checks that the output directory itself may be a
// link: the user named it.
func TestOpenLinkedRoot(t *testing.T) {
	base := t.TempDir()
	os.Mkdir(filepath.Join(base, "real"), 0o755)
	os.Symlink(filepath.Join(base, "real"), filepath.Join(base, "out"))
	d, err := Open(filepath.Join(base, "out"))
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}
