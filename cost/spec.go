package cost

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// Options are the cost study's own options.
type Options struct {
	// Root is the serbench checkout whose adapters the mains import.
	Root string
	// Runs is how many cold builds of each main are timed. Default
	// DefaultRuns.
	Runs int
	// Proxy is the module proxy asked about upkeep: a URL, "" for
	// GOPROXY's first, or "off" to ask nothing (the column says so).
	Proxy string
	// Now is when the pinned versions' ages and the latest releases' are
	// measured. Default time.Now.
	Now func() time.Time
	// Seed is the build cache seeded with the standard library and the
	// baseline, kept between runs since it holds nothing of a codec.
	// Default: serbench/cost-seed in the user's cache directory, or one
	// in the run's workspace when there is none.
	Seed string
}

// DefaultRuns is the default number of cold builds per main: the fewest
// whose median benchmath gives a 95% interval for.
const DefaultRuns = 6

// DefaultTimeout is the default time one step (a cold build) may take:
// the largest libraries take over a minute of CPU on a loaded machine.
const DefaultTimeout = 10 * time.Minute

// Spec returns the cost study as a value on the study driver (package
// study): every registered codec takes part, each cell in a child of its
// own. The parent prepares each codec's main in a workspace outside the
// tree when its first task is made (Study.Input), extending a build
// cache seeded with the standard library packages the mains need and the
// baseline's; the children build, list, encode and ask the module proxy;
// Record turns what they found into cells; After removes the workspace.
func Spec(o Options) *study.Study {
	e := &env{opts: o, runs: cmp.Or(o.Runs, DefaultRuns)}
	return &study.Study{
		Matrix:   Definition,
		Cases:    Cases,
		CaseList: "costs",
		Takes:    func(codec.Info) string { return "" }, // every codec costs something to adopt
		Timeout:  DefaultTimeout,
		Step:     "one build",
		Settings: []string{fmt.Sprintf("%d cold builds per main, each with a build cache of its own seeded with the standard library and the baseline", e.runs),
			"binaries built -trimpath -ldflags='-s -w'"},
		Input:  e.input,
		Cell:   runCell,
		Record: e.record,
		After:  e.after,
	}
}

// env is the parent's side of a run: the workspace, its mains and the
// seeded cache, made as the first tasks of each codec need them.
type env struct {
	opts Options
	runs int

	mu       sync.Mutex
	prepared bool
	err      error
	w        *Workspace
	adapters map[string]Adapter
	base     *Main
	seed     string
	seeded   map[string]bool
	warm     string // the binary cells' shared cache: the seed and the codecs' packages
	proxy    string
}

// cellInput is what a cell's child is given.
type cellInput struct {
	Root  string `json:"root,omitempty"` // the checkout, for upkeep's pinned version
	Work  string `json:"work,omitempty"`
	Dir   string `json:"dir,omitempty"`  // the codec's main
	Base  string `json:"base,omitempty"` // the baseline's
	Seed  string `json:"seed,omitempty"`
	Warm  string `json:"warm,omitempty"`
	Proxy string `json:"proxy,omitempty"`
	// Err says why the codec's main could not be prepared: the child
	// returns it.
	Err string `json:"err,omitempty"`
}

// input prepares c's codec's main, once, and returns what its cells'
// children need. The deterministic and upkeep cases need no main: they
// prepare nothing.
func (e *env) input(c *study.Cell) any {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch c.Case.Name {
	case CaseDeterministic:
		return cellInput{}
	case CaseUpkeep:
		if e.proxy == "" && e.opts.Proxy != "off" {
			e.proxy = cmp.Or(e.opts.Proxy, Proxy(context.Background()))
		}
		return cellInput{Root: e.opts.Root, Proxy: e.proxy}
	}
	m, err := e.prepare(c.Codec)
	if err != nil {
		return cellInput{Err: err.Error()}
	}
	return cellInput{Work: e.w.Dir, Dir: m.Dir, Base: e.base.Dir, Seed: e.seed, Warm: e.warm, Proxy: e.proxy}
}

