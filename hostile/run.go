package hostile

import (
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/buildinfo"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/verify"
	"github.com/serbench/serbench/worker"
)

// Options select a run's codecs and classes and set its limits.
type Options struct {
	Codecs  []string // default: every registered codec
	Classes []string // default: every class
	Quick   bool     // fewer inputs per class and a shorter nesting ladder
	// Timeout is how long one input may take before its child is killed
	// as hung. Default DefaultTimeout.
	Timeout time.Duration
	// Inputs, when set, adds the class input: these inputs through every
	// decoder (ReadInputs reads the user's files).
	Inputs []External
	// Fuzzed, when not nil, adds the class fuzz: by codec, the crashers
	// a fuzzing campaign found (Fuzz).
	Fuzzed map[string][]External
	// Progress, if set, is called after each cell.
	Progress func(done, total int, c Cell)
}

// DefaultTimeout is the default per-input timeout.
const DefaultTimeout = 10 * time.Second

// Handler is the worker task that runs one cell in a child process, and
// replays one input of it; the worker command must serve it.
var Handler = worker.Handler{Name: "hostile", Run: runCell}

// A cellTask is the input of the Handler.
type cellTask struct {
	Codec string `json:"codec"`
	Class string `json:"class"`
	Quick bool   `json:"quick,omitempty"`
	// Replay, when not -1, makes the child decode only that input, with
	// no check of the value: a reproducer's replay.
	Replay int `json:"replay"`
	// From is the first input to decode: the one after a check that
	// killed the cell's child before.
	From int `json:"from,omitempty"`
	// Enc holds the encodings the parent generated the cell's inputs
	// from; the child generates the same inputs from them.
	Enc *Encodings `json:"enc,omitempty"`
	// Generate makes the child compute the encodings of every class of
	// the codec instead (generate).
	Generate bool `json:"generate,omitempty"`
	Nest     bool `json:"nest,omitempty"`
	// Fuzz, when set, makes the child build the fuzz target or fuzz the
	// codec (Fuzz).
	Fuzz *fuzzTask `json:"fuzz,omitempty"`
}

// merge joins the cell of a child that went on after a check failure to
// the cell before it: the worse outcome stands, and the check failure is
// still said.
func merge(before, after Cell, continued bool) Cell {
	if !continued {
		return after
	}
	for o, n := range before.Counts {
		if after.Counts == nil {
			after.Counts = map[Outcome]int{}
		}
		after.Counts[o] += n
	}
	if n := max(inputsOf(after), inputsOf(before)); n > 0 {
		if after.Facts == nil {
			after.Facts = map[string]string{}
		}
		after.Facts[FactInputs] = strconv.Itoa(n)
	}
	if !worse(after.Outcome, before.Outcome) {
		before.Counts = after.Counts
		return before
	}
	after.Detail += "; before it, " + before.Detail
	return after
}

