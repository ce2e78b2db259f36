package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// fake returns a codec Info built on encoding/json whose decode is bent by
// alter, which may change the decoded value.
func fake(name string, alter func(v any) error) codec.Info {
	return codec.Info{
		Name: name, Family: "test", API: codec.Reflection,
		New: func() codec.Codec {
			return codec.Reflect(json.Marshal, func(data []byte, v any) error {
				if err := json.Unmarshal(data, v); err != nil {
					return err
				}
				return alter(v)
			})
		},
	}
}

// dropLast drops the last element of a decoded slice: the silent loss of
// the seed article whose XML decode kept one element of fifty.
func dropLast(v any) error {
	rv := reflect.ValueOf(v).Elem()
	if rv.Kind() == reflect.Slice && rv.Len() > 0 {
		rv.SetLen(rv.Len() - 1)
	}
	return nil
}

// clearField zeroes the first field of a decoded struct.
func clearField(v any) error {
	rv := reflect.ValueOf(v).Elem()
	if rv.Kind() == reflect.Struct {
		rv.Field(0).SetZero()
	}
	return nil
}

func TestRunnerReportsBadCodecs(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	var stop atomic.Bool
	t.Cleanup(func() { stop.Store(true) })
	spin := func(any) error {
		for !stop.Load() {
		}
		return nil
	}
	tests := []struct {
		name   string
		info   codec.Info
		shape  dataset.Shape
		status results.Status
		reason string
	}{
		{"honest", fake("honest", func(any) error { return nil }), dataset.Slice, results.OK, ""},
		{"drops a slice element", fake("lossy-slice", dropLast), dataset.Slice, results.Failed, "decoded value differs"},
		{"drops a field", fake("lossy-field", clearField), dataset.Single, results.Failed, "ID:"},
		{"decode error", fake("erring", func(any) error { return errors.New("boom") }), dataset.Single, results.Failed, "boom"},
		{"panics", fake("panicky", func(any) error { panic("kaboom") }), dataset.Single, results.Error, "panic: kaboom"},
		{"hangs", fake("hanging", func(any) error { <-hang; return nil }), dataset.Single, results.Error, "hung"},
		{"spins", fake("spinning", spin), dataset.Single, results.Error, "hung"},
		{"unsupported", codec.Info{Name: "nomaps", Family: "test", API: codec.Reflection, Unsupported: codec.Time,
			New: func() codec.Codec { return codec.Reflect(json.Marshal, json.Unmarshal) }}, dataset.Single, results.Skipped, "cannot represent time.Time"},
	}
	opts := runner.Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond}
	r, err := runner.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	// Only the hanging codecs meet a timeout short enough for a test:
	// the others' jobs may take as much CPU time as they need.
	opts.Timeout = time.Second
	short, err := runner.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := dataset.Lookup("medium")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			job := runner.Job{
				Codec: tt.info, Dataset: d.Name, Shape: string(tt.shape), Ops: results.Ops,
				Value: func() (any, error) { return d.Value(tt.shape) },
			}
			r := r
			if tt.reason == "hung" {
				r = short
			}
			res := r.RunJob(context.Background(), &job)
			if len(res) != 2 {
				t.Fatalf("got %d results, want one per op", len(res))
			}
			for _, got := range res {
				if got.Status != tt.status || !strings.Contains(got.Reason, tt.reason) {
					t.Errorf("%s: status %s, reason %q; want %s with %q", got.Op, got.Status, got.Reason, tt.status, tt.reason)
				}
				if tt.status == results.OK && (len(got.Samples) == 0 || got.NsPerOp.Median <= 0 || got.Bytes == 0) {
					t.Errorf("%s: measured nothing: %+v", got.Op, got)
				}
			}
		})
	}
}

