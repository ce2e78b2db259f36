package machine

import (
	"testing"
	"time"
)

// TestJudgeStall: a quiet process is hung only when it spent the timeout's
// CPU time without a step and without growing, or was blocked; a process
// waiting for a CPU on a busy machine, or growing its memory, is watched
// on, up to HardWall timeouts. Usages are made up: no clock is read.
func TestJudgeStall(t *testing.T) {
	const timeout = 10 * time.Second
	t0 := time.Unix(1000, 0)
	at := func(wall, cpu, wait time.Duration, rss uint64) Usage {
		return Usage{At: t0.Add(wall), CPU: cpu, Wait: wait, RSS: rss, OK: true}
	}
	step := at(0, 0, 0, 100<<20)
	for _, tc := range []struct {
		name      string
		last, now Usage
		kill      StallKind // Watch to watch on
	}{
		{"spinning", at(8*time.Second, 8*time.Second, 0, 100<<20), at(10*time.Second, 10*time.Second, 0, 100<<20), Hung},
		{"busy machine", at(8*time.Second, 2*time.Second, 6*time.Second, 100<<20), at(10*time.Second, 3*time.Second, 7*time.Second, 100<<20), Watch},
		{"blocked", at(8*time.Second, 0, 0, 100<<20), at(10*time.Second, 10*time.Millisecond, 0, 100<<20), Hung},
		{"held by the kernel", at(8*time.Second, 0, 0, 2<<30), func() Usage { u := at(10*time.Second, 10*time.Millisecond, 0, 2<<30); u.Held = true; return u }(), Watch},
		{"growing", at(8*time.Second, 8*time.Second, 0, 1<<30), at(12*time.Second, 12*time.Second, 0, 2<<30), Watch},
		{"exiting", at(8*time.Second, 0, 0, 2<<30), at(10*time.Second, 10*time.Millisecond, 0, 0), Watch},
		{"growing past the hard wall", at(299*time.Second, 70*time.Second, 0, 3<<30), at(300*time.Second, 71*time.Second, 0, 3<<30+64<<20), Growth},
		{"starved past the hard wall", at(299*time.Second, 5*time.Second, 270*time.Second, 100<<20), at(300*time.Second, 5*time.Second, 271*time.Second, 100<<20), Starved},
		{"early", at(0, 0, 0, 100<<20), at(3*time.Second, 3*time.Second, 0, 100<<20), Watch},
		{"unreadable", Usage{}, Usage{At: t0.Add(timeout)}, Hung},
	} {
		s := step
		if !tc.now.OK {
			s = Usage{At: t0}
		}
		st := JudgeStall(s, tc.last, tc.now, timeout)
		switch {
		case st.Kind != tc.kill:
			t.Errorf("%s: %+v, want kind %d", tc.name, st, tc.kill)
		case st.Kind == Watch && st.Next <= 0:
			t.Errorf("%s: watched on with no next look", tc.name)
		}
	}
}