// inputsOf returns how many inputs the cell ran (its FactInputs).
func inputsOf(c Cell) int {
	n, _ := strconv.Atoi(c.Facts[FactInputs])
	return n
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

// Run runs the matrix of opts, each cell in a child of pool, and returns
// it. pool's TaskTimeout is set from opts.
func Run(ctx context.Context, pool *worker.Pool, opts Options) (*Matrix, error) {
	if err := registry.Check(opts.Codecs); err != nil {
		return nil, err
	}
	if err := CheckClasses(opts.Classes); err != nil {
		return nil, err
	}
	codecs, classes := opts.Codecs, opts.Classes
	if len(codecs) == 0 {
		for _, c := range registry.RoundTrippers() {
			codecs = append(codecs, c.Name)
		}
	}
	if len(classes) == 0 && len(opts.Inputs) == 0 {
		classes = ClassNames()
	}
	if len(opts.Inputs) > 0 {
		classes = append(slices.Clip(classes), ClassInput)
	}
	if opts.Fuzzed != nil {
		classes = append(slices.Clip(classes), ClassFuzz)
	}
	timeout := cmp.Or(opts.Timeout, DefaultTimeout)
	var mcodecs []results.MatrixCodec
	for _, name := range codecs {
		info, _ := registry.Lookup(name)
		mcodecs = append(mcodecs, results.MatrixCodec{Name: name, Label: info.Label, Family: info.Family, Module: info.Module, Version: registry.Version(info.Module)})
	}
	var cases []results.MatrixCase
	for _, name := range classes {
		c, _ := LookupClass(name)
		cases = append(cases, results.MatrixCase{Name: c.Name, Doc: c.Doc})
	}
	m := results.NewMatrix(Study, mcodecs, cases)
	m.Go, m.Serbench = runtime.Version(), buildinfo.Main()
	caps := worker.DefaultLimits // the tasks' Limits are zero
	m.Settings = []string{fmt.Sprintf("memory cap %d MiB, stack cap %d MiB", caps.Memory>>20, caps.Stack>>20), "per-input timeout " + timeout.String()}
	if opts.Quick {
		m.Settings = append(m.Settings, "-quick: fewer inputs, nesting to 100,000 levels")
	}
	for _, co := range codecs {
		for _, cl := range classes {
			m.Cells = append(m.Cells, Cell{Codec: co, Case: cl})
		}
	}
	m.Settings = append(m.Settings, fmt.Sprintf("inputs generated with seed %d from each seed value's canonical encoding (seed_sha256)", genSeed))
	pool.TaskTimeout = timeout
	encs, skip, err := generate(ctx, pool, m, opts.Quick) // what each cell's inputs are generated from
	if err != nil {
		return m, err
	}
	for i, c := range m.Cells {
		switch {
		case c.Case == ClassInput:
			encs[i] = &Encodings{External: opts.Inputs}
		case c.Case == ClassFuzz && len(opts.Fuzzed[c.Codec]) > 0:
			encs[i] = &Encodings{External: opts.Fuzzed[c.Codec]}
		case c.Case == ClassFuzz:
			skip[i] = "fuzzing kept no crasher"
		}
	}
	worst := make([]int, len(m.Cells)) // each cell's reproducer, as an index of its inputs
	from := make([]int, len(m.Cells))  // the input each cell's next child starts at; -1 when done
	for i, why := range skip {
		m.Cells[i].Outcome, m.Cells[i].Detail, from[i] = NA, why, -1
	}
	done := len(skip) // cells not to run are done
	start := time.Now()
	// A round runs, in a child each, the cells with inputs left: all of
	// them first, then those whose child died in serbench's check of a
	// value, from the input after it.
	err = pool.RunRounds(ctx, func() ([]worker.Task, func(int, worker.TaskResult)) {
		var tasks []worker.Task
		var of []int
		for i, c := range m.Cells {
			if from[i] >= 0 {
				in, _ := json.Marshal(cellTask{Codec: c.Codec, Class: c.Case, Quick: opts.Quick, Replay: -1, From: from[i], Enc: encs[i]})
				tasks = append(tasks, worker.Task{Name: Handler.Name, Input: in})
				of = append(of, i)
			}
		}
		return tasks, func(t int, r worker.TaskResult) {
			i := of[t]
			var c Cell
			var next int
			c, worst[i], next = cellOf(Cell{Codec: m.Cells[i].Codec, Case: m.Cells[i].Case, Facts: m.Cells[i].Facts}, r, opts.Quick, encs[i])
			m.Cells[i] = merge(m.Cells[i], c, from[i] > 0)
			if from[i] > 0 && m.Cells[i].Outcome == CheckFailed {
				worst[i] = -1
			}
			from[i] = next
			if next < 0 {
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(m.Cells), m.Cells[i])
				}
			}
		}
	})
	if err == nil {
		err = replay(ctx, pool, m, worst, encs, opts.Quick)
	}
	m.Elapsed = time.Since(start).Round(time.Second).String()
	for i := range m.Cells {
		m.Cells[i].Detail = results.Printable(m.Cells[i].Detail)
	}
	m.JudgeAll()
	return m, err
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
// reproducer among the class's inputs (-1 for none) and the input a new
// child is to go on from when serbench's check killed this one (-1 for
// none).
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
		c.Detail = fmt.Sprintf("serbench's check of the value decoded from input %s failed (%s); the decoder returned, and is not blamed", at, r.Exit)
		c.Counts = map[Outcome]int{CheckFailed: 1}
		next, err := strconv.Atoi(at)
		if err != nil {
			return c, -1, -1
		}
		return c, -1, next + 1
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
// returns the worst outcome.
func runCell(ctx context.Context, task json.RawMessage, step func(string)) (json.RawMessage, error) {
	var t cellTask
	if err := json.Unmarshal(task, &t); err != nil {
		return nil, err
	}
	if t.Fuzz != nil {
		return runFuzz(ctx, t.Codec, t.Fuzz, step)
	}
	info, err := registry.Lookup(t.Codec)
	if err != nil {
		return nil, err
	}
	if t.Generate {
		return generated(info, t.Quick, t.Nest)
	}
	step("seed")
	s, in := inputs(info, t.Class, t.Quick, t.Enc)
	out := cellOut{Outcome: NA, Counts: map[Outcome]int{}, Worst: -1}
	if s == nil || len(in) == 0 {
		return json.Marshal(out)
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
		return json.Marshal(out)
	}
	for i := min(max(t.From, 0), len(in)); i < len(in); i++ {
		input := in[i]
		// The codec's call is one step, the check of what it returned
		// another: a crash is the codec's only in the first.
		step(strconv.Itoa(i))
		o, detail, alloc := call(info, s, input)
		if o == decoded {
			step(checkStep + strconv.Itoa(i))
			o, detail = check(info, s, input)
		}
		out.Counts[o]++
		out.Alloc = max(out.Alloc, alloc)
		if worse(o, out.Outcome) || o == out.Outcome && out.Worst >= 0 && len(input.Data) < len(in[out.Worst].Data) {
			out.Outcome, out.Worst, out.Detail = o, i, detail
		}
	}
	if clean(out.Outcome) {
		out.Worst = -1
	}
	return json.Marshal(out)
}

