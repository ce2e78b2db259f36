package hostile

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/verify"
	"github.com/serbench/serbench/worker"
)

// DefaultTimeout is the default per-input timeout.
const DefaultTimeout = 10 * time.Second

// Options are a hostile run's own options, besides the driver's.
type Options struct {
	// Quick makes fewer inputs per class and a shorter nesting ladder.
	Quick bool
	// Inputs, when set, adds the class input: these inputs through every
	// decoder (ReadInputs reads the user's files).
	Inputs []External
	// Fuzz, when not nil, adds to the class fuzz the crashers a fuzzing
	// campaign finds before the first round (fuzz), by codec, beside those
	// kept in the tree (KnownCrashers).
	Fuzz *FuzzOptions
}

// Spec returns the hostile-input study of the generated classes as a
// value (package study); quick makes fewer inputs per class and a shorter
// nesting ladder. SpecOf takes the external classes too.
func Spec(quick bool) *study.Study { return SpecOf(Options{Quick: quick}) }

// SpecOf returns the hostile-input study as o says: every class (and the
// external ones o brings) through every codec that makes round trips of
// its own, each cell in a child of its own under worker.DefaultLimits,
// the step an input.
//
// Before the first round, a fresh child per codec computes the canonical
// encodings every cell's inputs are generated from (generate), and every
// child of the cell is sent them, so that the reproducer the parent keeps
// is byte for byte the input a child decoded. A cell whose child died in
// serbench's check of a value runs again, every input but that one's
// value checked, so that the outcomes of the inputs before it count; a cell
// that keeps a reproducer replays it alone in a fresh child that calls
// the library only, under the caps (kept only when the library fails
// there too), then in a default Go process (replayUncapped).
func SpecOf(o Options) *study.Study {
	var cases []study.Case
	for _, c := range Classes {
		cases = append(cases, study.Case{Name: c.Name, Doc: c.Doc})
	}
	for _, c := range externalClasses {
		if c.Name == ClassInput && len(o.Inputs) > 0 || c.Name == ClassFuzz {
			cases = append(cases, study.Case{Name: c.Name, Doc: c.Doc})
		}
	}
	caps := worker.DefaultLimits // the tasks' Limits are zero but a replay's in a default process
	settings := []string{fmt.Sprintf("memory cap %d MiB, stack cap %d MiB", caps.Memory>>20, caps.Stack>>20)}
	if o.Quick {
		settings = append(settings, "-quick: fewer inputs, nesting to 100,000 levels")
	}
	settings = append(settings, fmt.Sprintf("inputs generated with seed %d from each seed value's canonical encoding (seed_sha256)", genSeed))
	return &study.Study{
		Matrix:   Study,
		Cases:    cases,
		CaseList: "classes",
		Timeout:  DefaultTimeout,
		Step:     "one input",
		Rerun:    rerunCost,
		Settings: settings,
		Before: func(ctx context.Context, cells []*study.Cell, run func(context.Context, []study.Task) ([]worker.TaskResult, error)) error {
			return generate(ctx, cells, run, o)
		},
		Input: func(c *study.Cell) any {
			st := stateOf(c)
			return cellTask{Quick: o.Quick, Replay: st.replay, Unchecked: st.unchecked, Enc: st.enc}
		},
		Limits: func(c *study.Cell) worker.Limits { return worker.Limits{Uncapped: stateOf(c).uncapped} },
		Cell:   runCell,
		Record: func(c *study.Cell, r worker.TaskResult) bool {
			again := record(c, r, o.Quick)
			if !again {
				c.Result.Detail = results.Printable(c.Result.Detail)
			}
			return again
		},
	}
}

// rerunCost is, for the estimate, what the tasks of a cell after its
// first cost when the first asks for more, in its first task's wall time:
// the reproducer's replay under the caps and in a default process, each
// about as dear as the input was in the first task (a hang's timeout, a
// memory blow-up's allocation), and up to escalations larger inputs in a
// default process when it did not fail there. Measured over the cells of
// hostile -quick (the sum of their further tasks' wall time over that of
// their first), where three cells in five that run again escalate.
const rerunCost = 2.8

// A cellState is what the parent keeps of a cell between its tasks: the
// encodings its inputs are generated from and their seed's SHA-256, the
// inputs whose check killed a child (unchecked, the first such child's
// cell in checkDied), and the input to replay (-1: none), under the caps
// or in a default process (uncapped), the tries-th escalation of the
// reproducer there.
type cellState struct {
	enc       *Encodings
	sha       string
	ownEnc    bool // the generation child failed: the cell's child generates its own
	unchecked []int
	checkDied Cell
	replay    int
	uncapped  bool
	tries     int
}