// prepare makes the workspace and the baseline on its first call, and
// codec info's main on the first for it, seeding the cache with the
// standard library packages the main needs that it lacks.
func (e *env) prepare(info codec.Info) (*Main, error) {
	if !e.prepared {
		e.prepared = true
		e.err = e.start()
	}
	if e.err != nil {
		return nil, e.err
	}
	if m := e.w.Mains[info.Name]; m != nil {
		return m, nil
	}
	a, ok := e.adapters[info.Name]
	if !ok {
		return nil, fmt.Errorf("cost: no adapter package of %s found under %s/codecs", info.Name, e.opts.Root)
	}
	m, err := e.w.Add(info.Name, &a, mainDataset(info))
	if err != nil {
		return nil, err
	}
	pkgs, err := e.w.Deps(context.Background(), m)
	if err != nil {
		return nil, err
	}
	return m, e.seedStd(pkgs)
}

// start makes the workspace, the baseline and the seeded cache.
func (e *env) start() error {
	root := e.opts.Root
	if root == "" {
		return fmt.Errorf("cost: no serbench checkout named (Options.Root)")
	}
	var err error
	if e.adapters, err = Locate(root, registry.Names()); err != nil && len(e.adapters) == 0 {
		return err
	}
	if e.w, err = NewWorkspace(root); err != nil {
		return err
	}
	if e.base, err = e.w.Add(Baseline, nil, "tiny"); err != nil {
		return err
	}
	e.seed, e.seeded, e.warm = e.opts.Seed, map[string]bool{}, filepath.Join(e.w.Dir, "size-cache")
	if e.seed == "" {
		e.seed = filepath.Join(e.w.Dir, "seed-cache")
		if dir, err := os.UserCacheDir(); err == nil {
			e.seed = filepath.Join(dir, "serbench", "cost-seed")
		}
	}
	pkgs, err := e.w.Deps(context.Background(), e.base)
	if err != nil {
		return err
	}
	if err := e.seedStd(pkgs); err != nil {
		return err
	}
	if err := e.w.Seed(context.Background(), e.seed, nil, e.base); err != nil {
		return err
	}
	if err := linkTree(e.seed, e.warm); err != nil {
		return fmt.Errorf("cost: copying the seeded cache: %w", err)
	}
	return nil
}

// seedStd builds the standard library packages of pkgs that the seed
// lacks into it.
func (e *env) seedStd(pkgs []Package) error {
	var std []string
	for _, p := range pkgs {
		if p.Standard && !e.seeded[p.ImportPath] {
			std = append(std, p.ImportPath)
		}
	}
	if len(std) == 0 {
		return nil
	}
	if err := e.w.Seed(context.Background(), e.seed, std, nil); err != nil {
		return err
	}
	for _, p := range std {
		e.seeded[p] = true
	}
	// The binary cells share a cache that holds the seed and the codecs'
	// packages as they are built: sizes need no cold build.
	if err := linkTree(e.seed, e.warm); err != nil {
		return fmt.Errorf("cost: copying the seeded cache: %w", err)
	}
	return nil
}

// mainDataset returns the dataset a codec's main encodes: the first
// whose type has no feature the codec declares unsupported and that it
// does not omit, judged from its declarations alone (the main is built,
// never run).
func mainDataset(info codec.Info) string {
	for _, d := range dataset.All {
		if _, omitted := info.Omits[d.Name]; omitted || d.XLSlices {
			continue
		}
		if info.Supports(d.Type().String(), codec.FeaturesOf(d.Type())) == nil {
			return d.Name
		}
	}
	return "tiny"
}

// after removes the workspace; a next run of the same value makes
// another.
func (e *env) after(context.Context, *results.Matrix) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.w != nil {
		e.w.Close()
	}
	e.prepared, e.w, e.err = false, nil, nil
	return nil
}

// The children's outputs, one per kind of case.
type (
	binaryOut struct {
		Binary   int64 `json:"binary"`
		Baseline int64 `json:"baseline"`
	}
	buildOut struct {
		CPU     float64 `json:"cpu_s"`
		BaseCPU float64 `json:"base_cpu_s"`
	}
	depsOut struct {
		Deps Dependencies `json:"deps"`
		Code Code         `json:"code"`
	}
)

