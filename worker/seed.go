package worker

import (
	"context"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// The Go runtime seeds its random state once per process (runtime/rand.go,
// randinit: from the 16 random bytes the kernel passes in the auxiliary
// vector, else from the system's random source), and every map's hash
// seed, sync.Map's, and the AES hash's keys follow from it. A lookup in a
// codec's type cache (a sync.Map) walks a trie as deep as its seed makes
// it, so the instructions of one op move by a few percent between two
// processes of the same binary, under Valgrind too. A counting worker
// built with the runtime's random state fixed (FixRand) draws the same
// seeds in every process: what it counts repeats.

// The edits FixRand makes to runtime/rand.go, each of a text that must
// occur exactly once: randinit's seed, gathered from the kernel or the
// system, is overwritten with a constant just before it seeds the
// runtime's generator (the AES hash's keys, the heap's base and each
// thread's generators follow from it); rand, which draws each map's and
// sync.Map's seed and a map iteration's start, draws from one sequence
// for the whole process (FixedRandFile's fixedRand) in place of the
// calling thread's own generator, so that a seed depends on how many
// seeds were drawn before it, not on which thread the goroutine ran on;
// and a new thread's cheap generator is seeded from the bootstrap
// generator, not from rand, so that the runtime starting a thread (when
// the scheduler decides) takes nothing from rand's sequence.
var randEdits = []struct{ old, new string }{
	{SeedLine, "\t// serbench's counting build: every process draws the same seeds.\n" +
		"\tfor i := range seed {\n\t\tseed[i] = byte(i + 1)\n\t}\n" + SeedLine},
	{"func rand() uint64 {\n", "func rand() uint64 {\n\treturn fixedRand()\n}\n\n" +
		"// chachaRand is the runtime's own rand, unused in serbench's counting build.\n" +
		"func chachaRand() uint64 {\n"},
	{"\tmp.cheaprand = rand()\n", "\tmp.cheaprand = bootstrapRand()\n"},
}

// SeedLine is the statement of runtime/rand.go's randinit that the
// fixed-seed build's copy of the file precedes with a constant seed.
const SeedLine = "\tglobalRand.state.Init(*seed)\n"

// FixedRandFile is the file the fixed-seed build adds to package runtime:
// fixedRand, the one sequence rand draws from there (splitmix64 of a
// counter, a few instructions as the runtime's own rand is).
const FixedRandFile = `package runtime

import "internal/runtime/atomic"

var fixedRandCount uint64

// fixedRand returns the next value of the process's one sequence.
//
//go:nosplit
func fixedRand() uint64 {
	z := atomic.Xadd64(&fixedRandCount, 1) * 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
`

// FixRand returns the text of runtime/rand.go (src, the installed Go's
// own file) with randinit seeding the runtime from a constant and rand
// drawing from FixedRandFile's sequence, or an error when src does not
// hold each text it changes exactly once (a Go whose runtime is not the
// one this build knows).
func FixRand(src []byte) ([]byte, error) {
	text := string(src)
	for _, e := range randEdits {
		if n := strings.Count(text, e.old); n != 1 {
			return nil, fmt.Errorf("runtime/rand.go holds %q %d times, not once: this Go's random state is not one serbench can fix", strings.TrimSpace(e.old), n)
		}
		text = strings.Replace(text, e.old, e.new, 1)
	}
	return []byte(text), nil
}

// BuildFixedSeed builds the main package pkg of the module in dir into
// out with go build, its runtime seeded from a constant (FixRand): an
// overlay (go build -overlay) replaces GOROOT/src/runtime/rand.go by the
// fixed copy, made in work from the file of the Go that go build runs,
// and adds FixedRandFile to the package,
// so that it follows that Go's version. flags are go build's flags
// besides. The first build recompiles everything (the runtime changed);
// later ones come from the build cache. env is added to go's
// environment. go runs as External.
func BuildFixedSeed(ctx context.Context, dir, pkg, out, work string, env, flags []string) error {
	overlay, err := writeOverlay(ctx, dir, work)
	if err != nil {
		return err
	}
	args := append([]string{"build", "-overlay", overlay, "-o", out}, flags...)
	cmd := External(ctx, dir, "go", append(args, pkg)...)
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build -overlay (the runtime seeded from a constant): %v: %s", err, strings.TrimSpace(string(b)))
	}
	return nil
}

