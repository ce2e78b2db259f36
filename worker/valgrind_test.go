package worker_test

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/internal/valgrind"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/worker"
)

// TestCountsOrderWork counts, under Valgrind in worker children as
// run -measure instructions does, seed 004's encode of an int by gob (an
// Encoder, its type's description and the value) and by hand into eight
// bytes: gob runs many times the instructions, on any machine at any
// load, which no test could assert of their times.
func TestCountsOrderWork(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race step): a count under Valgrind runs no goroutine the race detector could judge")
	}
	vg, err := worker.FindValgrind()
	if err != nil {
		t.Skipf("no counted benchmark: %v (scripts/test installs it)", err)
	}
	p := testPool(t, 2*time.Minute)
	p.Options.Count = true
	p.Wrap = vg
	var js []runner.Job
	for _, c := range []string{"seed004-gob", "seed004-byteorder"} {
		job, err := resolve(worker.Spec{Codec: c, Dataset: "int64", Shape: "single", Ops: []results.Op{results.Encode}})
		if err != nil {
			t.Fatal(err)
		}
		js = append(js, job)
	}
	rs, err := p.Run(context.Background(), js)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]float64{}
	for _, r := range rs {
		if r.Status != results.OK || r.InstrPerOp <= 0 {
			t.Fatalf("%s: %s, %g instructions/op: %s", r.Key(), r.Status, r.InstrPerOp, r.Reason)
		}
		if len(r.Samples) != 0 {
			t.Errorf("%s: a counted benchmark has %d timed samples", r.Key(), len(r.Samples))
		}
		if r.Checked == 0 {
			t.Errorf("%s: counted without the checks after timing", r.Key())
		}
		n[r.Codec] = r.InstrPerOp
	}
	t.Logf("instructions/op: %v", n)
	if gob, hand := n["seed004-gob"], n["seed004-byteorder"]; gob < 20*hand {
		t.Errorf("gob's encode of an int counted %g instructions, byte order by hand %g: want gob's at least 20 times as many", gob, hand)
	}
}

// TestValgrindWrap holds how a child is wrapped: callgrind with the
// counting flags, the program and its arguments after them, the dumps'
// directory in the environment and removed by the cleanup, and the
// settings that make counts repeat.
func TestValgrindWrap(t *testing.T) {
	cmd := exec.Command("/bin/true", "-test.run=^$")
	cmd.Env = []string{"GODEBUG=madvdontneed=1", "A=b"}
	cleanup, err := (&worker.Valgrind{Path: "/usr/bin/valgrind"}).Wrap(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if cmd.Path != "/usr/bin/valgrind" || cmd.Args[0] != "/usr/bin/valgrind" {
		t.Errorf("Path, Args[0] = %q, %q; want valgrind", cmd.Path, cmd.Args[0])
	}
	if !slices.Contains(cmd.Args, "--tool=callgrind") || !slices.Contains(cmd.Args, "--instr-atstart=no") {
		t.Errorf("args %q: want callgrind with its instrumentation off at the start", cmd.Args)
	}
	if tail := cmd.Args[len(cmd.Args)-2:]; tail[0] != "/bin/true" || tail[1] != "-test.run=^$" {
		t.Errorf("args end %q; want the program and its arguments", tail)
	}
	var dir string
	for _, want := range []string{"GOMAXPROCS=1", "GOGC=100", "GODEBUG=madvdontneed=1,asyncpreemptoff=1,memprofilerate=0", "A=b", valgrind.DirEnv + "="} {
		i := slices.IndexFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, want) })
		if i < 0 {
			t.Errorf("env %q lacks %q", cmd.Env, want)
		} else if want == valgrind.DirEnv+"=" {
			dir = strings.TrimPrefix(cmd.Env[i], want)
		}
	}
	if dir == "" {
		t.Fatal("no dump directory")
	}
	cleanup()
	if err := exec.Command("test", "-e", dir).Run(); err == nil {
		t.Errorf("the cleanup left %s", dir)
	}
}

// TestValgrindCrashed: a benchmark whose child died under Valgrind alone
// is skipped from the count with what happened, not failed.
func TestValgrindCrashed(t *testing.T) {
	res := results.Result{Op: results.Encode, Codec: "sonic", Status: results.Error, Reason: "crashed the worker process (signal SIGILL)"}
	got := (&worker.Valgrind{}).Crashed(res)
	if got.Status != results.Skipped || !strings.Contains(got.CountSkipped, "tried under Valgrind and failed: crashed the worker process (signal SIGILL)") {
		t.Errorf("Crashed = %s %q; want skipped with the crash named", got.Status, got.CountSkipped)
	}
}

// TestValgrindProgram: with Program set (the fixed-seed build), Valgrind
// runs it in place of the child's program, with the child's arguments.
func TestValgrindProgram(t *testing.T) {
	cmd := exec.Command("/bin/true", "worker")
	cleanup, err := (&worker.Valgrind{Path: "/usr/bin/valgrind", Program: "/tmp/serbench-fixed-seed"}).Wrap(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if tail := cmd.Args[len(cmd.Args)-2:]; tail[0] != "/tmp/serbench-fixed-seed" || tail[1] != "worker" {
		t.Errorf("args end %q; want the fixed-seed build and the child's arguments", tail)
	}
}
