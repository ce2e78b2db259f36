package cost

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// A Runner measures what adopting codecs costs (see the package doc).
type Runner struct {
	// Root is serbench's repository, whose packages the mains import.
	Root string
	// Command returns the command that starts a child serving Handler and
	// DeterminismTask. Default: worker.Pool's.
	Command func() *exec.Cmd
	// Runs is how many cold builds of each main are timed. Default
	// DefaultRuns.
	Runs int
	// Parallel is how many children run at once. Default 1: builds
	// beside each other share the machine's cores.
	Parallel int
	// Timeout is how long one build may take. Default DefaultTimeout.
	Timeout time.Duration
	// Fetcher and Proxy ask the module proxy about upkeep. Default: an
	// HTTPFetcher and GOPROXY's first proxy; Proxy "off" asks nothing.
	Fetcher Fetcher
	Proxy   string
	// Now is the time pinned versions' ages are measured at. Default
	// time.Now.
	Now func() time.Time
	// Progress, if set, is told what the runner is doing.
	Progress func(string)
}

// DefaultRuns is the default number of cold builds per main: the fewest
// whose median benchmath gives a 95% interval for.
const DefaultRuns = 6

// DefaultTimeout is the default time one cold build may take: the
// largest libraries take over a minute of CPU on a loaded machine.
const DefaultTimeout = 10 * time.Minute

// A Row is what the study measured of one codec.
type Row struct {
	Codec   string  `json:"codec"`
	Adapter Adapter `json:"adapter"`
	// Dataset is the dataset whose value the codec's main encodes.
	Dataset string `json:"dataset"`
	// Binary is the main's size in bytes; Added is Binary less the
	// baseline's.
	Binary int64 `json:"binary"`
	Added  int64 `json:"added"`
	// Build is the CPU-seconds of a cold build of the main, its median
	// and 95% interval over Runs builds; BuildAdded is its median less
	// the baseline's.
	Build      results.Stat `json:"build_cpu_s"`
	BuildRuns  []float64    `json:"build_runs,omitempty"`
	BuildAdded float64      `json:"build_added_cpu_s"`
	Deps       Dependencies `json:"deps"`
	Code       Code         `json:"code"`
	Det        Determinism  `json:"determinism"`
	// Fresh says the encoding's hash was the same in two processes.
	Fresh  bool   `json:"fresh"`
	Upkeep Upkeep `json:"upkeep"`
	// Contradicted lists the declarations (codec.Adoption) the
	// measurement contradicts.
	Contradicted []string `json:"contradicted,omitempty"`
	// Errors lists what could not be measured, and why.
	Errors []string `json:"errors,omitempty"`
}

// A Measurement is the study's result: a row per codec and the
// baseline's figures.
type Measurement struct {
	Rows          []Row        `json:"rows"`
	BaselineBytes int64        `json:"baseline_bytes"`
	BaselineBuild results.Stat `json:"baseline_build_cpu_s"`
	Runs          int          `json:"runs"`
	Elapsed       time.Duration
	// Now is when the pinned versions' ages are measured.
	Now time.Time
}

func (r *Runner) progress(format string, args ...any) {
	if r.Progress != nil {
		r.Progress(fmt.Sprintf(format, args...))
	}
}

