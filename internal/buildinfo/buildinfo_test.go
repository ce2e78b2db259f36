package buildinfo

import (
	"os/exec"
	"regexp"
	"runtime"
	"testing"
)

// TestMainInWorkTree checks that a binary run from its main module's git
// work tree (as go run and go test run it, without a stamped revision)
// names the revision it was built from.
func TestMainInWorkTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if err := exec.Command("git", "rev-parse", "HEAD").Run(); err != nil {
		t.Skip("not in a git work tree with a commit (an exported source tree)")
	}
	if v := Main(); !regexp.MustCompile(`^devel-[0-9a-f]{12}(\+dirty)?$`).MatchString(v) {
		t.Errorf("Main() = %q, want devel- and the work tree's revision", v)
	}
}

func TestGitRevisionOfAnotherModule(t *testing.T) {
	if rev, _ := gitRevision("example.com/not/serbench"); rev != "" {
		t.Errorf("gitRevision of another module = %q, want none", rev)
	}
}

func TestModule(t *testing.T) {
	if v := Module("std"); v != runtime.Version() {
		t.Errorf("Module(std) = %q, want %q", v, runtime.Version())
	}
	if v := Module("example.com/not/linked"); v != "unknown" {
		t.Errorf("Module of a module not linked in = %q, want unknown", v)
	}
}
