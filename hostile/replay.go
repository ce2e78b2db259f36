package hostile

import (
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

// replayUncapped reads the replay r of input st.replay of cell c in a
// default Go process (worker.Limits Uncapped, under the worker's memory
// guard and the task's timeout), after its replay under serbench's caps
// (keep), and states its effect (FactDefault). A reproducer a default
// process survives (a nesting that overflows the 64 MiB stack cap, not
// Go's 1 GB) is followed by the cell's larger inputs, up to escalations of
// them, until one fails a default process: replayUncapped returns the
// next input to replay so, or -1 when done.
func replayUncapped(c *Cell, st *cellState, r worker.TaskResult, quick bool) int {
	got, failed := replayed(r)
	if c.Facts == nil {
		c.Facts = map[string]string{}
	}
	switch {
	case st.tries == 0:
		c.Detail += "; in a default Go process (no caps), the library " + got
		c.Facts[FactDefault] = defaultEffect(r, failed)
	case failed:
		size := ""
		if info, err := registry.Lookup(c.Codec); err == nil {
			if s, in := inputs(info, c.Case, quick, st.enc); s != nil && st.replay < len(in) {
				size = fmt.Sprintf(", %d bytes", len(in[st.replay].Data))
			}
		}
		c.Detail += fmt.Sprintf("; its input %d%s %s a default Go process", st.replay, size, got)
		c.Facts[FactDefault] += fmt.Sprintf("; input %d%s: %s", st.replay, size, defaultEffect(r, failed))
	}
	if n, _ := strconv.Atoi(c.Facts[FactInputs]); !failed && st.tries < escalations && st.replay+1 < n {
		return st.replay + 1
	}
	return -1
}

// defaultEffect names in a few words what an input did to a default
// process. The guard's kill is a memory blow-up, as a child that returned
// past the memory line is: a default process has no guard, and which of
// the two ends a decoder that allocates about the guard's size is a race
// between the child's end and the parent's reading of its resident set
// (msgpack-reuse long-bytes, 4 GiB for 61 bytes, ended either way from
// run to run).
func defaultEffect(r worker.TaskResult, failed bool) string {
	switch {
	case r.Exit != nil && r.Exit.Kind == worker.ExitTimeout:
		return "hang"
	case r.Exit != nil && r.Exit.Kind == worker.ExitGuard:
		return string(Memory)
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
// what the replay did. A cell starved of CPU on a busy machine whose
// replay alone hung (spent the timeout's CPU time without a step) is a
// hang: the replay holds the evidence the cell's child could not gather.
func keep(c *Cell, r worker.TaskResult) {
	got, ok := replayed(r)
	if ok {
		if c.Outcome == Starved && r.Exit != nil && exitOutcome(r.Exit) == Hang {
			c.Outcome, c.Note = Hang, r.Exit.Kind
		}
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
