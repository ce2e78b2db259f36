package hostile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// FuzzEnv names the environment variable that selects the codec
// FuzzDecode (package hostile/fuzzing) fuzzes.
const FuzzEnv = "SERBENCH_FUZZ_CODEC"

// FuzzDecoder returns the decode of the fuzz class for info: its input
// decoded into a map[string]any where the codec can, else the codec's
// default seed's type, and the value taken; nil when the codec encodes
// no seed value.
func FuzzDecoder(info codec.Info) func([]byte) error {
	cl, _ := LookupClass(ClassFuzz)
	s := newSeed(info, cl.seed, true, false)
	if s == nil {
		return nil
	}
	return func(data []byte) error {
		if err := s.c.Decode(data); err != nil {
			return err
		}
		_, err := s.c.Value()
		return err
	}
}

// FuzzSeeds returns the fuzz target's seed corpus for info: the codec's
// own encodings of the datasets' values it encodes, at least one.
func FuzzSeeds(info codec.Info) [][]byte {
	var out [][]byte
	seen := map[string]bool{}
	for _, k := range []seedKind{seedGeneric, seedDefault} {
		for _, name := range append(candidates[seedDefault], otherCandidates...) {
			var s *seed
			if k == seedGeneric {
				s = newSeed(info, k, true, false)
			} else if v, err := datasetValue(name); err == nil {
				s = encodeSeed(info, name, v, false)
			}
			if s != nil && !seen[string(s.valid)] {
				seen[string(s.valid)] = true
				out = append(out, s.valid)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, []byte{})
	}
	return out
}

// FuzzOptions set a fuzzing campaign: coverage-guided fuzzing of each
// codec's decoder with go test -fuzz, for Budget each.
type FuzzOptions struct {
	Budget time.Duration
	// Source is the directory of serbench's module (its go.mod); default:
	// found from the working directory up.
	Source string
	// Progress, if set, is called with each codec's campaign once all
	// have ended.
	Progress func(FuzzStat)
}

// A FuzzStat is what fuzzing one codec did: how long it ran, its CPU
// time (the fuzzing processes', as the kernel counts it), and the
// crashers it kept, each minimised by go test -fuzz.
type FuzzStat struct {
	Codec    string        `json:"codec"`
	Elapsed  time.Duration `json:"elapsed"`
	CPU      time.Duration `json:"cpu"`
	Crashers []External    `json:"crashers,omitempty"`
	// Err says why the campaign of the codec ended early, if it did.
	Err string `json:"error,omitempty"`
}

// maxCrashers bounds the crashers one codec's campaign keeps: go test
// -fuzz stops at each, and is started again for the rest of the budget.
const maxCrashers = 8

// A fuzzTask is a fuzzing child's work: build the target, or fuzz one
// codec with it.
type fuzzTask struct {
	Build  bool          `json:"build,omitempty"`
	Source string        `json:"source"`
	Binary string        `json:"binary"`
	Dir    string        `json:"dir,omitempty"`
	Budget time.Duration `json:"budget,omitempty"`
}

// fuzz runs a campaign, the study's Before's first part (Options.Fuzz):
// it builds FuzzDecode with go test -c -fuzz in a worker child (go run as
// worker.External) through run, then fuzzes each codec in a worker child
// of its own (under the caps of every hostile cell, which the fuzzing
// processes inherit, and the target's own stack cap), for opts.Budget,
// with one fuzzing worker so that the budget is its CPU time too. A
// crasher stops go test -fuzz; it is kept, and fuzzing starts again for
// the rest of the budget. The crashers are inputs of the fuzz class.
func fuzz(ctx context.Context, codecs []codec.Info, run func(context.Context, []study.Task) ([]worker.TaskResult, error), opts FuzzOptions) ([]FuzzStat, error) {
	if opts.Budget <= 0 {
		return nil, errors.New("hostile: a fuzzing budget must be positive")
	}
	if len(codecs) == 0 {
		return nil, nil
	}
	src := opts.Source
	if src == "" {
		var err error
		if src, err = moduleDir(); err != nil {
			return nil, err
		}
	}
	tmp, err := os.MkdirTemp("", "serbench-fuzz-")
	if err != nil {
		return nil, fmt.Errorf("hostile: -fuzz: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "fuzzing.test")
	// The build runs as a default process: the compiler's memory is not
	// a decoder's.
	in, _ := json.Marshal(cellTask{Replay: -1, Fuzz: &fuzzTask{Build: true, Source: src, Binary: bin}})
	res, err := run(ctx, []study.Task{{Codec: codecs[0], Case: ClassFuzz, Input: in, Limits: worker.Limits{Uncapped: true}}})
	if err != nil {
		return nil, err
	}
	if r := res[0]; r.Exit != nil || r.Err != "" {
		why := r.Err
		if r.Exit != nil {
			why = r.Exit.String()
		}
		return nil, fmt.Errorf("hostile: -fuzz: building the fuzz target: %s", why)
	}
	tasks := make([]study.Task, len(codecs))
	for i, c := range codecs {
		in, _ := json.Marshal(cellTask{Replay: -1, Fuzz: &fuzzTask{Source: src, Binary: bin, Dir: filepath.Join(tmp, c.Name), Budget: opts.Budget}})
		tasks[i] = study.Task{Codec: c, Case: ClassFuzz, Input: in}
	}
	res, err = run(ctx, tasks)
	if err != nil {
		return nil, err
	}
	stats := make([]FuzzStat, len(codecs))
	for i, r := range res {
		st := FuzzStat{Codec: codecs[i].Name, CPU: r.CPU}
		switch {
		case r.Exit != nil:
			st.Err = "the fuzzing child died: " + r.Exit.String()
		case r.Err != "":
			st.Err = r.Err
		default:
			var got FuzzStat
			if err := json.Unmarshal(r.Output, &got); err != nil {
				st.Err = err.Error()
				break
			}
			st.Elapsed, st.Crashers, st.Err = got.Elapsed, got.Crashers, got.Err
			st.CPU += got.CPU
		}
		stats[i] = st
		if opts.Progress != nil {
			opts.Progress(st)
		}
	}
	return stats, nil
}

// moduleDir returns the directory of serbench's go.mod, from the working
// directory up.
func moduleDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module "+module+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("hostile: -fuzz builds its fuzz target with go test -fuzz from serbench's source: run it inside a clone of " + module + ", with a Go toolchain")
		}
		dir = parent
	}
}