func stateOf(c *study.Cell) *cellState {
	if c.State == nil {
		c.State = &cellState{replay: -1}
	}
	return c.State.(*cellState)
}

// record reads a task's end into the cell, and says whether it runs
// again: without the check that killed its child, or to replay its
// reproducer.
func record(c *study.Cell, r worker.TaskResult, quick bool) bool {
	st := stateOf(c)
	if st.replay >= 0 && !st.uncapped {
		keep(&c.Result, r)
		st.uncapped = true
		return true
	}
	if st.replay >= 0 {
		if next := replayUncapped(&c.Result, st, r, quick); next >= 0 {
			st.replay, st.tries = next, st.tries+1
			return true
		}
		st.replay, st.uncapped = -1, false
		return false
	}
	var facts map[string]string
	if st.sha != "" {
		facts = map[string]string{FactSeedSHA: st.sha}
	}
	cell, worst, unchecked := cellOf(Cell{Codec: c.Codec.Name, Case: c.Case.Name, Facts: facts}, r, quick, st.enc)
	if unchecked >= 0 {
		if len(st.unchecked) == 0 {
			st.checkDied = cell
		}
		st.unchecked = append(st.unchecked, unchecked)
		c.Result = st.checkDied
		return true
	}
	c.Result = withCheckDeaths(cell, st.checkDied, len(st.unchecked))
	if st.ownEnc {
		c.Result.Detail += "; its encodings were generated in its own child: the codec's generation child failed"
	}
	if c.Result.Repro != nil && worst >= 0 {
		st.replay = worst
		return true
	}
	return false
}

// A cellTask is the input of a cell's task, besides its codec and class.
type cellTask struct {
	Codec string `json:"-"`
	Class string `json:"-"`
	Quick bool   `json:"quick,omitempty"`
	// Replay, when not -1, makes the child decode only that input, with
	// no check of the value: a reproducer's replay.
	Replay int `json:"replay"`
	// Unchecked are the inputs whose check killed a child of the cell
	// before: decoded, but their values not checked (CheckFailed).
	Unchecked []int `json:"unchecked,omitempty"`
	// Enc holds the encodings the parent generated the cell's inputs
	// from; the child generates the same inputs from them.
	Enc *Encodings `json:"enc,omitempty"`
	// Generate makes the child compute the encodings of every class of
	// the codec instead (generate): the recursive type's when Nest is set.
	Generate bool `json:"generate,omitempty"`
	Nest     bool `json:"nest,omitempty"`
	// Fuzz, when set, makes the child build the fuzz target or fuzz the
	// codec (Fuzz).
	Fuzz *fuzzTask `json:"fuzz,omitempty"`
}

// withCheckDeaths says in cell, the end of a child that decoded every
// input of its cell, that serbench's check killed n children before
// (died, the first): their inputs counted CheckFailed, which stands as
// the outcome with died's words when no input did worse.
func withCheckDeaths(cell, died Cell, n int) Cell {
	if n == 0 {
		return cell
	}
	if cell.Outcome == CheckFailed {
		cell.Note, cell.Detail = died.Note, died.Detail
		return cell
	}
	cell.Detail += fmt.Sprintf("; serbench's check killed %d child(ren) of the cell, not blamed: %s", n, died.Detail)
	return cell
}

// cellOut is the output of the Handler.
type cellOut struct {
	Seed    string          `json:"seed"`
	Inputs  int             `json:"inputs"`
	Outcome Outcome         `json:"outcome"`
	Counts  map[Outcome]int `json:"counts"`
	Worst   int             `json:"worst"`
	Detail  string          `json:"detail,omitempty"`
	Alloc   uint64          `json:"alloc"`
}

// exitOutcome is the outcome of an input that ended its child: a hang
// (the worker's judgement: CPU spent without a step, or blocked), a
// memory blow-up (still growing when the worker gave up on it), else a
// crash, its kind the worker's classification.
func exitOutcome(e *worker.Exit) Outcome {
	switch e.Kind {
	case worker.ExitTimeout:
		return Hang
	case worker.ExitGrowth:
		return Memory
	case worker.ExitStarved:
		return Starved
	}
	return Crash
}