// Measure measures every codec of infos. Failures of one codec are
// recorded in its row; an error is returned only when nothing can be
// measured (no repository, a go command that fails on the baseline) or
// ctx is done.
func (r *Runner) Measure(ctx context.Context, infos []codec.Info) (*Measurement, error) {
	start := time.Now()
	names := make([]string, len(infos))
	for i, c := range infos {
		names[i] = c.Name
	}
	adapters, err := Locate(r.Root, names)
	if err != nil {
		return nil, err
	}
	pool := &worker.Pool{Command: r.Command, Parallel: r.Parallel, TaskTimeout: cmp.Or(r.Timeout, DefaultTimeout)}
	rows := make([]Row, len(infos))
	for i, c := range infos {
		rows[i] = Row{Codec: c.Name, Adapter: adapters[c.Name]}
	}

	r.progress("determinism: %d codecs, two children each", len(infos))
	if err := r.determinism(ctx, pool, rows); err != nil {
		return nil, err
	}

	w, err := NewWorkspace(r.Root)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	base, err := w.Add(Baseline, nil, "tiny")
	if err != nil {
		return nil, err
	}
	mains := make([]*Main, len(rows))
	for i := range rows {
		a := rows[i].Adapter
		rows[i].Dataset = cmp.Or(rows[i].Det.Sizable, "tiny")
		if mains[i], err = w.Add(rows[i].Codec, &a, rows[i].Dataset); err != nil {
			return nil, err
		}
	}

	r.progress("dependencies")
	baseDeps, err := w.Deps(ctx, base)
	if err != nil {
		return nil, err
	}
	m := &Measurement{Runs: cmp.Or(r.Runs, DefaultRuns)}
	std := map[string]bool{}
	addStd := func(pkgs []Package) {
		for _, p := range pkgs {
			if p.Standard {
				std[p.ImportPath] = true
			}
		}
	}
	addStd(baseDeps)
	built := make([]bool, len(rows))
	for i := range rows {
		row := &rows[i]
		pkgs, err := w.Deps(ctx, mains[i])
		if err != nil {
			row.Errors = append(row.Errors, err.Error())
			continue
		}
		addStd(pkgs)
		row.Deps = Added(pkgs, baseDeps)
		row.Code = CountCode(row.Deps.Serbench)
		built[i] = true
	}

	r.progress("seeding a build cache with the standard library (%d packages) and the baseline", len(std))
	seed, err := w.Seed(ctx, slices.Sorted(maps.Keys(std)))
	if err != nil {
		return nil, err
	}
	// The sizes are built with a cache of their own, seeded alike, so
	// that the user's cache is left as it was.
	warm := filepath.Join(w.Dir, "size-cache")
	if err := linkTree(seed, warm); err != nil {
		return nil, fmt.Errorf("cost: %w", err)
	}
	if m.BaselineBytes, err = w.Size(ctx, base, warm); err != nil {
		return nil, err
	}
	for i := range rows {
		if !built[i] {
			continue
		}
		row := &rows[i]
		if row.Binary, err = w.Size(ctx, mains[i], warm); err != nil {
			row.Errors = append(row.Errors, err.Error())
			built[i] = false
			continue
		}
		row.Added = row.Binary - m.BaselineBytes
		r.progress("size %s: %d bytes added", row.Codec, row.Added)
	}
	if err := r.builds(ctx, pool, w, seed, base, mains, built, rows, m); err != nil {
		return nil, err
	}

	r.progress("upkeep from the module proxy")
	r.upkeep(ctx, infos, rows)
	for i := range rows {
		rows[i].Contradicted = Contradictions(infos[i].Adopt, rows[i])
	}
	m.Rows = rows
	m.Elapsed = time.Since(start)
	m.Now = time.Now()
	if r.Now != nil {
		m.Now = r.Now()
	}
	return m, ctx.Err()
}

// determinism runs DeterminismTask twice for each codec, each in a child
// of its own, and records the first child's findings and whether the two
// hashes agree.
func (r *Runner) determinism(ctx context.Context, pool *worker.Pool, rows []Row) error {
	var tasks []worker.Task
	for _, row := range rows {
		in, _ := json.Marshal(row.Codec)
		tasks = append(tasks, worker.Task{Name: DeterminismTask, Input: in}, worker.Task{Name: DeterminismTask, Input: in})
	}
	got := make([]Determinism, len(tasks))
	_, err := pool.RunTasksEach(ctx, tasks, func(i int, res worker.TaskResult) {
		row := &rows[i/2]
		switch {
		case res.Exit != nil:
			row.Errors = append(row.Errors, fmt.Sprintf("determinism: the child died (%s): %s", res.Exit.Kind, res.Exit.Detail))
		case res.Err != "":
			row.Errors = append(row.Errors, "determinism: "+res.Err)
		default:
			if err := json.Unmarshal(res.Output, &got[i]); err != nil {
				row.Errors = append(row.Errors, "determinism: unreadable output of the child: "+err.Error())
			}
		}
	})
	if err != nil {
		return fmt.Errorf("cost: %w", err)
	}
	for k := range rows {
		a, b := got[2*k], got[2*k+1]
		rows[k].Det = a
		rows[k].Fresh = a.Hash != "" && a.Hash == b.Hash
	}
	return nil
}