// writeOverlay writes to work the overlay of a fixed-seed build of the
// module in dir (BuildFixedSeed) and returns its path.
func writeOverlay(ctx context.Context, dir, work string) (string, error) {
	goroot, err := External(ctx, dir, "go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	orig := filepath.Join(strings.TrimSpace(string(goroot)), "src", "runtime", "rand.go")
	src, err := os.ReadFile(orig)
	if err != nil {
		return "", fmt.Errorf("the Go runtime's source: %w", err)
	}
	fixed, err := FixRand(src)
	if err != nil {
		return "", err
	}
	copyPath, addPath := filepath.Join(work, "rand.go"), filepath.Join(work, "fixedrand.go")
	overlay := filepath.Join(work, "overlay.json")
	spec, _ := json.Marshal(map[string]map[string]string{"Replace": {
		orig: copyPath,
		filepath.Join(filepath.Dir(orig), "serbench_fixedrand.go"): addPath,
	}})
	if err := errors.Join(os.WriteFile(copyPath, fixed, 0o644), os.WriteFile(addPath, []byte(FixedRandFile), 0o644), os.WriteFile(overlay, spec, 0o644)); err != nil {
		return "", err
	}
	return overlay, nil
}

// A BuildPlan is what a build would compile: the packages that are not
// in Go's build cache, and the size of their source files.
type BuildPlan struct {
	Packages int
	Bytes    int64
}

// StaleFixedSeed returns what BuildFixedSeed, given the same arguments,
// would compile: go list -deps with the build's overlay and settings
// says which packages are stale (not in Go's build cache), without
// building anything. The main package, always stale (go build links it
// afresh), is left out.
func StaleFixedSeed(ctx context.Context, dir, pkg, work string, env, flags []string) (BuildPlan, error) {
	overlay, err := writeOverlay(ctx, dir, work)
	if err != nil {
		return BuildPlan{}, err
	}
	const format = `{{if and .Stale (ne .Name "main")}}{{.Dir}}{{range .GoFiles}}{{"\t"}}{{.}}{{end}}{{range .CgoFiles}}{{"\t"}}{{.}}{{end}}{{range .SFiles}}{{"\t"}}{{.}}{{end}}{{"\n"}}{{end}}`
	args := append([]string{"list", "-overlay", overlay, "-deps", "-f", format}, flags...)
	cmd := External(ctx, dir, "go", append(args, pkg)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		return BuildPlan{}, fmt.Errorf("go list -overlay (what the fixed-seed build compiles): %w", err)
	}
	return buildPlan(string(out), func(path string) int64 {
		if fi, err := os.Stat(path); err == nil {
			return fi.Size()
		}
		return 0
	}), nil
}

// buildPlan reads StaleFixedSeed's listing, a line per stale package
// (its directory, then its source files, separated by tabs), sizing
// each file with size (0 for a file the overlay adds).
func buildPlan(listing string, size func(path string) int64) BuildPlan {
	var p BuildPlan
	for _, line := range strings.Split(listing, "\n") {
		f := strings.Split(line, "\t")
		if f[0] == "" {
			continue
		}
		p.Packages++
		for _, name := range f[1:] {
			p.Bytes += size(filepath.Join(f[0], name))
		}
	}
	return p
}

// FixSeeds builds this program again from its source with the runtime
// seeded from a constant (BuildFixedSeed), into work, and makes v run it
// in place of the program a child would run (Program), so that every
// counting process draws the same seeds. It returns what the run is to
// record of its counts' seeds (results.Options.CountSeed). Where the build
// cannot be made, the same program (not one built from other code)
// counts, with the seeds of each process, and the note says why: the
// source is not where this program was built (an installed binary, a
// -trimpath build, a test binary), or no longer the code it was built
// from, or no Go toolchain builds it.
func (v *Valgrind) FixSeeds(ctx context.Context, work string) (note string) {
	const random = "random per process (counts move by up to a few percent between processes): "
	bi, dir, err := selfSource()
	if err != nil {
		return random + err.Error()
	}
	out := filepath.Join(work, "serbench-fixed-seed")
	env, flags := buildSettings(bi)
	if err := BuildFixedSeed(ctx, dir, bi.Path, out, work, env, flags); err != nil {
		return random + err.Error()
	}
	built, err := buildinfo.ReadFile(out)
	if err != nil {
		return random + fmt.Sprintf("reading the fixed-seed build's information: %v", err)
	}
	if built.GoVersion != bi.GoVersion {
		return random + fmt.Sprintf("the go on PATH is %s, and this program was built by %s", built.GoVersion, bi.GoVersion)
	}
	a, b := vcsOf(bi), vcsOf(built)
	if a != b {
		return random + fmt.Sprintf("the source in %s (%s) is not the code this program was built from (%s)", dir, b, a)
	}
	v.Program = out
	note = "fixed: counted by a build of this serbench from " + dir + " whose runtime seeds from a constant, the same in every process"
	if strings.HasSuffix(a, " with changes") || strings.HasPrefix(a, "no revision") {
		note += " (" + a + ": the build is of the source as it is now)"
	}
	return note
}

// StaleSeeds returns what FixSeeds, called now, would compile (its
// build plan, StaleFixedSeed), using work for the overlay; an error when
// FixSeeds would not build at all.
func (v *Valgrind) StaleSeeds(ctx context.Context, work string) (BuildPlan, error) {
	bi, dir, err := selfSource()
	if err != nil {
		return BuildPlan{}, err
	}
	env, flags := buildSettings(bi)
	return StaleFixedSeed(ctx, dir, bi.Path, work, env, flags)
}

// selfSource returns this program's build information and the directory
// of its source (sourceDir).
func selfSource() (*debug.BuildInfo, string, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil, "", errors.New("this program has no build information")
	}
	dir, err := sourceDir(bi)
	return bi, dir, err
}

