package hostile

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/worker"
)

// FactDefault says what a cell's reproducer does in a default Go process
// (no memory cap, Go's own 1 GB stack maximum), beside what it does under
// serbench's caps.
const FactDefault = "default_process"

// escalations bounds how many larger inputs of a cell are tried in a
// default process when its reproducer does not fail there.
const escalations = 2

// A replayJob is one replay: a cell's input, under the caps or in a
// default process.
type replayJob struct {
	cell, input int
	uncapped    bool
	tries       int // the escalation it is, 0 for the reproducer itself
}

// replay runs each reproducer of m again in fresh children that call the
// library only (Decode and Value, no check of the value): one under
// serbench's caps, which keeps it only when the library fails on it there
// too (a crash that needed the inputs before it, or serbench's own code,
// leaves no reproducer, and the cell says so), and one as a default Go
// process (worker.Limits Uncapped, under the worker's memory guard and
// the pool's timeout), whose effect the cell states (FactDefault). A
// reproducer a default process survives (a nesting that overflows the
// 64 MiB stack cap, not Go's 1 GB) is followed by the cell's larger
// inputs, up to escalations of them, until one fails a default process.
func replay(ctx context.Context, pool *worker.Pool, m *Matrix, worst []int, encs []*Encodings, quick bool) error {
	var jobs []replayJob
	for i, c := range m.Cells {
		if c.Repro != nil && worst[i] >= 0 {
			jobs = append(jobs, replayJob{cell: i, input: worst[i]}, replayJob{cell: i, input: worst[i], uncapped: true})
		}
	}
	for len(jobs) > 0 {
		tasks := make([]worker.Task, len(jobs))
		for k, j := range jobs {
			c := m.Cells[j.cell]
			in, _ := json.Marshal(cellTask{Codec: c.Codec, Class: c.Case, Quick: quick, Replay: j.input, Enc: encs[j.cell]})
			tasks[k] = worker.Task{Name: Handler.Name, Input: in, Limits: worker.Limits{Uncapped: j.uncapped}}
		}
		var next []replayJob
		_, err := pool.RunTasksEach(ctx, tasks, func(k int, r worker.TaskResult) {
			j := jobs[k]
			c := &m.Cells[j.cell]
			if !j.uncapped {
				keep(c, r)
				return
			}
			got, failed := replayed(r)
			if c.Facts == nil {
				c.Facts = map[string]string{}
			}
			switch {
			case j.tries == 0:
				c.Detail += "; in a default Go process (no caps), the library " + got
				c.Facts[FactDefault] = defaultEffect(r, failed)
			case failed:
				size := ""
				if info, err := registry.Lookup(c.Codec); err == nil {
					if s, in := inputs(info, c.Case, quick, encs[j.cell]); s != nil && j.input < len(in) {
						size = fmt.Sprintf(", %d bytes", len(in[j.input].Data))
					}
				}
				c.Detail += fmt.Sprintf("; its input %d%s %s a default Go process", j.input, size, got)
				c.Facts[FactDefault] += fmt.Sprintf("; input %d%s: %s", j.input, size, defaultEffect(r, failed))
			}
			if n, _ := strconv.Atoi(c.Facts[FactInputs]); !failed && j.tries < escalations && j.input+1 < n {
				next = append(next, replayJob{cell: j.cell, input: j.input + 1, uncapped: true, tries: j.tries + 1})
			}
		})
		if err != nil {
			return err
		}
		jobs = next
	}
	return nil
}

// defaultEffect names in a few words what an input did to a default
// process.
func defaultEffect(r worker.TaskResult, failed bool) string {
	switch {
	case r.Exit != nil && r.Exit.Kind == worker.ExitTimeout:
		return "hang"
	case r.Exit != nil:
		return r.Exit.Kind
	case failed:
		var out cellOut
		json.Unmarshal(r.Output, &out)
		return string(out.Outcome)
	}
	return "survives"
}

// keep keeps c's reproducer if its replay r failed the library, and says
// what the replay did.
func keep(c *Cell, r worker.TaskResult) {
	got, ok := replayed(r)
	if ok {
		c.Detail += "; replayed alone in a fresh child, the library " + got
		return
	}
	c.Detail += "; not kept as a reproducer: replayed alone in a fresh child, the library " + got
	c.Repro = nil
}

// replayed says what a replay's child did, and whether that is a failure
// of the library (a crash, a hang, a memory blow-up or a panic).
func replayed(r worker.TaskResult) (string, bool) {
	switch {
	case r.Exit != nil && r.Exit.Kind == worker.ExitTimeout:
		return "hung again (" + r.Exit.Detail + ")", true
	case r.Exit != nil:
		return "crashed again (" + r.Exit.String() + ")", true
	case r.Err != "":
		return "could not be replayed: " + r.Err, false
	}
	var out cellOut
	if err := json.Unmarshal(r.Output, &out); err != nil {
		return "could not be replayed: " + err.Error(), false
	}
	switch out.Outcome {
	case Panic, Memory:
		return "failed again (" + string(out.Outcome) + ": " + out.Detail + ")", true
	case Clean:
		return "returned an error this time (" + out.Detail + ")", false
	}
	return "returned a value this time", false
}
