package hostile

import (
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
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
	if len(classes) == 0 {
		classes = ClassNames()
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
	pool.TaskTimeout = timeout
	worst := make([]int, len(m.Cells)) // each cell's reproducer, as an index of its inputs
	from := make([]int, len(m.Cells))  // the input each cell's next child starts at; -1 when done
	done := 0
	start := time.Now()
	// A round runs, in a child each, the cells with inputs left: all of
	// them first, then those whose child died in serbench's check of a
	// value, from the input after it.
	err := pool.RunRounds(ctx, func() ([]worker.Task, func(int, worker.TaskResult)) {
		var tasks []worker.Task
		var of []int
		for i, c := range m.Cells {
			if from[i] >= 0 {
				in, _ := json.Marshal(cellTask{Codec: c.Codec, Class: c.Case, Quick: opts.Quick, Replay: -1, From: from[i]})
				tasks = append(tasks, worker.Task{Name: Handler.Name, Input: in})
				of = append(of, i)
			}
		}
		return tasks, func(t int, r worker.TaskResult) {
			i := of[t]
			var c Cell
			var next int
			c, worst[i], next = cellOf(Cell{Codec: m.Cells[i].Codec, Case: m.Cells[i].Case}, r, opts.Quick)
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
		err = replay(ctx, pool, m, worst, opts.Quick)
	}
	m.Elapsed = time.Since(start).Round(time.Second).String()
	for i := range m.Cells {
		m.Cells[i].Detail = results.Printable(m.Cells[i].Detail)
	}
	m.JudgeAll()
	return m, err
}

// replay runs each reproducer of m again in a fresh child that calls the
// library only (Decode and Value, no check of the value), and keeps it
// only when the library fails on it there too: a crash that needed the
// inputs before it in the cell's child, or serbench's own code, leaves no
// reproducer, and the cell says so.
func replay(ctx context.Context, pool *worker.Pool, m *Matrix, worst []int, quick bool) error {
	var tasks []worker.Task
	var of []int
	for i, c := range m.Cells {
		if c.Repro != nil && worst[i] >= 0 {
			in, _ := json.Marshal(cellTask{Codec: c.Codec, Class: c.Case, Quick: quick, Replay: worst[i]})
			tasks = append(tasks, worker.Task{Name: Handler.Name, Input: in})
			of = append(of, i)
		}
	}
	if len(tasks) == 0 {
		return nil
	}
	_, err := pool.RunTasksEach(ctx, tasks, func(t int, r worker.TaskResult) { keep(&m.Cells[of[t]], r) })
	return err
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
		return "hung again", true
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

// cellOf turns a task's result into the cell, with the index of its
// reproducer among the class's inputs (-1 for none) and the input a new
// child is to go on from when serbench's check killed this one (-1 for
// none).
func cellOf(c Cell, r worker.TaskResult, quick bool) (Cell, int, int) {
	c.Facts = map[string]string{}
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
		c.Outcome = Crash
		if r.Exit.Kind == worker.ExitTimeout {
			c.Outcome = Hang
		}
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
	seed, in := Inputs(info, c.Case, quick)
	c.Facts[FactSeed] = seed
	if c.Facts[FactInputs] == "" {
		c.Facts[FactInputs] = strconv.Itoa(len(in))
	}
	if worst >= len(in) {
		return c, -1, -1
	}
	data := in[worst].Data
	c.Repro = &results.Reproducer{Size: len(data), Hex: hex.Dump(data[:min(len(data), 128)]), Data: data}
	return c, worst, -1
}

// Inputs returns the inputs of class for the codec info and the seed they
// start from, as "dataset/shape": no seed when the codec encodes none of
// the class's seed values, no inputs when the class does not apply. The
// same binary returns the same inputs.
func Inputs(info codec.Info, class string, quick bool) (seed string, in []Input) {
	s, in := inputs(info, class, quick)
	if s == nil {
		return "", nil
	}
	return s.name, in
}

// inputs is Inputs with the seed's value, Case and encoding.
func inputs(info codec.Info, class string, quick bool) (*seed, []Input) {
	cl, err := LookupClass(class)
	if err != nil {
		return nil, nil
	}
	s := newSeed(info, cl.seed, quick)
	if s == nil {
		return nil, nil
	}
	src := &source{fam: framings[info.Family], valid: s.valid}
	if cl.Name == "other-type" {
		for _, name := range otherCandidates {
			if name == s.name {
				continue
			}
			if v, err := datasetValue(name); err == nil {
				if o := encodeSeed(info, name, v); o != nil {
					src.other = o.valid
					break
				}
			}
		}
	}
	return s, cl.gen(src, quick)
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
func runCell(_ context.Context, task json.RawMessage, step func(string)) (json.RawMessage, error) {
	var t cellTask
	if err := json.Unmarshal(task, &t); err != nil {
		return nil, err
	}
	info, err := registry.Lookup(t.Codec)
	if err != nil {
		return nil, err
	}
	step("seed")
	s, in := inputs(info, t.Class, t.Quick)
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
