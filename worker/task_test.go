package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/worker"
)

// testHandlers are the tasks the test binary's worker runs.
var testHandlers = []worker.Handler{
	{Name: "echo", Run: func(_ context.Context, in json.RawMessage, step func(string)) (json.RawMessage, error) {
		step("echo")
		return in, nil
	}},
	{Name: "fail", Run: func(context.Context, json.RawMessage, func(string)) (json.RawMessage, error) {
		return nil, errors.New("the task failed")
	}},
	{Name: "panic", Run: func(_ context.Context, _ json.RawMessage, step func(string)) (json.RawMessage, error) {
		step("about to panic")
		done := make(chan struct{})
		go func() { panic("nobody recovers this") }()
		<-done
		return nil, nil
	}},
	{Name: "overflow", Run: func(_ context.Context, _ json.RawMessage, step func(string)) (json.RawMessage, error) {
		step("recursing")
		return nil, errors.New(string(rune(recurse(0))))
	}},
	{Name: "oom", Run: func(_ context.Context, _ json.RawMessage, step func(string)) (json.RawMessage, error) {
		step("allocating")
		b := make([]byte, 64<<30) // beyond the default 4 GiB cap
		return json.Marshal(len(b))
	}},
	{Name: "hang", Run: func(_ context.Context, _ json.RawMessage, step func(string)) (json.RawMessage, error) {
		step("hanging")
		select {}
	}},
	{Name: "grow", Run: func(_ context.Context, _ json.RawMessage, step func(string)) (json.RawMessage, error) {
		step("growing")
		var keep [][]byte
		for {
			b := make([]byte, 16<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
	}},
	{Name: "deep", Run: func(_ context.Context, _ json.RawMessage, step func(string)) (json.RawMessage, error) {
		step("recursing 1,000,000 levels")
		return json.Marshal(depth(1_000_000))
	}},
}

// depth recurses n levels, each frame over 100 bytes: past the 64 MiB
// stack cap at a million levels, far within Go's own 1 GB.
//
//go:noinline
func depth(n int) int {
	var pad [96]byte
	pad[n%96] = byte(n)
	if n == 0 {
		return int(pad[0])
	}
	return depth(n-1) + int(pad[n%96]&0)
}

//go:noinline
func recurse(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	return recurse(n+1) + int(pad[0])
}

// TestRunTasks: a task that returns, fails, panics, overflows its stack,
// runs out of memory or hangs each ends as it should, and the pool goes
// on after each. The timeout is long, for a loaded machine, but for the
// hang, which no machine ends.
func TestRunTasks(t *testing.T) {
	p := testPool(t, time.Minute)
	p.TaskTimeout = time.Minute
	p.Parallel = 2
	tasks := []worker.Task{
		{Name: "echo", Input: json.RawMessage(`{"a":1}`)},
		{Name: "fail"},
		{Name: "panic"},
		{Name: "overflow"},
		{Name: "oom"},
		{Name: "nosuch"},
		// The task's own timeout, not the pool's, ends it.
		{Name: "hang", Timeout: 300 * time.Millisecond},
	}
	var done int
	count := func(int, worker.TaskResult) { done++ }
	res, err := p.RunTasksEach(context.Background(), tasks[:6], count)
	if err != nil {
		t.Fatal(err)
	}
	more, err := p.RunTasksEach(context.Background(), tasks[6:], count)
	if err != nil {
		t.Fatal(err)
	}
	res = append(res, more...)
	if len(res) != len(tasks) || done != len(tasks) {
		t.Fatalf("%d results, %d done; want %d", len(res), done, len(tasks))
	}
	if r := res[0]; r.Exit != nil || string(r.Output) != `{"a":1}` || r.Step != "echo" {
		t.Errorf("echo: %+v", r)
	}
	if r := res[1]; r.Exit != nil || r.Err != "the task failed" {
		t.Errorf("fail: %+v", r)
	}
	if r := res[5]; r.Exit != nil || !strings.Contains(r.Err, `no task handler "nosuch"`) {
		t.Errorf("nosuch: %+v", r)
	}
	for i, want := range map[int]string{2: worker.ExitPanic, 3: worker.ExitStackOverflow, 4: worker.ExitOutOfMemory, 6: worker.ExitTimeout} {
		r := res[i]
		if r.Exit == nil || r.Exit.Kind != want {
			t.Errorf("%s: exit %+v, want %s", tasks[i].Name, r.Exit, want)
			continue
		}
		if r.Step == "" {
			t.Errorf("%s: no last step recorded", tasks[i].Name)
		}
	}
	if r := res[4]; r.PeakRSS == 0 {
		t.Errorf("oom: no peak RSS recorded")
	}
}

// TestUncapped: a task whose Limits are Uncapped runs as a default Go
// process (Go's own stack maximum: the recursion that overflows the
// default 64 MiB cap returns), and the parent kills it when its resident
// set passes the guard.
func TestUncapped(t *testing.T) {
	p := testPool(t, time.Minute)
	p.TaskTimeout = time.Minute
	p.Parallel = 2
	res, err := p.RunTasks(context.Background(), []worker.Task{
		{Name: "deep"},
		{Name: "deep", Limits: worker.Limits{Uncapped: true}},
		{Name: "grow", Limits: worker.Limits{Uncapped: true, Guard: 256 << 20}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Exit == nil || r.Exit.Kind != worker.ExitStackOverflow {
		t.Errorf("deep under the caps: %+v, want a stack overflow", r)
	}
	if r := res[1]; r.Exit != nil || r.Output == nil {
		t.Errorf("deep uncapped: %+v, want it to return", r.Exit)
	}
	if r := res[2]; r.Exit == nil || r.Exit.Kind != worker.ExitGuard || !strings.Contains(r.Exit.Detail, "256 MiB guard") {
		t.Errorf("grow uncapped: %+v, want killed by the 256 MiB guard", r.Exit)
	}
	if r := res[2]; r.CPU <= 0 {
		t.Errorf("grow: no CPU time recorded")
	}
}

// TestRunRounds: rounds run until one gives no task, each task's result
// reaches that round's done, and a round's tasks may depend on what the
// rounds before it saw.
func TestRunRounds(t *testing.T) {
	p := testPool(t, time.Minute)
	p.TaskTimeout = time.Minute
	p.Parallel = 2
	left := 3 // echo tasks still to run; each round runs up to two
	rounds, seen := 0, 0
	err := p.RunRounds(context.Background(), func() ([]worker.Task, func(int, worker.TaskResult)) {
		rounds++
		var tasks []worker.Task
		for range min(left, 2) {
			tasks = append(tasks, worker.Task{Name: "echo", Input: json.RawMessage(`{"a":1}`)})
		}
		return tasks, func(_ int, r worker.TaskResult) {
			seen++
			if r.Exit == nil && r.Output != nil {
				left--
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rounds != 3 || seen != 3 || left != 0 {
		t.Errorf("%d rounds, %d results, %d tasks left; want 3 rounds (2, 1, none), 3 results, 0 left", rounds, seen, left)
	}
}