// module is serbench's module path.
const module = "github.com/serbench/serbench"

// runFuzz is the child's side of a fuzzTask.
func runFuzz(ctx context.Context, codecName string, t *fuzzTask, step func(string)) (json.RawMessage, error) {
	stop := beating(step, "fuzzing")
	defer stop()
	if t.Build {
		cmd := worker.External(ctx, t.Source, "go", "test", "-c", "-vet=off", "-fuzz=^FuzzDecode$", "-o", t.Binary, "./hostile/fuzzing")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go test -c -fuzz: %v: %s", err, lastLines(out))
		}
		return json.Marshal(true)
	}
	if err := os.MkdirAll(t.Dir, 0o755); err != nil {
		return nil, err
	}
	st := FuzzStat{Codec: codecName}
	start := time.Now()
	corpus := filepath.Join(t.Dir, "testdata", "fuzz", "FuzzDecode")
	for len(st.Crashers) < maxCrashers {
		left := t.Budget - time.Since(start)
		if left < time.Second {
			break
		}
		cmd := worker.External(ctx, t.Dir, t.Binary, "-test.run=^$", "-test.fuzz=^FuzzDecode$", "-test.fuzztime="+left.Round(time.Second).String(),
			"-test.parallel=1", "-test.fuzzminimizetime=10s", "-test.fuzzcachedir="+filepath.Join(t.Dir, "cache"))
		cmd.Env = append(os.Environ(), FuzzEnv+"="+codecName)
		out, err := cmd.CombinedOutput()
		if cmd.ProcessState != nil {
			st.CPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		found, rerr := takeCrashers(corpus, filepath.Join(t.Dir, "found"))
		if rerr != nil {
			return nil, rerr
		}
		st.Crashers = append(st.Crashers, found...)
		if err == nil {
			break // the budget ran out without a crasher
		}
		if len(found) == 0 {
			// A seed that fails is not written as a crasher: it is one of
			// FuzzSeeds, computed here again.
			if seed, ok := failedSeed(out, codecName); ok {
				st.Crashers = append(st.Crashers, seed)
			} else {
				st.Err = fmt.Sprintf("go test -fuzz failed without a crasher: %v: %s", err, lastLines(out))
			}
			break
		}
	}
	st.Elapsed = time.Since(start).Round(time.Second)
	return json.Marshal(st)
}

