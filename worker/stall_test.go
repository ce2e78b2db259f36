package worker

import (
	"testing"
	"time"
)

// TestJudgeStall: a quiet child is hung only when it spent the timeout's
// CPU time without a step and without growing, or was blocked; a child
// waiting for a CPU on a busy machine, or growing its memory, is watched
// on, up to hardWall timeouts. Usages are made up: no clock is read.
func TestJudgeStall(t *testing.T) {
	const timeout = 10 * time.Second
	t0 := time.Unix(1000, 0)
	at := func(wall, cpu, wait time.Duration, rss uint64) usage {
		return usage{at: t0.Add(wall), cpu: cpu, wait: wait, rss: rss, ok: true}
	}
	step := at(0, 0, 0, 100<<20)
	for _, tc := range []struct {
		name      string
		last, now usage
		kill      string // "" to watch on
	}{
		{"spinning", at(8*time.Second, 8*time.Second, 0, 100<<20), at(10*time.Second, 10*time.Second, 0, 100<<20), ExitTimeout},
		{"busy machine", at(8*time.Second, 2*time.Second, 6*time.Second, 100<<20), at(10*time.Second, 3*time.Second, 7*time.Second, 100<<20), ""},
		{"blocked", at(8*time.Second, 0, 0, 100<<20), at(10*time.Second, 10*time.Millisecond, 0, 100<<20), ExitTimeout},
		{"held by the kernel", at(8*time.Second, 0, 0, 2<<30), func() usage { u := at(10*time.Second, 10*time.Millisecond, 0, 2<<30); u.held = true; return u }(), ""},
		{"growing", at(8*time.Second, 8*time.Second, 0, 1<<30), at(12*time.Second, 12*time.Second, 0, 2<<30), ""},
		{"exiting", at(8*time.Second, 0, 0, 2<<30), at(10*time.Second, 10*time.Millisecond, 0, 0), ""},
		{"growing past the hard wall", at(299*time.Second, 70*time.Second, 0, 3<<30), at(300*time.Second, 71*time.Second, 0, 3<<30+64<<20), ExitGrowth},
		{"starved past the hard wall", at(299*time.Second, 5*time.Second, 270*time.Second, 100<<20), at(300*time.Second, 5*time.Second, 271*time.Second, 100<<20), ExitStarved},
		{"early", at(0, 0, 0, 100<<20), at(3*time.Second, 3*time.Second, 0, 100<<20), ""},
		{"unreadable", usage{}, usage{at: t0.Add(timeout)}, ExitTimeout},
	} {
		s := step
		if !tc.now.ok {
			s = usage{at: t0}
		}
		st := judgeStall(s, tc.last, tc.now, timeout)
		switch {
		case tc.kill == "" && st.kill != nil:
			t.Errorf("%s: killed (%s: %s), want watched on", tc.name, st.kill.Kind, st.kill.Detail)
		case tc.kill == "" && st.next <= 0:
			t.Errorf("%s: watched on with no next look", tc.name)
		case tc.kill != "" && (st.kill == nil || st.kill.Kind != tc.kill):
			t.Errorf("%s: %+v, want killed as %s", tc.name, st.kill, tc.kill)
		}
	}
}
