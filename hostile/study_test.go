package hostile

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/results"
)

// TestVerdict: "no" for a crash, a hang or a memory blow-up, naming each
// with its reproducer's size; "with care" for a recovered panic or
// garbage accepted; "yes" otherwise; "untested" when no class applied.
func TestVerdict(t *testing.T) {
	if err := Study.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cells   []Cell
		verdict string
		why     string
	}{
		{[]Cell{{Outcome: Clean}, {Outcome: OK}, {Outcome: NA}}, "yes", "Every class tried (2)"},
		{[]Cell{{Outcome: Clean}, {Outcome: Accepted}}, "with care", "accepts garbage without an error (b)"},
		{[]Cell{{Outcome: Panic}, {Outcome: Accepted}}, "with care", "It panics on a;"},
		{[]Cell{{Outcome: Crash, Note: "out of memory", Repro: &results.Reproducer{Size: 6}}, {Outcome: Hang, Note: "timeout", Repro: &results.Reproducer{Size: 9}}, {Outcome: Panic}},
			"no", "stalls it: a (out of memory, 6-byte input); b (hang, 9-byte input)."},
		{[]Cell{{Outcome: NA}, {Outcome: NA}}, "untested", "No class applied."},
	} {
		m := results.NewMatrix(Study, []results.MatrixCodec{{Name: "x"}}, []results.MatrixCase{{Name: "a"}, {Name: "b"}, {Name: "c"}})
		for i, c := range tc.cells {
			c.Codec, c.Case = "x", string(rune('a'+i))
			m.Add(c)
		}
		if v := m.Judge("x"); v.Verdict != tc.verdict || !strings.Contains(v.Why, tc.why) {
			t.Errorf("%v: %s, %q; want %s, containing %q", tc.cells, v.Verdict, v.Why, tc.verdict, tc.why)
		}
	}
	if !clean(NA) || !clean(Clean) || clean(Changed) || !worse(Crash, Hang) || worse(OK, Clean) {
		t.Error("the outcomes' order or cleanliness changed")
	}
}
