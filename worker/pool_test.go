package worker_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/gob"
	"github.com/serbench/serbench/codecs/json"
	"github.com/serbench/serbench/codecs/seed004"
	"github.com/serbench/serbench/planted"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	jobof "github.com/serbench/serbench/runner/jobs"
	"github.com/serbench/serbench/worker"
)

// workerEnv, set in a re-executed test binary, makes it a worker.
const workerEnv = "SERBENCH_TEST_WORKER"

// parentEnv, set in a re-executed test binary, makes it a parent that
// starts a child of the kind it names ("job" or "task") that hangs, for
// a test to kill it (TestNoOrphans).
const parentEnv = "SERBENCH_TEST_PARENT"

// watchParentEnv, set in a re-executed test binary, makes it a parent
// that starts a watcher writing the file it names (TestWatcher).
const watchParentEnv = "SERBENCH_TEST_WATCH_PARENT"

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == worker.WatchCommandName {
		// A watcher (TestWatcher): it writes the file named once its
		// parent is gone or released it.
		worker.AwaitParent(os.Stdin)
		if err := os.WriteFile(os.Args[2], []byte("swept\n"), 0o644); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if path := os.Getenv(watchParentEnv); path != "" {
		// A parent with a watcher, which the test kills, and a guarded
		// process group whose sleep the parent-death signal does not
		// reach.
		w, err := worker.Watch(path)
		if err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		group := worker.External(context.Background(), "", "sh", "-c", "sleep 3600 & wait")
		if err := group.Start(); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		w.Guard(group.Process.Pid)
		os.Stdout.WriteString("watching\n")
		time.Sleep(time.Hour)
		os.Exit(1)
	}
	if kind := os.Getenv(parentEnv); kind != "" {
		os.Unsetenv(parentEnv)
		p := &worker.Pool{Timeout: time.Hour, TaskTimeout: time.Hour, Command: childCommand}
		switch kind {
		case "job":
			job, err := resolve(worker.Spec{Codec: "planted-hang", Dataset: "big", Shape: "single", Ops: results.Ops})
			if err == nil {
				_, err = p.Run(context.Background(), []runner.Job{job})
			}
			os.Stderr.WriteString(fmt.Sprint(err))
		case "task":
			_, err := p.RunTasks(context.Background(), []worker.Task{{Name: "hang"}})
			os.Stderr.WriteString(fmt.Sprint(err))
		}
		os.Exit(1) // the test kills this process before
	}
	if os.Getenv(workerEnv) == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, resolve, testHandlers...); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testCodecs are the codecs the tests run: two of the standard library's
// and seed 004's (which the counted test compares), from their packages
// rather than the registry (which links every codec: the race detector's
// build of these tests stays small), and the planted ones.
var testCodecs = slices.Concat([]codec.Info{json.Std, gob.OneShot, gob.Stream, seed004.Gob, seed004.ByteOrder}, planted.Codecs, planted.Workers)

// resolve knows testCodecs.
func resolve(s worker.Spec) (runner.Job, error) {
	for _, c := range testCodecs {
		if c.Name == s.Codec {
			return jobof.Named(c, s.Dataset, s.Shape, s.Ops)
		}
	}
	return runner.Job{}, fmt.Errorf("unknown codec %q: the tests know %d", s.Codec, len(testCodecs))
}

// childCommand starts this test binary as a worker.
func childCommand() *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	return cmd
}

// testPool returns a pool whose workers are this test binary.
func testPool(t *testing.T, timeout time.Duration) *worker.Pool {
	return &worker.Pool{
		Options: runner.Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond},
		Timeout: timeout,
		// A planted stack overflow is as fatal at 64 MB as at 256 MB,
		// and much quicker.
		Limits:  worker.Limits{Stack: 64 << 20},
		Command: childCommand,
	}
}

func jobs(t *testing.T, specs ...[3]string) []runner.Job {
	var js []runner.Job
	for _, s := range specs {
		job, err := resolve(worker.Spec{Codec: s[0], Dataset: s[1], Shape: s[2], Ops: results.Ops})
		if err != nil {
			t.Fatal(err)
		}
		js = append(js, job)
	}
	return js
}

