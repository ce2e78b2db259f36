package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Self is the command that starts serbench the way the user started it,
// for hints that print a command to type: "go run ./cmd/serbench" under
// go run, the path typed ("./serbench") for a binary run by its path, and
// "serbench" for one found on PATH.
var Self = invocation(os.Args[0])

func invocation(arg0 string) string {
	if GoRun(arg0) {
		return "go run ./cmd/serbench"
	}
	if strings.ContainsRune(arg0, filepath.Separator) && !onPath(arg0) {
		return arg0
	}
	return "serbench"
}

// onPath reports whether the binary at path is the one PATH finds by its
// name: started by its full path, it is still typed as its name.
func onPath(path string) bool {
	found, err := exec.LookPath(filepath.Base(path))
	if err != nil {
		return false
	}
	a, errA := filepath.EvalSymlinks(found)
	b, errB := filepath.EvalSymlinks(path)
	return errA == nil && errB == nil && a == b
}

// GoRun reports whether arg0 is the path of a binary go run built: go run
// reports every non-zero exit status as 1. go run builds into a temporary
// directory (go-build*/b001/exe/NAME) or, from Go 1.24 on, keeps the
// binary in the build cache (GOCACHE/xx/HASH-d/NAME).
func GoRun(arg0 string) bool {
	dir := filepath.Dir(arg0)
	if filepath.Base(dir) == "exe" && strings.Contains(arg0, "go-build") {
		return true
	}
	return cachedExe.MatchString(filepath.ToSlash(dir))
}

// cachedExe matches the directory of a binary in Go's build cache: two
// hex digits, then a SHA-256 in hex ending in -d.
var cachedExe = regexp.MustCompile(`/[0-9a-f]{2}/[0-9a-f]{64}-d$`)

// Localize rewrites the commands a message quotes ('serbench list
// codecs', run serbench fidelity -o DIR) into the command the user
// started, so that every hint printed can be typed as it stands.
func Localize(msg string) string {
	if Self == "serbench" {
		return msg
	}
	for _, lead := range []string{"'", "`", "run ", "with: "} {
		msg = strings.ReplaceAll(msg, lead+"serbench ", lead+Self+" ")
	}
	return msg
}