// cellOf turns a task's result into the cell, with the index of its
// reproducer among the class's inputs (-1 for none) and the input whose
// check killed the child, when serbench's check did (-1 for none).
func cellOf(c Cell, r worker.TaskResult, quick bool, enc *Encodings) (Cell, int, int) {
	facts := map[string]string{}
	if sum := c.Facts[FactSeedSHA]; sum != "" {
		facts[FactSeedSHA] = sum
	}
	c.Facts = facts
	if r.PeakRSS > 0 {
		c.Facts[FactPeakRSS] = strconv.FormatUint(r.PeakRSS, 10)
	}
	worst := -1
	switch {
	case r.Exit != nil && strings.HasPrefix(r.Step, checkStep):
		// The decoder had returned: the death is serbench's check's.
		c.Outcome, c.Note = CheckFailed, r.Exit.Kind
		at := strings.TrimPrefix(r.Step, checkStep)
		c.Detail = fmt.Sprintf("serbench's check of the value decoded from input %s (with its conversion, for a codec whose Value converts) failed (%s); the decoder returned, and is not blamed", at, r.Exit)
		c.Counts = map[Outcome]int{CheckFailed: 1}
		i, err := strconv.Atoi(at)
		if err != nil {
			return c, -1, -1
		}
		return c, -1, i
	case r.Exit != nil:
		c.Outcome = exitOutcome(r.Exit)
		c.Note, c.Detail = r.Exit.Kind, r.Exit.Detail
		if i, err := strconv.Atoi(r.Step); err == nil {
			worst = i
		}
	case r.Err != "":
		c.Outcome, c.Detail = Crash, "the task failed: "+r.Err
	default:
		var out cellOut
		if err := json.Unmarshal(r.Output, &out); err != nil {
			c.Outcome, c.Detail = Crash, "unreadable task output: "+err.Error()
			return c, -1, -1
		}
		c.Outcome, c.Counts, c.Detail = out.Outcome, out.Counts, out.Detail
		if out.Inputs > 0 {
			c.Facts[FactSeed], c.Facts[FactInputs] = out.Seed, strconv.Itoa(out.Inputs)
		} else {
			delete(c.Facts, FactSeedSHA) // the class does not apply: no input came of the seed
		}
		if out.Alloc > 0 {
			c.Facts[FactAlloc] = strconv.FormatUint(out.Alloc, 10)
		}
		worst = out.Worst
	}
	if clean(c.Outcome) || worst < 0 {
		return c, -1, -1
	}
	info, err := registry.Lookup(c.Codec)
	if err != nil {
		return c, -1, -1
	}
	s, in := inputs(info, c.Case, quick, enc)
	if s == nil {
		return c, -1, -1
	}
	c.Facts[FactSeed] = s.name
	if c.Facts[FactInputs] == "" {
		c.Facts[FactInputs] = strconv.Itoa(len(in))
	}
	if worst >= len(in) {
		return c, -1, -1
	}
	data := in[worst].Data
	if enc != nil && worst < len(enc.External) {
		c.Detail = enc.External[worst].Name + ": " + c.Detail
	}
	c.Repro = &results.Reproducer{Size: len(data), Hex: hex.Dump(data[:min(len(data), 128)]), Data: data}
	return c, worst, -1
}

// memoryFactor and memoryFloor define a memory blow-up: an input that
// makes the decoder allocate over memoryFactor times its size and over
// memoryFloor bytes.
const (
	memoryFactor = 1000
	memoryFloor  = 64 << 20
)

// runCell is the child's side: it decodes each input of the cell and
// returns the worst outcome; or computes the codec's encodings, or fuzzes
// it, as the task says.
func runCell(ctx context.Context, task study.Task, step func(string)) (any, error) {
	t := cellTask{Replay: -1}
	if err := json.Unmarshal(task.Input, &t); err != nil {
		return nil, err
	}
	t.Codec, t.Class = task.Codec.Name, task.Case
	info := task.Codec
	if t.Fuzz != nil {
		return runFuzz(ctx, t.Codec, t.Fuzz, step)
	}
	if t.Generate {
		return generated(info, t.Quick, t.Nest)
	}
	step("seed")
	s, in := inputs(info, t.Class, t.Quick, t.Enc)
	out := cellOut{Outcome: NA, Counts: map[Outcome]int{}, Worst: -1}
	if s == nil || len(in) == 0 {
		return out, nil
	}
	out.Seed, out.Inputs = s.name, len(in)
	if t.Replay >= 0 {
		if t.Replay >= len(in) {
			return nil, fmt.Errorf("hostile: no input %d of %s for %s: the class has %d", t.Replay, t.Class, t.Codec, len(in))
		}
		step(strconv.Itoa(t.Replay))
		o, detail, alloc := call(info, s, in[t.Replay])
		out.Outcome, out.Worst, out.Detail, out.Alloc = o, t.Replay, detail, alloc
		out.Counts[o]++
		return out, nil
	}
	for i, input := range in {
		// The codec's call is one step, the check of what it returned
		// another: a crash is the codec's only in the first.
		step(strconv.Itoa(i))
		o, detail, alloc := call(info, s, input)
		switch {
		case o == decoded && slices.Contains(t.Unchecked, i):
			o, detail = CheckFailed, fmt.Sprintf("serbench's check of the value decoded from input %d killed a child before; not run again", i)
			s.got = nil
		case o == decoded:
			step(checkStep + strconv.Itoa(i))
			o, detail = check(info, s, input)
		}
		out.Counts[o]++
		out.Alloc = max(out.Alloc, alloc)
		if worse(o, out.Outcome) || o == out.Outcome && out.Worst >= 0 && len(input.Data) < len(in[out.Worst].Data) {
			out.Outcome, out.Worst, out.Detail = o, i, detail
		}
	}
	if clean(out.Outcome) || out.Outcome == CheckFailed {
		out.Worst = -1 // no reproducer: the library returned
	}
	return out, nil
}