// TestRunGoesOn checks that a failing codec does not stop the run and
// that results measured before an interruption are returned.
func TestRunGoesOn(t *testing.T) {
	r, err := runner.New(runner.Options{Budget: 10 * time.Millisecond, SampleTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(info codec.Info, ds string) runner.Job {
		d, _ := dataset.Lookup(ds)
		return runner.Job{Codec: info, Dataset: ds, Shape: "single", Ops: results.Ops,
			Value: func() (any, error) { return d.Value(dataset.Single) }}
	}
	ctx, cancel := context.WithCancel(context.Background())
	// The first two jobs share a group (tiny/single); the third is
	// interrupted in its own.
	jobs := []runner.Job{
		mk(fake("panicky", func(any) error { panic("x") }), "tiny"),
		mk(fake("honest", func(any) error { return nil }), "tiny"),
		mk(fake("last", func(any) error { return nil }), "medium"),
	}
	r.Progress = func(e runner.Event) {
		if e.Done == 2 {
			cancel()
		}
	}
	res, err := r.Run(ctx, jobs)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want context.Canceled", err)
	}
	if len(res) != 4 || res[0].Status != results.Error || res[2].Status != results.OK {
		t.Fatalf("want the panicking job's errors then the honest job's results, got %+v", res)
	}
}

// TestInterruptKeepsFinishedJobs: a job finished before an interruption
// keeps its results even when the rest of its group is lost.
func TestInterruptKeepsFinishedJobs(t *testing.T) {
	r, err := runner.New(runner.Options{Budget: 10 * time.Millisecond, SampleTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := dataset.Lookup("tiny")
	mk := func(info codec.Info) runner.Job {
		return runner.Job{Codec: info, Dataset: "tiny", Shape: "single", Ops: results.Ops,
			Value: func() (any, error) { return d.Value(dataset.Single) }}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Progress = func(runner.Event) { cancel() }
	res, err := r.Run(ctx, []runner.Job{mk(fake("panicky", func(any) error { panic("x") })), mk(fake("honest", func(any) error { return nil }))})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want context.Canceled", err)
	}
	if len(res) != 2 || res[0].Codec != "panicky" || res[1].Codec != "panicky" {
		t.Fatalf("want the finished job's two results, got %+v", res)
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		opts runner.Options
		want string
	}{
		{runner.Options{}, ""},
		{runner.Options{Target: 2}, "target 2 out of range [0.001, 1]"},
		{runner.Options{Budget: time.Nanosecond}, "budget 1ns out of range"},
		{runner.Options{MinSamples: 10, MaxSamples: 5}, "max samples 5 out of range [10, 10000]"},
	}
	for _, tt := range tests {
		err := tt.opts.Validate()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%+v) = %v, want %q", tt.opts, err, tt.want)
		}
	}
}

// TestHangWhileSampling: a codec that hangs only after it verified and
// calibrated is caught by the sampling watchdog; the other benchmarks of
// its group still finish.
//
// The codec's decode hangs once the group's next job has begun to build
// its value: the runner prepares (verifies and calibrates) a group's jobs
// one after the other and samples them after, so that is after the codec
// was verified and calibrated, and before its first decode sample,
// whatever the machine's speed. (A hang after a count of decodes came
// after the decode's budget on a slow machine, or not at all.)
func TestHangWhileSampling(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	var prepared atomic.Bool // the late-hang job is verified and calibrated
	// It hangs on the first job's type only, once the second is prepared.
	late := fake("late-hang", func(v any) error {
		if _, tiny := v.(*dataset.Tiny); tiny && prepared.Load() {
			<-hang
		}
		return nil
	})
	// The watchdog's Timeout is the one figure of time here: the blocked
	// decode is judged hung after it whatever the machine's speed, and an
	// honest sample is judged by the CPU time it spends, which a loaded
	// machine does not make longer.
	r, err := runner.New(runner.Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := dataset.Lookup("tiny")
	mk := func(info codec.Info) runner.Job {
		return runner.Job{Codec: info, Dataset: "tiny", Shape: "single", Ops: results.Ops,
			Value: func() (any, error) { return d.Value(dataset.Single) }}
	}
	// The codec's second job, prepared after its first, sets the trap;
	// its benchmarks are sampled interleaved with the first's.
	u, _ := dataset.Lookup("user")
	next := mk(late)
	next.Dataset = "user"
	next.Value = func() (any, error) {
		prepared.Store(true)
		return u.Value(dataset.Single)
	}
	res, err := r.Run(context.Background(), []runner.Job{mk(late), next, mk(fake("honest", func(any) error { return nil }))})
	if err != nil {
		t.Fatal(err)
	}
	// The hang comes in the late decodes: those timed, or those of the
	// checks after timing (encode's check decodes its last encoding).
	hung := 0
	for _, r := range res {
		switch {
		case r.Codec == "honest" && r.Status != results.OK:
			t.Errorf("%s %s: %s (%s), want ok", r.Codec, r.Op, r.Status, r.Reason)
		case r.Codec == "late-hang" && r.Status == results.Error:
			if !strings.Contains(r.Reason, "a sample hung") && !strings.Contains(r.Reason, "hung and the abandoned goroutine holds") {
				t.Errorf("hung %s reason = %q", r.Op, r.Reason)
			}
			hung++
		}
	}
	if hung == 0 {
		t.Errorf("no late-hang result says it hung: %+v", res)
	}
}
