package progress_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/progress"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

func event(done int, st results.Status) runner.Event {
	job := &runner.Job{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single"}
	res := []results.Result{
		{Op: results.Encode, Codec: "json", Dataset: "tiny", Shape: "single", Status: st, NsPerOp: results.Stat{Median: 336}, Reason: "lost data\nmore"},
		{Op: results.Decode, Codec: "json", Dataset: "tiny", Shape: "single", Status: st, NsPerOp: results.Stat{Median: 1480}},
	}
	return runner.Event{Done: done, Total: 4, Job: job, Results: res, Elapsed: 2400 * time.Millisecond}
}

func TestLines(t *testing.T) {
	var buf bytes.Buffer
	p := progress.New(&buf, 4) // a buffer is no terminal: plain lines
	p.Event(event(1, results.OK))
	p.Event(event(2, results.Failed))
	p.Finish()
	want := "[1/4 2s] json tiny/single: encode 336ns, decode 1.48µs\n" +
		"[2/4 2s] json tiny/single: encode failed, decode failed\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestBar(t *testing.T) {
	var buf bytes.Buffer
	p := progress.NewBar(&buf, 4)
	p.Event(event(1, results.OK))
	p.Event(event(2, results.Error))
	p.Finish()
	out := buf.String()
	for _, want := range []string{"json tiny/single", "2/4", "ERROR Encode/codec=json/dataset=tiny/shape=single: lost data ...\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output lacks %q:\n%q", want, out)
		}
	}
}

func TestNil(t *testing.T) {
	var p *progress.Reporter
	p.Event(event(1, results.OK)) // no panic
	p.Finish()
	if progress.IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is reported as a terminal")
	}
}
