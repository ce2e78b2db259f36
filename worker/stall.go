package worker

import (
	"time"

	"github.com/serbench/serbench/machine"
)

// A stall is machine.JudgeStall's judgement of a quiet child, as the
// supervisor acts on it: kill it with an Exit that says why, or look
// again after next.
type stall struct {
	kill *Exit
	next time.Duration
}

// judgeStall judges a quiet child by the one rule of a hang
// (machine.JudgeStall) and names the exit a kill gives it.
func judgeStall(step, last, now machine.Usage, timeout time.Duration) stall {
	j := machine.JudgeStall(step, last, now, timeout)
	kind := map[machine.StallKind]string{machine.Hung: ExitTimeout, machine.Growth: ExitGrowth, machine.Starved: ExitStarved}[j.Kind]
	if kind == "" {
		return stall{next: j.Next}
	}
	return stall{kill: &Exit{Kind: kind, Detail: j.Detail + "; killed"}}
}
