package progress

import (
	"bytes"
	"slices"
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

// TestTickWeighed checks the time left told by the jobs' weights (Weigh):
// before the first job ends, what the estimate leaves; after, the jobs
// still to do at the pace of those done against their weight, so that a
// small job done first does not promise the huge ones as fast.
func TestTickWeighed(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, 2)
	jobs := []runner.Job{{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single"}, {Codec: codec.Info{Name: "json"}, Dataset: "huge", Shape: "single"}}
	p.Weigh(jobs, []time.Duration{time.Second, 99 * time.Second}, 100*time.Second, false)
	p.Tick(12 * time.Second)
	e := event(1, results.OK) // json tiny/single, at 2.4s
	e.Total = 2
	p.Event(e)
	p.Tick(20 * time.Second)
	p.Finish()
	want := "[0/2 12s] at work on the first job: preparing and checking its values, then sampling; about 1m28s left by the estimate\n" +
		"[1/2 2s] json tiny/single: encode 336ns, decode 1.48µs\n" +
		"[1/2 20s] at work: 1 of 2 jobs done, the last json tiny/single; about 33m0s left at the pace so far\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPacer checks a Pacer on an injected clock: silent within Quiet, a
// line without a promise before the first unit ends, the estimate from
// the pace of the first units once they calibrate it, lines at the pace
// so far, and how far off the estimate was at the end.
func TestPacer(t *testing.T) {
	var buf bytes.Buffer
	at := time.Unix(0, 0)
	clock := func() time.Time { return at }
	p := NewPacer(&buf, "cells", 20, 0, clock)
	step := func(d time.Duration) { at = at.Add(d); p.Tick() }
	step(5 * time.Second)
	step(6 * time.Second)     // 11s: nothing done yet
	p.Done("json long-map")   // 1 of 20: not yet the pace
	p.Done("json deep-array") // a tenth, by 11s
	step(10 * time.Second)    // 21s
	at = at.Add(9 * time.Second)
	p.Finish()
	p.Tick()
	want := "[0/20 11s] at work on the first of 20 cells\n" +
		"serbench: 20 cells; about 1m50s in all, at the pace of the first 2 (11s), calibrated on this machine as it started\n" +
		"[2/20 21s] at work: 2 of 20 cells done, the last json deep-array; about 3m9s left at the pace so far\n" +
		"serbench: estimated 1m50s; took 30s (73% under it)\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCalibrated checks when the first units tell the pace of all.
func TestCalibrated(t *testing.T) {
	for _, tt := range []struct {
		done, total int
		at          time.Duration
		want        bool
	}{
		{0, 10, time.Minute, false}, {1, 10, time.Second, true}, {1, 100, time.Second, false}, {1, 100, Quiet, false},
		{9, 100, Quiet, false}, {10, 100, Quiet, true}, {10, 100, 0, true},
		// A large study: seventeen cells after ten seconds told a hostile
		// run of 1,431 cells a quarter of its time.
		{17, 1431, Quiet, false}, {29, 1431, 6 * Quiet, false}, {30, 1431, 6 * Quiet, true},
		{1, 1000, 6 * Quiet, false}, {1, 1000, 30 * Quiet, true},
	} {
		if got := Calibrated(tt.done, tt.total, tt.at); got != tt.want {
			t.Errorf("Calibrated(%d, %d, %v) = %v, want %v", tt.done, tt.total, tt.at, got, tt.want)
		}
	}
}

// TestTickCapped checks that a run bounded by -time never tells more time
// left than its bound leaves, whatever its pace.
func TestTickCapped(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, 2)
	jobs := []runner.Job{{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single"}, {Codec: codec.Info{Name: "json"}, Dataset: "huge", Shape: "single"}}
	p.Weigh(jobs, []time.Duration{time.Second, 99 * time.Second}, time.Minute, true)
	e := event(1, results.OK)
	e.Total = 2
	p.Event(e)
	p.Tick(20 * time.Second)
	p.Finish()
	if want := "about 40s left at the pace so far"; !strings.Contains(buf.String(), want) {
		t.Errorf("got\n%s\nwant %q in it", buf.String(), want)
	}
}

// TestPacerBegin checks that the time before the units begin (a study's
// generation of its inputs) and the units it finished are left out of
// the pace, and counted once in the estimate.
func TestPacerBegin(t *testing.T) {
	var buf bytes.Buffer
	at := time.Unix(0, 0)
	p := NewPacer(&buf, "cells", 11, 0, func() time.Time { return at })
	p.Done("gob long-map") // finished while preparing
	at = at.Add(5 * time.Minute)
	p.Begin()
	at = at.Add(10 * time.Second)
	p.Done("json long-map") // 1 of 10 in 10s
	p.Finish()
	want := "serbench: 10 cells; about 6m40s in all, at the pace of the first 1 (10s after 5m0s preparing them), calibrated on this machine as it started\n" +
		"serbench: estimated 6m40s; took 5m10s (22% under it)\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPacerPreparing checks that units finished while the command still
// prepares (a cost study's builds end hundreds of cells at once, minutes
// in) say no pace: the estimate comes from the units after Begin.
func TestPacerPreparing(t *testing.T) {
	var buf bytes.Buffer
	at := time.Unix(0, 0)
	p := NewPacer(&buf, "cells", 483, 0, func() time.Time { return at })
	p.SetDoing("preparing the cells")
	at = at.Add(13 * time.Minute)
	for range 345 {
		p.Done("binary")
	}
	p.SetDoing("")
	p.Begin()
	for range 14 {
		at = at.Add(time.Second)
		p.Done("upkeep")
	}
	p.Finish()
	want := "serbench: 138 cells; about 15m18s in all, at the pace of the first 14 (14s after 13m0s preparing them), calibrated on this machine as it started\n" +
		"serbench: estimated 15m18s; took 13m14s (14% under it)\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPacerDoing checks the lines before the first unit while the command
// does something else first (an interleaved comparison's builds).
func TestPacerDoing(t *testing.T) {
	var buf bytes.Buffer
	at := time.Unix(0, 0)
	p := NewPacer(&buf, "runs", 4, 0, func() time.Time { return at })
	p.SetDoing("building HEAD~1")
	at = at.Add(11 * time.Second)
	p.Tick()
	p.SetDoing("")
	at = at.Add(11 * time.Second)
	p.Tick()
	p.Finish()
	want := "[0/4 11s] at work: building HEAD~1, before the first of 4 runs\n" +
		"[0/4 22s] at work on the first of 4 runs\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTickCounting checks the time left in a run that times and then
// counts (run -measure both): while timing, the count pass's estimate is
// added to the timed jobs' pace; once the count pass begins, its lines
// say so, with its estimate until a job is counted, then its own pace.
func TestTickCounting(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, 2)
	p.SetCountEstimate(time.Minute, 2)
	e := event(1, results.OK) // at 2.4s
	e.Total = 2
	p.Event(e)
	p.Tick(20 * time.Second)
	e = event(2, results.OK)
	e.Total = 2
	p.Event(e)
	p.Event(runner.Event{Counting: true, Total: 2})
	p.Tick(15 * time.Second)
	c := event(1, results.OK)
	c.Total, c.Counting, c.Elapsed = 2, true, 30*time.Second
	c.Results[0].InstrPerOp, c.Results[1].InstrPerOp = 2166, 8242
	c.Results[0].NsPerOp, c.Results[1].NsPerOp = results.Stat{}, results.Stat{}
	p.Event(c)
	p.Tick(45 * time.Second)
	p.Finish()
	want := "[1/2 2s] json tiny/single: encode 336ns, decode 1.48µs\n" +
		"[1/2 20s] at work: 1 of 2 jobs done, the last json tiny/single; about 1m20s left at the pace so far\n" +
		"[2/2 2s] json tiny/single: encode 336ns, decode 1.48µs\n" +
		"[counting 0/2 0s] timing done: counting instructions under Valgrind, 2 jobs; about 1m0s by the estimate\n" +
		"[counting 0/2 15s] at work: 0 of 2 jobs counted under Valgrind; about 45s left by the estimate\n" +
		"[counting 1/2 30s] json tiny/single: encode 2.17k instr, decode 8.24k instr\n" +
		"[counting 1/2 45s] at work: 1 of 2 jobs counted under Valgrind, the last json tiny/single; about 45s left at the pace so far\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTickCountingCapped: -time bounds a run's timed passes, not its
// count pass, whose time left is told past the bound.
func TestTickCountingCapped(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, 1)
	jobs := []runner.Job{{Codec: codec.Info{Name: "json"}, Dataset: "tiny", Shape: "single"}}
	p.Weigh(jobs, []time.Duration{time.Second}, 10*time.Second, true)
	p.SetCountEstimate(time.Minute, 1)
	p.Event(runner.Event{Counting: true, Total: 1})
	p.Tick(20 * time.Second)
	p.Finish()
	if want := "[counting 0/1 20s] at work: 0 of 1 jobs counted under Valgrind; about 40s left by the estimate\n"; !strings.HasSuffix(buf.String(), want) {
		t.Errorf("got\n%s\nwant it to end with\n%s", buf.String(), want)
	}
}

// TestTickFresh: the check in fresh processes after the timed passes has
// lines of its own, and its time left is at its own pace, not the
// finished timed passes' "about 0s".
func TestTickFresh(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf, 1)
	e := event(1, results.OK)
	e.Total = 1
	p.Event(e)
	p.BeginFresh(10)
	p.Tick(12 * time.Second)
	p.FreshDone(4, "json", 20*time.Second)
	p.Tick(35 * time.Second)
	p.Finish()
	want := "[1/1 2s] json tiny/single: encode 336ns, decode 1.48µs\n" +
		"[fresh 0/10 0s] measured: decoding the encodings of 10 jobs in processes that never saw their values, a process per codec\n" +
		"[fresh 0/10 12s] at work: 0 of 10 jobs' encodings decoded in fresh processes\n" +
		"[fresh 4/10 20s] json: its jobs' encodings decoded in a fresh process\n" +
		"[fresh 4/10 35s] at work: 4 of 10 jobs' encodings decoded in fresh processes, the last json's; about 53s left at the pace so far\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestCountPassEstimate: a count pass of fewer jobs than its estimate
// was made for (-time cut the others short) is told their share of it;
// an estimate made again as the count pass begins (run -measure both,
// from the timed pass's figures) is the one its lines tell, its first
// line saying from what, and what it replaces (the first estimate's
// share for the jobs counted).
func TestCountPassEstimate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		correct func(*Reporter)
		total   int
		tick    time.Duration
		want    string
	}{
		{"fewer jobs", func(*Reporter) {}, 1, 20 * time.Second,
			"[counting 0/1 0s] timing done: counting instructions under Valgrind, 1 jobs; about 1m0s by the estimate\n" +
				"[counting 0/1 20s] at work: 0 of 1 jobs counted under Valgrind; about 40s left by the estimate\n"},
		{"made again", func(p *Reporter) { p.CorrectCountEstimate(90*time.Second, 2, "from the timed pass's times") }, 2, 30 * time.Second,
			"[counting 0/2 0s] timing done: counting instructions under Valgrind, 2 jobs; about 1m30s by the estimate made again from the timed pass's times (first 2m0s)\n" +
				"[counting 0/2 30s] at work: 0 of 2 jobs counted under Valgrind; about 1m0s left by the estimate\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := New(&buf, 4)
			p.SetCountEstimate(4*time.Minute, 4)
			tc.correct(p)
			p.Event(runner.Event{Counting: true, Total: tc.total})
			p.Tick(tc.tick)
			p.Finish()
			if got := buf.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestPacerTasks checks the estimate of a Pacer told its units' tasks, on
// an injected clock: the work of every unit's first task at the mean of
// the first, and the units that ran again their share of it at the rerun
// multiple of their first task's; the time at the pace of the work done
// so far (two children at once do two seconds of work a second); said
// once the mean work per unit is known to within a quarter, or half the
// units are in; the lines after it by the work left, at the pace so far
// (ten seconds in which no task ended slow it).
func TestPacerTasks(t *testing.T) {
	type task struct {
		wall         time.Duration
		first, again bool
	}
	s := time.Second
	cheap, dear := task{100 * time.Millisecond, true, false}, task{8 * s, true, true}
	for _, tc := range []struct {
		name  string
		total int
		rerun float64
		after int
		tasks []task // ended one second apart, a unit done with each that does not run again
		want  string
	}{
		{"none again", 20, 0, 0, []task{{2 * s, true, false}, {2 * s, true, false}},
			"serbench: 20 units; about 20s in all (standard error 0%), at the pace of the first tasks of 2 (4s of work in 2s), calibrated on this machine as it started\n" +
				"[2/20 12s] at work: 2 of 20 units done, the last u; about 1m48s left at the pace so far\n"},
		// Work 100 × (20s + 10s)/10, 20s of it done in 10s.
		{"half again, once", 100, 0, 0, slices.Repeat([]task{{2 * s, true, true}, {2 * s, true, false}}, 5),
			"serbench: 100 units; about 2m30s in all (standard error 11%), at the pace of the first tasks of 10 (20s of work in 10s, 5 of which ran again: their further tasks at 1× their first's time), calibrated on this machine as it started\n" +
				"[5/100 20s] at work: 5 of 100 units done, the last u; about 4m40s left at the pace so far\n"},
		// Work 100 × (20s + 3×10s)/10.
		{"half again, thrice as dear", 100, 3, 0, slices.Repeat([]task{{2 * s, true, true}, {2 * s, true, false}}, 5),
			"serbench: 100 units; about 4m10s in all (standard error 20%), at the pace of the first tasks of 10 (20s of work in 10s, 5 of which ran again: their further tasks at 3× their first's time), calibrated on this machine as it started\n" +
				"[5/100 20s] at work: 5 of 100 units done, the last u; about 8m0s left at the pace so far\n"},
		// One dear unit among the first tenth is too much of its work:
		// the estimate waits for half the units, 20 × (8.9s + 2×8s)/10.
		{"a dear unit among cheap", 20, 2, 0, append([]task{cheap, dear}, slices.Repeat([]task{cheap}, 8)...),
			"serbench: 20 units; about 56s in all (standard error 96%), at the pace of the first tasks of 10 (9s of work in 10s, 1 of which ran again: their further tasks at 2× their first's time), calibrated on this machine as it started\n" +
				"[9/20 20s] at work: 9 of 20 units done, the last u; about 1m32s left at the pace so far\n"},
		// Work 20 × 2s, and 10 × 2s after them.
		{"an after step", 20, 0, 10, []task{{2 * s, true, false}, {2 * s, true, false}},
			"serbench: 20 units; about 30s in all (standard error 0%), at the pace of the first tasks of 2 (4s of work in 2s); and 10 cells of another after them, each at a first task's mean, calibrated on this machine as it started\n" +
				"[2/20 12s] at work: 2 of 20 units done, the last u; about 2m48s left at the pace so far\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			at := time.Unix(0, 0)
			p := NewPacer(&buf, "units", tc.total, 0, func() time.Time { return at })
			p.SetRerun(tc.rerun)
			p.SetAfter(tc.after, "cells of another")
			for _, k := range tc.tasks {
				at = at.Add(time.Second)
				p.Task(k.wall, k.first, k.again)
				if !k.again {
					p.Done("u")
				}
			}
			at = at.Add(10 * time.Second)
			p.Tick()
			if got := buf.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestCalibratedWork checks when the first tasks tell the pace of all.
func TestCalibratedWork(t *testing.T) {
	for _, tt := range []struct {
		n, total int
		at       time.Duration
		rse      float64
		want     bool
	}{
		{0, 10, time.Hour, 0, false}, {1, 10, time.Second, 0.1, true}, {9, 100, Quiet, 0, false},
		{10, 100, Quiet, 0.25, true}, {10, 100, Quiet, 0.26, false}, {49, 100, Quiet, 0.9, false},
		{50, 100, Quiet, 0.9, true}, {11, 1435, 30 * Quiet, 0.9, true},
	} {
		if got := CalibratedWork(tt.n, tt.total, tt.at, tt.rse); got != tt.want {
			t.Errorf("CalibratedWork(%d, %d, %v, %v) = %v, want %v", tt.n, tt.total, tt.at, tt.rse, got, tt.want)
		}
	}
}