// builds times Runs cold builds of the baseline and of every main that
// built, round by round (every main once, then again), so that a change
// of the machine's load falls on all of them alike.
func (r *Runner) builds(ctx context.Context, pool *worker.Pool, w *Workspace, seed string, base *Main, mains []*Main, built []bool, rows []Row, m *Measurement) error {
	type job struct{ row int } // -1: the baseline
	var tasks []worker.Task
	var jobs []job
	limits := worker.JobLimits()
	add := func(dir string, row int) {
		in, _ := json.Marshal(buildInput{Work: w.Dir, Dir: dir, Seed: seed})
		tasks = append(tasks, worker.Task{Name: BuildTask, Input: in, Limits: limits})
		jobs = append(jobs, job{row})
	}
	for range m.Runs {
		add(base.Dir, -1)
		for i, mm := range mains {
			if built[i] {
				add(mm.Dir, i)
			}
		}
	}
	var baseRuns []float64
	runs := make([][]float64, len(rows))
	done := 0
	_, err := pool.RunTasksEach(ctx, tasks, func(i int, res worker.TaskResult) {
		done++
		j := jobs[i]
		var out buildOutput
		var why string
		switch {
		case res.Exit != nil:
			why = fmt.Sprintf("cold build: the child died (%s): %s", res.Exit.Kind, res.Exit.Detail)
		case res.Err != "":
			why = "cold build: " + res.Err
		default:
			if err := json.Unmarshal(res.Output, &out); err != nil {
				why = "cold build: unreadable output of the child: " + err.Error()
			}
		}
		name := Baseline
		if j.row >= 0 {
			name = rows[j.row].Codec
		}
		switch {
		case why != "" && j.row >= 0:
			if !slices.Contains(rows[j.row].Errors, why) {
				rows[j.row].Errors = append(rows[j.row].Errors, why)
			}
		case why != "":
		case j.row < 0:
			baseRuns = append(baseRuns, out.CPU)
		default:
			runs[j.row] = append(runs[j.row], out.CPU)
		}
		r.progress("cold build %d/%d: %s %.2f CPU-s", done, len(tasks), name, out.CPU)
	})
	if err != nil {
		return fmt.Errorf("cost: %w", err)
	}
	m.BaselineBuild = results.Summarize(baseRuns, 0.95)
	for i := range rows {
		if len(runs[i]) == 0 {
			continue
		}
		rows[i].BuildRuns = runs[i]
		rows[i].Build = results.Summarize(runs[i], 0.95)
		rows[i].BuildAdded = rows[i].Build.Median - m.BaselineBuild.Median
	}
	return nil
}

// upkeep asks the module proxy about each codec's module, once per
// module.
func (r *Runner) upkeep(ctx context.Context, infos []codec.Info, rows []Row) {
	proxy := r.Proxy
	switch proxy {
	case "":
		proxy = Proxy(ctx)
	case "off":
		proxy = ""
	}
	f := r.Fetcher
	if f == nil {
		f = HTTPFetcher{}
	}
	seen := map[string]Upkeep{}
	for i, info := range infos {
		mod := info.Module
		if mod == "" || mod == "std" {
			rows[i].Upkeep = Upkeep{Module: "std", Unknown: "ships with Go"}
			continue
		}
		u, ok := seen[mod]
		if !ok {
			u = CheckUpkeep(ctx, f, proxy, mod, pinned(rows[i].Deps, mod))
			seen[mod] = u
		}
		rows[i].Upkeep = u
	}
}

// pinned returns the version of mod among deps' modules, or of the
// module whose path mod starts with.
func pinned(d Dependencies, mod string) string {
	for _, m := range d.Modules {
		if m.Path == mod || strings.HasPrefix(mod, m.Path+"/") {
			return m.Version
		}
	}
	return ""
}

// Contradictions returns what row's measurement contradicts of a
// codec's declarations: JIT declared without a dependency that maps
// memory executable, or such a dependency undeclared; a generator
// declared without generated code, or generated code without a
// generator declared.
func Contradictions(a codec.Adoption, row Row) []string {
	var out []string
	if row.Deps.Packages+row.Deps.Std+len(row.Deps.Serbench) == 0 {
		return nil // not measured
	}
	switch {
	case a.JIT != "" && len(row.Deps.JIT) == 0:
		out = append(out, "declares JIT, but none of its packages maps memory executable")
	case a.JIT == "" && len(row.Deps.JIT) > 0:
		out = append(out, "declares no JIT, but "+strings.Join(row.Deps.JIT, ", ")+" maps memory executable: declare it in Info.Adopt.JIT")
	}
	switch {
	case a.Generator != "" && row.Code.Generated == 0:
		out = append(out, "declares generator "+a.Generator+", but none of its code is generated")
	case a.Generator == "" && row.Code.Generated > 0:
		out = append(out, fmt.Sprintf("has %d generated lines (by %s) but declares no generator: declare it in Info.Adopt.Generator", row.Code.Generated, cmp.Or(strings.Join(row.Code.Tools, ", "), "a tool")))
	}
	return out
}