// sourceDir returns the directory of the main module's source, where the
// program whose build information bi is was built: the module holding this
// file, if it is still there and is bi's main module.
func sourceDir(bi *debug.BuildInfo) (string, error) {
	if strings.HasSuffix(bi.Path, ".test") || bi.Main.Path == "" {
		return "", fmt.Errorf("%s is not a main package go build makes", bi.Path)
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", errors.New("this program was built without its source's paths (-trimpath): build it in a clone with go build")
	}
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if !strings.HasPrefix(string(b), "module "+bi.Main.Path+"\n") {
				return "", fmt.Errorf("%s is not the source of %s", dir, bi.Main.Path)
			}
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("the source this program was built from (%s) is gone: run a serbench built in a clone", filepath.Dir(file))
		}
	}
}

// buildSettings returns the environment and go build's flags that give a
// build the settings bi records: its tags, its target and the options of
// its code generation.
func buildSettings(bi *debug.BuildInfo) (env, flags []string) {
	for _, s := range bi.Settings {
		switch s.Key {
		case "-tags", "-gcflags", "-ldflags", "-asmflags":
			flags = append(flags, s.Key+"="+s.Value)
		case "CGO_ENABLED", "GOOS", "GOARCH", "GOEXPERIMENT", "GOAMD64", "GOARM64", "GO386", "GOARM":
			env = append(env, s.Key+"="+s.Value)
		}
	}
	return env, flags
}

// vcsOf returns the revision bi records and whether its tree had
// changes: two builds of the same revision without changes are of the
// same code.
func vcsOf(bi *debug.BuildInfo) string {
	rev, mod := "no revision", ""
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				mod = " with changes"
			}
		}
	}
	return rev + mod
}
