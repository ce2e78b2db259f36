package hostile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// TestAttribution: a child that dies in the codec's step blames the
// codec; one that dies in serbench's check of the value is CheckFailed,
// not the codec's, and names the input whose check is not to run again.
func TestAttribution(t *testing.T) {
	for _, tc := range []struct {
		step             string
		want             Outcome
		worst, unchecked int
	}{
		{"1", Crash, 1, -1},
		{"check 1", CheckFailed, -1, 1},
	} {
		r := worker.TaskResult{Step: tc.step, Exit: &worker.Exit{Kind: worker.ExitStackOverflow, Detail: "fatal error: stack overflow"}}
		c, worst, unchecked := cellOf(Cell{Codec: "json", Case: "deep-array"}, r, true, nil)
		if c.Outcome != tc.want || worst != tc.worst || unchecked != tc.unchecked {
			t.Errorf("died at step %q: %s, reproducer %d, unchecked %d; want %s, %d, %d", tc.step, c.Outcome, worst, unchecked, tc.want, tc.worst, tc.unchecked)
		}
		if tc.want == CheckFailed && (c.Repro != nil || !strings.Contains(c.Detail, "is not blamed")) {
			t.Errorf("a check failure keeps a reproducer or blames the codec: %+v", c)
		}
	}
	// The child that ran every input stands, the check's death said; its
	// words and kind when no input did worse.
	died := Cell{Outcome: CheckFailed, Note: worker.ExitStackOverflow, Detail: "serbench's check failed"}
	if m := withCheckDeaths(Cell{Outcome: Changed, Detail: "another value", Counts: map[Outcome]int{Changed: 1, CheckFailed: 1}}, died, 1); m.Outcome != Changed ||
		!strings.Contains(m.Detail, "serbench's check killed 1 child(ren) of the cell, not blamed: serbench's check failed") || m.Counts[CheckFailed] != 1 {
		t.Errorf("an input changed beside a check failure: %+v", m)
	}
	if m := withCheckDeaths(Cell{Outcome: CheckFailed, Detail: "not run again", Counts: map[Outcome]int{Clean: 2, CheckFailed: 1}}, died, 1); m.Outcome != CheckFailed ||
		m.Note != worker.ExitStackOverflow || m.Detail != died.Detail || m.Counts[Clean] != 2 {
		t.Errorf("clean inputs beside a check failure: %+v", m)
	}
}

// TestReplay: a reproducer is kept only when, replayed alone in a fresh
// child that calls the library only, it fails the library again.
func TestReplay(t *testing.T) {
	out := func(o Outcome, detail string) json.RawMessage {
		b, _ := json.Marshal(cellOut{Outcome: o, Detail: detail})
		return b
	}
	for _, tc := range []struct {
		name string
		r    worker.TaskResult
		kept bool
		says string
	}{
		{"crashes again", worker.TaskResult{Exit: &worker.Exit{Kind: worker.ExitStackOverflow}}, true, "crashed again (stack overflow)"},
		{"hangs again", worker.TaskResult{Exit: &worker.Exit{Kind: worker.ExitTimeout}}, true, "hung again"},
		{"blows up again", worker.TaskResult{Output: out(Memory, "allocated 2048 MiB")}, true, "failed again (memory"},
		{"panics again", worker.TaskResult{Output: out(Panic, "panic: index out of range")}, true, "failed again (panic"},
		{"returns an error", worker.TaskResult{Output: out(Clean, "unexpected EOF")}, false, "not kept as a reproducer: replayed alone in a fresh child, the library returned an error this time (unexpected EOF)"},
		{"returns a value", worker.TaskResult{Output: out(decoded, "")}, false, "not kept as a reproducer"},
	} {
		c := Cell{Outcome: Crash, Repro: &results.Reproducer{Size: 3, Hex: "01 02 03", Data: []byte{1, 2, 3}}}
		keep(&c, tc.r)
		if (c.Repro != nil) != tc.kept || !strings.Contains(c.Detail, tc.says) {
			t.Errorf("%s: kept %v (%q), want kept %v and %q", tc.name, c.Repro != nil, c.Detail, tc.kept, tc.says)
		}
	}
	// Starved of CPU under load, then hung alone: a hang, as a run on a
	// quiet machine finds it (segmentio-json deep-array); starved, then
	// clean alone, stays starved.
	starved := Cell{Outcome: Starved, Note: worker.ExitStarved, Repro: &results.Reproducer{Size: 3, Hex: "01 02 03", Data: []byte{1, 2, 3}}}
	c := starved
	keep(&c, worker.TaskResult{Exit: &worker.Exit{Kind: worker.ExitTimeout}})
	if c.Outcome != Hang || c.Note != worker.ExitTimeout {
		t.Errorf("starved, then hung alone: %s %s, want hang timeout", c.Outcome, c.Note)
	}
	c = starved
	keep(&c, worker.TaskResult{Output: out(Clean, "unexpected EOF")})
	if c.Outcome != Starved {
		t.Errorf("starved, then clean alone: %s, want starved", c.Outcome)
	}
}