// checkStep prefixes the step of checking an input's decoded value.
const checkStep = "check "

// decoded is call's outcome for a value decoded without an error, not yet
// checked.
const decoded Outcome = "decoded"

// call decodes one input with the seed's Case and takes the value, the
// library's calls only, and says what happened, with the bytes the
// decoder allocated on the heap: decoded when it returned a value without
// an error. A codec whose Value converts what Decode decoded
// (codec.Info.ValueConverts) has its Value called by check instead: the
// conversion is serbench's code, not the library's.
//
// The memory line judges the heap the runtime counts allocated
// (TotalAlloc), which repeats from one process to the next to within a
// few kilobytes. It judges neither the resident set (it follows when the
// collector and the scavenger ran) nor the stack: the stack has a limit
// of its own (the stack cap, past which the decoder's end is a stack
// overflow), and its growth as the runtime counts it (StackInuse) follows
// the collector too, which keeps the old copies of a growing stack while
// it marks and shrinks a returned goroutine's stack when it scans it, so
// that one input read a growth of 32, 64 or 96 MiB from run to run.
//
// Each input starts from a collected heap: whether the collector has
// reclaimed what the inputs before it allocated, and so whether an
// allocation near the memory cap fits, is a matter of timing (the
// collector runs beside the decoder), and an input that allocates 2 GiB
// ran out of memory after another that did, where alone it returns.
func call(info codec.Info, s *seed, in Input) (o Outcome, detail string, alloc uint64) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := codec.Guard(func() error { return s.c.Decode(in.Data) })
	runtime.ReadMemStats(&after)
	alloc = after.TotalAlloc - before.TotalAlloc
	switch {
	case isPanic(err):
		return Panic, err.Error(), alloc
	case blowUp(alloc, len(in.Data)):
		return Memory, fmt.Sprintf("allocated %d MiB on the heap for %d bytes of input", alloc>>20, len(in.Data)), alloc
	case err != nil:
		return Clean, err.Error(), alloc
	case info.ValueConverts:
		return decoded, "", alloc
	}
	s.got, err = codec.GuardValue(s.c.Value)
	switch {
	case isPanic(err):
		return Panic, err.Error(), alloc
	case err != nil:
		return Clean, err.Error(), alloc
	}
	return decoded, "", alloc
}

// blowUp reports whether a decoder that allocated alloc bytes on the heap
// for size bytes of input blew up: over memoryFactor times the input and
// over memoryFloor.
func blowUp(alloc uint64, size int) bool {
	return alloc > memoryFloor && alloc > memoryFactor*uint64(size)
}

// check compares the value call decoded with the seed's, outside the
// codec's step: a failure here is serbench's, recorded as CheckFailed. For
// a codec whose Value converts (codec.Info.ValueConverts), it calls Value
// first: a conversion that panics is serbench's failure too, and one that
// errs refuses what the library decoded, a clean error.
func check(info codec.Info, s *seed, in Input) (Outcome, string) {
	if info.ValueConverts {
		got, err := codec.GuardValue(s.c.Value)
		switch {
		case isPanic(err):
			return CheckFailed, "serbench's conversion of the decoded value panicked: " + err.Error()
		case err != nil:
			return Clean, err.Error()
		}
		s.got = got
	}
	err := codec.Guard(func() error { return verify.Equal(s.value, s.got, info.Losses) })
	s.got = nil
	switch {
	case isPanic(err):
		return CheckFailed, "serbench's check of the decoded value panicked: " + err.Error()
	case err != nil:
		return Changed, "decoded without an error to another value"
	case in.Valid:
		return OK, ""
	}
	return Accepted, "decoded without an error to the value of the valid encoding"
}

// isPanic reports whether err is a panic the guard recovered.
func isPanic(err error) bool {
	var pe *codec.PanicError
	return errors.As(err, &pe)
}
