// Package buildinfo reads the module versions the Go toolchain records in
// the binary: serbench's own and those of the codecs' modules.
package buildinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// read returns the binary's build information, read once.
var read = sync.OnceValues(debug.ReadBuildInfo)

// Module returns the version of module as linked into this binary: the
// Go version for "std", "(devel)" for the main module built from a work
// tree, and "unknown" when the build carries no module information or no
// such module.
func Module(module string) string {
	if module == "std" || module == "" {
		return runtime.Version()
	}
	bi, ok := read()
	if !ok {
		return "unknown"
	}
	if bi.Main.Path == module {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == module {
			if d.Replace != nil {
				return d.Replace.Version + " (replaced)"
			}
			return d.Version
		}
	}
	return "unknown"
}

// Main returns the main module's version, or "devel-" and its VCS
// revision (with "+dirty" for uncommitted changes) when built from a work
// tree. go build stamps the revision into the binary; go run does not, so
// then it asks git about the work tree the process runs in, if that is
// the main module's own.
func Main() string { return mainVersion() }

var mainVersion = sync.OnceValue(func() string {
	bi, ok := read()
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
