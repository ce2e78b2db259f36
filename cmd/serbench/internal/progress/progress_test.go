package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
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
	p := New(&buf, 4) // a buffer is no terminal: plain lines
	p.Event(event(1, results.OK))
	p.Event(event(2, results.Failed))
	skipped := event(3, results.Skipped)
	for i := range skipped.Results {
		skipped.Results[i].Reason = "codec json: unsupported type *dataset.Tiny: cannot represent variable-size data"
	}
	p.Event(skipped)
	xl := event(4, results.Skipped)
	for i := range xl.Results {
		xl.Results[i].Reason = "extra-large case (10 values of dataset.ComplexMap, hundreds of MB encoded): run with -xl to include it"
	}
	xl.Results[0].Status = results.OK
	p.Event(xl)
	p.Finish()
	want := "[1/4 2s] json tiny/single: encode 336ns, decode 1.48µs\n" +
		"[2/4 2s] json tiny/single: encode failed: lost data; decode failed\n" +
		"[3/4 2s] json tiny/single: encode, decode skipped: cannot represent variable-size data\n" +
		"[4/4 2s] json tiny/single: encode 336ns; decode skipped: extra-large case: run with -xl to include it\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestBrief(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"codec xml: unsupported type *dataset.ComplexMap: cannot represent maps", "cannot represent maps"},
		{"codec: unsupported type int64: a top-level scalar", "a top-level scalar"},
		{"needs 12288 MiB of available memory, the OS reports 3000 MiB; skipped rather than risk running out", "needs 12288 MiB of available memory, the OS reports 3000 MiB"},
		{"round trip 2 of 2 lost data:\n  field X: 1 != 2", "round trip 2 of 2 lost data:"},
		{strings.Repeat("word ", 30), strings.Repeat("word ", 14) + "w…"},
	} {
		if got := brief(tc.in); got != tc.want {
			t.Errorf("Brief(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBar(t *testing.T) {
	var buf bytes.Buffer
	p := newBar(&buf, 4)
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
	var p *Reporter
	p.Event(event(1, results.OK)) // no panic
	p.Finish()
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is reported as a terminal")
	}
}

// TestTick checks the lines that break a silence, on an injected clock: none
// within Quiet of the last line, one after, with the pace so far once a
// job has ended, none after Finish.
func TestTick(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, 4)
	p.Tick(5 * time.Second)
	p.Tick(12 * time.Second)
	p.Tick(15 * time.Second)
	p.Event(event(1, results.OK)) // at 2.4s
	p.Tick(20 * time.Second)
	p.Finish()
	p.Tick(time.Minute)
	want := "[0/4 12s] at work on the first job: preparing and checking its values, then sampling\n" +
		"[1/4 2s] json tiny/single: encode 336ns, decode 1.48µs\n" +
		"[1/4 20s] at work: 1 of 4 jobs done, the last json tiny/single; about 1m0s left at the pace so far\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCountedLine: a benchmark counted and not timed shows its
// instructions per op, not a time of zero.
func TestCountedLine(t *testing.T) {
	e := event(1, results.OK)
	e.Results[0].InstrPerOp, e.Results[1].InstrPerOp = 2166, 8242
	if got, want := line(e), "[1/4 2s] json tiny/single: encode 2.17k instr, decode 8.24k instr"; got != want {
		t.Errorf("line = %q; want %q", got, want)
	}
}