// runCell is the child's side: one case through one codec.
func runCell(ctx context.Context, t study.Task, step func(string)) (any, error) {
	var in cellInput
	if len(t.Input) > 0 {
		if err := json.Unmarshal(t.Input, &in); err != nil {
			return nil, fmt.Errorf("cost: reading the task: %w", err)
		}
	}
	if in.Err != "" && t.Case != CaseDeterministic {
		return nil, fmt.Errorf("%s", in.Err)
	}
	w := &Workspace{Dir: in.Work}
	switch t.Case {
	case CaseBinary:
		// Go's build cache is safe for builds beside each other: the
		// binary cells share one, so that a library two codecs use is
		// compiled once.
		step("build")
		var out binaryOut
		var err error
		if out.Baseline, err = w.Size(ctx, &Main{Codec: Baseline, Dir: in.Base}, in.Warm); err != nil {
			return nil, err
		}
		out.Binary, err = w.Size(ctx, &Main{Codec: t.Codec.Name, Dir: in.Dir}, in.Warm)
		return out, err
	case CaseBuild:
		var out buildOut
		var err error
		step("cold build of the baseline")
		if out.BaseCPU, err = coldBuild(ctx, in.Work, in.Base, in.Seed); err != nil {
			return nil, err
		}
		step("cold build")
		out.CPU, err = coldBuild(ctx, in.Work, in.Dir, in.Seed)
		return out, err
	case CaseDeps, CaseUnsafe, CaseCode:
		step("go list")
		pkgs, err := w.Deps(ctx, &Main{Codec: t.Codec.Name, Dir: in.Dir})
		if err != nil {
			return nil, err
		}
		base, err := w.Deps(ctx, &Main{Codec: Baseline, Dir: in.Base})
		if err != nil {
			return nil, err
		}
		d := Added(pkgs, base)
		return depsOut{Deps: d, Code: CountCode(d.Serbench)}, nil
	case CaseDeterministic:
		return determine(t.Codec, step)
	case CaseUpkeep:
		if t.Codec.Module == "" || t.Codec.Module == "std" {
			return Upkeep{Module: "std"}, nil
		}
		step("go list")
		version, err := pinned(ctx, in.Root, t.Codec.Module)
		if err != nil {
			return nil, err
		}
		step("module proxy")
		return CheckUpkeep(ctx, HTTPFetcher{}, in.Proxy, t.Codec.Module, version), nil
	}
	return nil, fmt.Errorf("cost: no case %q", t.Case)
}

// pinned returns the version of module mod the checkout at root
// requires (go list -m).
func pinned(ctx context.Context, root, mod string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Version}}", mod)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := run(cmd)
	if err != nil {
		return "", fmt.Errorf("cost: the version of %s: %w", mod, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildState is what a build cell keeps between its runs.
type buildState struct {
	CPU, Base []float64
}

// record is the parent's side: it turns a child's answer into the cell,
// running a build cell again until it has its runs and a determinism
// cell once more, in a fresh process.
func (e *env) record(c *study.Cell, r worker.TaskResult) bool {
	info := c.Codec
	if why := study.Died(r); why != "" {
		c.Result.Outcome, c.Result.Detail = Unmeasured, why
		return false
	}
	switch c.Case.Name {
	case CaseBinary:
		var out binaryOut
		if !decode(c, r, &out) {
			return false
		}
		c.Result = binaryCell(out)
	case CaseBuild:
		var out buildOut
		if !decode(c, r, &out) {
			return false
		}
		st, _ := c.State.(*buildState)
		if st == nil {
			st = &buildState{}
			c.State = st
		}
		st.CPU, st.Base = append(st.CPU, out.CPU), append(st.Base, out.BaseCPU)
		c.Result = buildCell(st.CPU, st.Base)
		return len(st.CPU) < e.runs
	case CaseDeps, CaseUnsafe, CaseCode:
		var out depsOut
		if !decode(c, r, &out) {
			return false
		}
		switch c.Case.Name {
		case CaseDeps:
			c.Result = depsCell(out.Deps)
		case CaseUnsafe:
			c.Result = unsafeCell(info, out.Deps)
		default:
			c.Result = codeCell(info, out.Code)
		}
	case CaseDeterministic:
		var out Determinism
		if !decode(c, r, &out) {
			return false
		}
		first, ok := c.State.(Determinism)
		if !ok {
			c.State = out
			return out.Hash != "" // again, in a fresh process
		}
		c.Result = deterministicCell(info, first, first.Hash == out.Hash)
	case CaseUpkeep:
		var out Upkeep
		if !decode(c, r, &out) {
			return false
		}
		now := time.Now
		if e.opts.Now != nil {
			now = e.opts.Now
		}
		c.Result = upkeepCell(out, now())
	}
	return false
}

// decode reads a child's answer into v, or records the cell unmeasured.
func decode(c *study.Cell, r worker.TaskResult, v any) bool {
	if err := study.Decode(r, v); err != nil {
		c.Result.Outcome, c.Result.Detail = Unmeasured, err.Error()
		return false
	}
	return true
}