// TestRecord: the parent's side of a cell, round by round: a child that
// died in serbench's check runs the cell again without that check; a
// cell that keeps a reproducer runs once more to replay it alone under
// the caps, and keeps it only when the library fails again; then once in
// a default Go process (uncapped), and, when that survives, on up to
// escalations larger inputs; a clean cell ends at once.
func TestRecord(t *testing.T) {
	info, err := registry.Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	cleanEOF := worker.TaskResult{Output: mustJSON(t, cellOut{Outcome: Clean, Detail: "EOF"})}
	stackOverflow := worker.TaskResult{Step: "0", Exit: &worker.Exit{Kind: worker.ExitStackOverflow, Detail: "fatal error: stack overflow"}}
	for _, tc := range []struct {
		name   string
		ends   []worker.TaskResult
		agains []bool
		want   Outcome
		repro  bool
	}{
		{"clean", []worker.TaskResult{{Output: mustJSON(t, cellOut{Outcome: Clean, Worst: -1})}}, []bool{false}, Clean, false},
		{"check then clean", []worker.TaskResult{
			{Step: "check 3", Exit: &worker.Exit{Kind: worker.ExitTimeout}},
			{Output: mustJSON(t, cellOut{Outcome: CheckFailed, Worst: -1})},
		}, []bool{true, false}, CheckFailed, false},
		{"check then changed", []worker.TaskResult{
			{Step: "check 3", Exit: &worker.Exit{Kind: worker.ExitStackOverflow}},
			{Output: mustJSON(t, cellOut{Outcome: Changed, Worst: -1})},
		}, []bool{true, false}, Changed, false},
		{"crash replayed again", []worker.TaskResult{stackOverflow, stackOverflow, stackOverflow}, []bool{true, true, false}, Crash, true},
		{"crash not replayed", []worker.TaskResult{stackOverflow, cleanEOF, stackOverflow}, []bool{true, true, false}, Crash, false},
		{"survives a default process", []worker.TaskResult{stackOverflow, stackOverflow, cleanEOF, cleanEOF, stackOverflow}, []bool{true, true, true, true, false}, Crash, true},
	} {
		c := &study.Cell{Codec: info, Case: study.Case{Name: "truncate"}, Result: Cell{Codec: "json", Case: "truncate"}}
		for i, r := range tc.ends {
			c.Tasks++
			if uncapped := SpecOf(Options{}).Limits(c).Uncapped; uncapped != (i >= 2) {
				t.Fatalf("%s: task %d: uncapped %v, want %v", tc.name, i, uncapped, i >= 2)
			}
			if again := record(c, r, true); again != tc.agains[i] {
				t.Fatalf("%s: task %d: again %v, want %v", tc.name, i, again, tc.agains[i])
			}
		}
		if len(tc.ends) > 2 && c.Result.Facts[FactDefault] == "" {
			t.Errorf("%s: no %s fact: %+v", tc.name, FactDefault, c.Result.Facts)
		}
		if c.Result.Outcome != tc.want || (c.Result.Repro != nil) != tc.repro {
			t.Errorf("%s: %s, reproducer %v; want %s, %v", tc.name, c.Result.Outcome, c.Result.Repro != nil, tc.want, tc.repro)
		}
	}
}

// TestDefaultEffect: what a default process did, in a few words; the
// guard's kill and a return past the memory line alike a memory blow-up.
func TestDefaultEffect(t *testing.T) {
	for _, tc := range []struct {
		r      worker.TaskResult
		failed bool
		want   string
	}{
		{worker.TaskResult{Exit: &worker.Exit{Kind: worker.ExitGuard}}, true, "memory"},
		{worker.TaskResult{Output: mustJSON(t, cellOut{Outcome: Memory})}, true, "memory"},
		{worker.TaskResult{Exit: &worker.Exit{Kind: worker.ExitOutOfMemory}}, true, "out of memory"},
		{worker.TaskResult{Exit: &worker.Exit{Kind: worker.ExitStackOverflow}}, true, "stack overflow"},
		{worker.TaskResult{Exit: &worker.Exit{Kind: worker.ExitTimeout}}, true, "hang"},
		{worker.TaskResult{Output: mustJSON(t, cellOut{Outcome: Clean})}, false, "survives"},
	} {
		if got := defaultEffect(tc.r, tc.failed); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