// TestCrashesCostOneCell: codecs that overflow the stack, run out of
// memory, write a map concurrently or hang each cost the benchmark they
// were in; every other benchmark of their groups is measured, in a new
// worker.
func TestCrashesCostOneCell(t *testing.T) {
	// The hang spins: it is killed once it has used 3s of CPU time
	// without a beat, however long the machine takes to give it that.
	p := testPool(t, 3*time.Second)
	var waited []string
	p.WaitEvery = time.Second
	p.Waiting = func(cell string, quiet, timeout time.Duration) { waited = append(waited, cell) }
	var finished []string
	p.Finished = func(job *runner.Job, res results.Result) {
		finished = append(finished, job.Codec.Name+" "+job.Dataset+" "+string(res.Op))
	}
	js := jobs(t,
		[3]string{"json", "tiny", "single"}, [3]string{"planted-stack", "tiny", "single"}, [3]string{"gob", "tiny", "single"},
		[3]string{"planted-oom", "medium", "single"}, [3]string{"json", "medium", "single"},
		[3]string{"planted-mapwrite", "user", "single"}, [3]string{"json", "user", "single"},
		[3]string{"planted-hang", "big", "single"}, [3]string{"json", "big", "single"},
	)
	res, err := p.Run(context.Background(), js)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2*len(js) || len(finished) != len(res) {
		t.Fatalf("%d results, %d reported finished; want %d each", len(res), len(finished), 2*len(js))
	}
	crashed := map[string]string{
		"planted-stack":    "crashed the worker process (stack overflow)",
		"planted-oom":      "crashed the worker process (out of memory)",
		"planted-mapwrite": "concurrent map writes",
		"planted-hang":     "hung while",
	}
	for _, r := range res {
		want, bad := crashed[r.Codec]
		switch {
		case !bad && r.Status != results.OK:
			t.Errorf("%s %s/%s %s: %s (%s), want ok", r.Codec, r.Dataset, r.Shape, r.Op, r.Status, r.Reason)
		case bad && r.Op == results.Decode && (r.Status != results.Error || !strings.Contains(r.Reason, want)):
			t.Errorf("%s decode: %s %q, want an error with %q", r.Codec, r.Status, r.Reason, want)
		}
	}
	// Each crash and the hang cost a worker; the rest of each group went on
	// in a new one.
	if n := p.Starts(); n < 1+len(crashed) {
		t.Errorf("%d workers started, want at least %d", n, 1+len(crashed))
	}
	// While the hang lasts, the pool says where it waits.
	if !slices.ContainsFunc(waited, func(c string) bool { return strings.HasPrefix(c, "planted-hang big/single") }) {
		t.Errorf("no heartbeat named the hung cell; got %q", waited)
	}
	if m := p.Machine(); m.Probes == 0 {
		t.Errorf("no machine probes came back from the workers: %+v", m)
	}
}

// TestLongSamplingIsNotAHang: a group whose sampling lasts longer than
// the timeout beats at every visit, so no honest benchmark is killed.
func TestLongSamplingIsNotAHang(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (the race step): 14s of sampling by design, and no goroutine beyond TestCrashesCostOneCell's")
	}
	// Four benchmarks of 3.5s each sample for 14s, more than twice the 6s
	// timeout; the checks after timing, which beat less often, have the
	// 6s to themselves (3s was too short for them under -race on a
	// loaded machine).
	p := testPool(t, 6*time.Second)
	p.Options.Budget = 3500 * time.Millisecond
	p.Options.Target = 0.001 // never met: each benchmark spends its budget
	res, err := p.Run(context.Background(), jobs(t, [3]string{"json", "tiny", "single"}, [3]string{"gob", "tiny", "single"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Status != results.OK {
			t.Errorf("%s %s: %s (%s), want ok", r.Codec, r.Op, r.Status, r.Reason)
		}
	}
	if n := p.Starts(); n != 2 {
		t.Errorf("%d workers started, want 2 (one per codec): a worker was killed", n)
	}
}

// TestInterruptKillsTheWorker: a run cancelled while a worker hangs
// returns with the jobs finished before, and kills the worker.
func TestInterruptKillsTheWorker(t *testing.T) {
	p := testPool(t, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	p.WaitEvery = 100 * time.Millisecond
	// Cancelled while the hang is waited on, never while json, slow on a
	// loaded machine, is still at work.
	p.Waiting = func(cell string, _, _ time.Duration) {
		if strings.HasPrefix(cell, "planted-hang") {
			cancel()
		}
	}
	js := jobs(t, [3]string{"json", "tiny", "single"}, [3]string{"planted-hang", "big", "single"})
	res, err := p.Run(ctx, js)
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(res) != 2 || res[0].Codec != "json" || res[0].Status != results.OK {
		t.Fatalf("want json tiny's two results, got %+v", res)
	}
	if n := p.Starts(); n != 2 {
		t.Errorf("%d workers started, want 2: json's and the one killed", n)
	}
}