// checkStep prefixes the step of checking an input's decoded value.
const checkStep = "check "

// decoded is call's outcome for a value decoded without an error, not yet
// checked.
const decoded Outcome = "decoded"

// call decodes one input with the seed's Case and takes the value, the
// library's calls only, and says what happened, with the bytes the
// decoder allocated or grew the resident set by, whichever is more:
// decoded when it returned a value without an error.
func call(info codec.Info, s *seed, in Input) (o Outcome, detail string, alloc uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resetPeakRSS()
	rss0, _ := rss()
	err, panicked := recovered(func() error { return s.c.Decode(in.Data) })
	_, peak := rss()
	runtime.ReadMemStats(&after)
	alloc = after.TotalAlloc - before.TotalAlloc
	if peak > rss0 {
		alloc = max(alloc, peak-rss0)
	}
	switch {
	case panicked:
		return Panic, err.Error(), alloc
	case alloc > memoryFloor && alloc > memoryFactor*uint64(len(in.Data)):
		return Memory, fmt.Sprintf("allocated or grew the resident set by %d MiB for %d bytes of input", alloc>>20, len(in.Data)), alloc
	case err != nil:
		return Clean, err.Error(), alloc
	}
	s.got = nil
	err, panicked = recovered(func() error {
		var err error
		s.got, err = s.c.Value()
		return err
	})
	switch {
	case panicked:
		return Panic, err.Error(), alloc
	case err != nil:
		return Clean, err.Error(), alloc
	}
	return decoded, "", alloc
}

// check compares the value call decoded with the seed's, outside the
// codec's step: a failure here is serbench's, recorded as CheckFailed.
func check(info codec.Info, s *seed, in Input) (Outcome, string) {
	var err error
	cerr, panicked := recovered(func() error {
		err = verify.Equal(s.value, s.got, info.Losses)
		return nil
	})
	s.got = nil
	switch {
	case panicked:
		return CheckFailed, "serbench's check of the decoded value panicked: " + cerr.Error()
	case err != nil:
		return Changed, "decoded without an error to another value"
	case in.Valid:
		return OK, ""
	}
	return Accepted, "decoded without an error to the value of the valid encoding"
}

// recovered calls f, recovering a panic as an error.
func recovered(f func() error) (err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			err, panicked = fmt.Errorf("panic: %v", r), true
		}
	}()
	return f(), false
}
