package runner

import (
	"os/exec"
	"regexp"
	"testing"
)

// TestVersionInWorkTree checks that serbench run from its own git work tree
// (as go run and go test run it, without a stamped revision) names the
// revision it was built from.
func TestVersionInWorkTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if err := exec.Command("git", "rev-parse", "HEAD").Run(); err != nil {
		t.Skip("not in a git work tree with a commit (an exported source tree)")
	}
	if v := Version(); !regexp.MustCompile(`^devel-[0-9a-f]{12}(\+dirty)?$`).MatchString(v) {
		t.Errorf("Version() = %q, want devel- and the work tree's revision", v)
	}
}

func TestGitRevisionOfAnotherModule(t *testing.T) {
	if rev, _ := gitRevision("example.com/not/serbench"); rev != "" {
		t.Errorf("gitRevision of another module = %q, want none", rev)
	}
}