// failedSeed returns the seed of the fuzz target that go test -fuzz's
// output says failed ("failure while testing seed corpus entry:
// FuzzDecode/seed#N").
func failedSeed(out []byte, codecName string) (External, bool) {
	_, rest, ok := strings.Cut(string(out), "seed corpus entry: FuzzDecode/seed#")
	if !ok {
		return External{}, false
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.Atoi(rest[:end])
	info, lerr := registry.Lookup(codecName)
	if err != nil || lerr != nil {
		return External{}, false
	}
	if seeds := FuzzSeeds(info); n < len(seeds) {
		return External{Name: "fuzz/seed#" + rest[:end], Data: seeds[n]}, true
	}
	return External{}, false
}

// takeCrashers reads the crashers go test -fuzz wrote into dir, and moves
// them to into, so that the next run does not fail on them at once.
func takeCrashers(dir, into string) ([]External, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(into, 0o755); err != nil {
		return nil, err
	}
	var out []External
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		data, err := corpusEntry(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, External{Name: "fuzz/" + e.Name(), Data: data})
		if err := os.Rename(path, filepath.Join(into, e.Name())); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fuzzV1 is the first line of a go test fuzz corpus file.
const fuzzV1 = "go test fuzz v1"

// corpusEntry reads a go test fuzz corpus file of one []byte value.
func corpusEntry(b []byte) ([]byte, error) {
	text := strings.TrimSpace(string(b))
	head, rest, _ := strings.Cut(text, "\n")
	if head != fuzzV1 {
		return nil, errors.New("not a go test fuzz v1 file")
	}
	lit, ok := strings.CutPrefix(strings.TrimSpace(rest), "[]byte(")
	lit, ok2 := strings.CutSuffix(lit, ")")
	if !ok || !ok2 {
		return nil, errors.New("not one []byte value")
	}
	s, err := strconv.Unquote(lit)
	return []byte(s), err
}

// beating calls step every few seconds until stopped: a child waiting on
// a process of its own shows the parent that it lives.
func beating(step func(string), what string) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				step(what)
			}
		}
	}()
	return func() { close(done) }
}

// lastLines returns the end of a command's output.
func lastLines(out []byte) string {
	s := strings.TrimSpace(string(out))
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}

// FuzzFindings says, for each codec whose fuzz cell failed the library
// (a crash, a hang, a memory blow-up or a panic), whether the matrix's
// classes had found the same already: "new to the matrix" when none of
// the codec's other cells has that outcome and crash kind.
func FuzzFindings(m *Matrix) []string {
	var out []string
	for _, c := range m.Cells {
		if c.Case != ClassFuzz || clean(c.Outcome) || c.Outcome == Changed || c.Outcome == Accepted || c.Outcome == CheckFailed || c.Outcome == Starved {
			continue
		}
		var also []string
		for _, o := range m.Cells {
			if o.Codec == c.Codec && o.Case != ClassFuzz && o.Outcome == c.Outcome && o.Note == c.Note {
				also = append(also, o.Case)
			}
		}
		what := string(c.Outcome)
		if c.Note != "" {
			what += " (" + c.Note + ")"
		}
		if len(also) == 0 {
			out = append(out, fmt.Sprintf("fuzz %s: %s, new to the matrix", c.Codec, what))
		} else {
			out = append(out, fmt.Sprintf("fuzz %s: %s, as the classes %s found", c.Codec, what, strings.Join(also, ", ")))
		}
	}
	return out
}
