package hostile

import (
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
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

// Handler is the worker task that runs one cell in a child process; the
// worker command must serve it.
var Handler = worker.Handler{Name: "hostile", Run: runCell}

// A cellTask is the input of the Handler.
type cellTask struct {
	Codec string `json:"codec"`
	Class string `json:"class"`
	Quick bool   `json:"quick,omitempty"`
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
		codecs = registry.Names()
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
	var tasks []worker.Task
	for _, co := range codecs {
		for _, cl := range classes {
			in, _ := json.Marshal(cellTask{Codec: co, Class: cl, Quick: opts.Quick})
			tasks = append(tasks, worker.Task{Name: Handler.Name, Input: in})
			m.Cells = append(m.Cells, Cell{Codec: co, Case: cl})
		}
	}
	pool.TaskTimeout = timeout
	done := 0
	prev := pool.TaskDone
	pool.TaskDone = func(i int, r worker.TaskResult) {
		m.Cells[i] = cellOf(m.Cells[i], r, opts.Quick)
		done++
		if opts.Progress != nil {
			opts.Progress(done, len(tasks), m.Cells[i])
		}
	}
	defer func() { pool.TaskDone = prev }()
	start := time.Now()
	_, err := pool.RunTasks(ctx, tasks)
	m.Elapsed = time.Since(start).Round(time.Second).String()
	for i := range m.Cells {
		m.Cells[i].Detail = results.Printable(m.Cells[i].Detail)
	}
	m.JudgeAll()
	return m, err
}

// cellOf turns a task's result into the cell.
func cellOf(c Cell, r worker.TaskResult, quick bool) Cell {
	c.Facts = map[string]string{}
	if r.PeakRSS > 0 {
		c.Facts[FactPeakRSS] = strconv.FormatUint(r.PeakRSS, 10)
	}
	worst := -1
	switch {
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
			return c
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
		return c
	}
	info, err := registry.Lookup(c.Codec)
	if err != nil {
		return c
	}
	seed, in := Inputs(info, c.Case, quick)
	c.Facts[FactSeed] = seed
	if c.Facts[FactInputs] == "" {
		c.Facts[FactInputs] = strconv.Itoa(len(in))
	}
	if worst < len(in) {
		data := in[worst].Data
		c.Repro = &results.Reproducer{Size: len(data), Hex: hex.Dump(data[:min(len(data), 128)]), Data: data}
	}
	return c
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
	for i, input := range in {
		step(strconv.Itoa(i))
		o, detail, alloc := decode(info, s, input)
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

// decode decodes one input with the seed's Case and says what happened,
// with the bytes the decoder allocated or grew the resident set by,
// whichever is more.
func decode(info codec.Info, s *seed, in Input) (o Outcome, detail string, alloc uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resetPeakRSS()
	rss0, _ := rss()
	err, panicked := call(func() error { return s.c.Decode(in.Data) })
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
	var got any
	err, panicked = call(func() error {
		var err error
		got, err = s.c.Value()
		return err
	})
	switch {
	case panicked:
		return Panic, err.Error(), alloc
	case err != nil:
		return Clean, err.Error(), alloc
	}
	if err := verify.Equal(s.value, got, info.Losses); err != nil {
		return Changed, "decoded without an error to another value", alloc
	}
	if in.Valid {
		return OK, "", alloc
	}
	return Accepted, "decoded without an error to the value of the valid encoding", alloc
}

// call calls f, recovering a panic as an error.
func call(f func() error) (err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			err, panicked = fmt.Errorf("panic: %v", r), true
		}
	}()
	return f(), false
}
