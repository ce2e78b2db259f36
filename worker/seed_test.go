package worker_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/serbench/serbench/worker"
)

// TestFixRand holds the change to the installed Go's runtime/rand.go:
// randinit seeds from a constant just before the generator starts, rand
// draws from the added file's sequence, and the rest is the file as
// installed; a file without the texts it changes (another Go's) is
// refused, not patched somewhere else.
func TestFixRand(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "runtime", "rand.go"))
	if err != nil {
		t.Skipf("no runtime source: %v", err)
	}
	got, err := worker.FixRand(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"seed[i] = byte(i + 1)\n\t}\n" + worker.SeedLine,
		"func rand() uint64 {\n\treturn fixedRand()\n}\n",
		"mp.cheaprand = bootstrapRand()\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the fixed rand.go lacks %q", want)
		}
	}
	if !strings.Contains(worker.FixedRandFile, "func fixedRand() uint64 {") {
		t.Errorf("the added file defines no fixedRand")
	}
	if i := bytes.Index(src, []byte(worker.SeedLine)); !bytes.HasPrefix(got, src[:i]) {
		t.Errorf("the fixed rand.go changed more than randinit's seed, rand and mrandinit")
	}
	if _, err := worker.FixRand([]byte("package runtime\n")); err == nil || !strings.Contains(err.Error(), "0 times") {
		t.Errorf("FixRand of a file without randinit's statement: %v; want refused", err)
	}
}

// TestFixedSeedRepeats builds a small program twice, with the runtime as
// installed and seeded from a constant (BuildFixedSeed, as a counting
// worker is built), and runs each twice: the hash of a value under a
// new seed (a sync.Map's and every map's seed are drawn alike) differs
// between two processes of the first and is the same in two of the
// second. It compiles the runtime and the few packages the program
// needs once (then Go's build cache serves them).
func TestFixedSeedRepeats(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a program with a changed runtime")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	// The seed is drawn on a thread of its own, after other goroutines
	// made threads of their own when the scheduler let them: which
	// thread draws, and what the threads drew before, is up to timing.
	prog := `package main

import (
	"hash/maphash"
	"os"
	"runtime"
	"strconv"
	"time"
)

func main() {
	for range 4 {
		go func() {
			runtime.LockOSThread()
			time.Sleep(time.Millisecond)
		}()
	}
	seed := make(chan uint64)
	go func() {
		runtime.LockOSThread()
		seed <- maphash.Comparable(maphash.MakeSeed(), 1)
	}()
	os.Stdout.WriteString(strconv.FormatUint(<-seed, 10))
}
`
	for name, text := range map[string]string{"go.mod": "module seedprobe\n\ngo 1.22\n", "main.go": prog} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	fixed := filepath.Join(dir, "fixed")
	if err := worker.BuildFixedSeed(ctx, dir, ".", fixed, t.TempDir(), nil, nil); err != nil {
		t.Fatal(err)
	}
	if p, err := worker.StaleFixedSeed(ctx, dir, ".", t.TempDir(), nil, nil); err != nil || p.Packages != 0 {
		t.Errorf("StaleFixedSeed after the build = %+v, %v; want nothing to compile (Go's build cache holds it)", p, err)
	}
	random := filepath.Join(dir, "random")
	if out, err := worker.External(ctx, dir, "go", "build", "-o", random, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	runTwice := func(bin string) (string, string) {
		var outs [2]string
		for i := range outs {
			out, err := exec.Command(bin).Output()
			if err != nil {
				t.Fatalf("%s: %v", bin, err)
			}
			outs[i] = string(out)
		}
		return outs[0], outs[1]
	}
	if a, b := runTwice(fixed); a != b {
		t.Errorf("the fixed-seed build hashed 1 to %s in one process and %s in another; want the same", a, b)
	}
	if a, b := runTwice(random); a == b {
		t.Errorf("the build as installed hashed 1 to %s in two processes: its seeds are not random, so this test shows nothing", a)
	}
}

// TestFixSeedsOnlyRebuildsMain: a program go build cannot make again (a
// test binary) counts as it is, with each process's seeds, and the note
// says so and why; Valgrind then runs the child's own program.
func TestFixSeedsOnlyRebuildsMain(t *testing.T) {
	vg := &worker.Valgrind{Path: "/usr/bin/valgrind"}
	note := vg.FixSeeds(context.Background(), t.TempDir())
	if !strings.HasPrefix(note, "random per process") || !strings.Contains(note, ".test is not a main package") {
		t.Errorf("FixSeeds in a test binary: %q; want random seeds, the test binary named", note)
	}
	if vg.Program != "" {
		t.Errorf("Program = %q; want none", vg.Program)
	}
}
