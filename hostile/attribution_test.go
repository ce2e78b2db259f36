package hostile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// TestAttribution: a child that dies in the codec's step blames the
// codec; one that dies in serbench's check of the value is CheckFailed,
// not the codec's, and the cell goes on from the next input.
func TestAttribution(t *testing.T) {
	for _, tc := range []struct {
		step       string
		want       Outcome
		worst, nxt int
	}{
		{"1", Crash, 1, -1},
		{"check 1", CheckFailed, -1, 2},
	} {
		r := worker.TaskResult{Step: tc.step, Exit: &worker.Exit{Kind: worker.ExitStackOverflow, Detail: "fatal error: stack overflow"}}
		c, worst, next := cellOf(Cell{Codec: "json", Case: "deep-array"}, r, true, nil)
		if c.Outcome != tc.want || worst != tc.worst || next != tc.nxt {
			t.Errorf("died at step %q: %s, reproducer %d, next %d; want %s, %d, %d", tc.step, c.Outcome, worst, next, tc.want, tc.worst, tc.nxt)
		}
		if tc.want == CheckFailed && (c.Repro != nil || !strings.Contains(c.Detail, "is not blamed")) {
			t.Errorf("a check failure keeps a reproducer or blames the codec: %+v", c)
		}
	}
	// The worse of the two children's outcomes stands; the check failure
	// is still said.
	before := Cell{Outcome: CheckFailed, Detail: "serbench's check failed", Counts: map[Outcome]int{CheckFailed: 1}}
	if m := merge(before, Cell{Outcome: Crash, Detail: "fatal error: stack overflow", Counts: map[Outcome]int{Clean: 2}}, true); m.Outcome != Crash ||
		!strings.Contains(m.Detail, "before it, serbench's check failed") || m.Counts[CheckFailed] != 1 || m.Counts[Clean] != 2 {
		t.Errorf("a crash after a check failure: %+v", m)
	}
	if m := merge(before, Cell{Outcome: Clean, Counts: map[Outcome]int{Clean: 2}}, true); m.Outcome != CheckFailed || m.Counts[Clean] != 2 {
		t.Errorf("clean inputs after a check failure: %+v", m)
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
}
