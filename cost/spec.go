package cost

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	// Seed is the build cache seeded with the standard library, kept
	// between runs since it holds nothing of a codec. Default:
	// serbench/cost-seed-std in the user's cache directory, or one in the
	// run's workspace when there is none.
	Seed string
}

// DefaultRuns is the default number of cold builds per main: the fewest
// whose median benchmath gives a 95% interval for.
const DefaultRuns = 6

// DefaultTimeout is the default time one step (a package's compile in a
// cold build) may take: the largest packages take a minute of CPU, many
// times that in wall time on a loaded machine.
const DefaultTimeout = 20 * time.Minute

// Spec returns the cost study as a value on the study driver (package
// study): every registered codec takes part. Before the cells' rounds,
// the parent writes every codec's main into a workspace outside the
// tree, lists them all with one go list (the deps, unsafe and code
// cells), seeds a build cache with the standard library packages they
// need, and runs Runs cold builds of all the mains at once, each in a
// child (the binary and build cells); the deterministic and upkeep cells
// then run in children of their own. After removes the workspace.
func Spec(o Options) *study.Study {
	e := &env{opts: o, runs: cmp.Or(o.Runs, DefaultRuns)}
	return &study.Study{
		Matrix:   Definition,
		Cases:    Cases,
		CaseList: "costs",
		Takes:    func(codec.Info) string { return "" }, // every codec costs something to adopt
		Timeout:  DefaultTimeout,
		Step:     "one package's compile",
		Settings: []string{"every main in one go build, with a build cache of its own seeded with the standard library alone; " +
			"a main's CPU-seconds are its packages' compiles' and its link's (go build -toolexec)",
			"binaries built -trimpath -ldflags='-s -w'"},
		Before: e.before,
		Input:  e.input,
		Cell:   runCell,
		Record: e.record,
		After:  e.after,
	}
}

// caseColdBuild is the task of Before's children: one cold build of
// every main.
const caseColdBuild = "cold-build"

// env is the parent's side of a run: the workspace, its mains and the
// seeded cache.
type env struct {
	opts Options
	runs int

	mu       sync.Mutex
	w        *Workspace
	seed     string
	overhead []float64 // the go command's own CPU-seconds in each cold build
	mains    int
	proxy    string
}

// cellInput is what a cell's child is given.
type cellInput struct {
	Root  string `json:"root,omitempty"` // the checkout, for upkeep's pinned version
	Proxy string `json:"proxy,omitempty"`
	// Err says why the cell was not measured before its task: the child
	// returns it.
	Err string `json:"err,omitempty"`
}

// coldInput is what a cold build's child is given.
type coldInput struct {
	Work    string   `json:"work"`
	Seed    string   `json:"seed"`
	Wrapper string   `json:"wrapper"`
	Mains   []string `json:"mains"` // import paths
}

// input returns what a deterministic or upkeep cell's child needs. The
// other cases are measured in Before, which finishes their cells.
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
	return cellInput{Err: "cost: the " + c.Case.Name + " case is measured before the rounds, and was not"}
}

// A prepared is a codec's main and its packages, or why it has none.
type prepared struct {
	main *Main
	pkgs []Package
	why  string
}

// mainCases are the cases Before measures from the mains.
var mainCases = []string{CaseBinary, CaseBuild, CaseDeps, CaseUnsafe, CaseCode}

// before measures the cases of cells that read the mains: it prepares
// the mains of their codecs, fills the deps, unsafe and code cells from
// one go list, and the binary and build cells from cold builds of all
// the mains at once, run (in a child each, as many side by side as the
// pool runs) Runs times when a build cell is among them, once for the
// binaries alone.
func (e *env) before(ctx context.Context, cells []*study.Cell, run func(context.Context, []study.Task) ([]worker.TaskResult, error)) error {
	byCodec := map[string][]*study.Cell{}
	var infos []codec.Info
	builds, binaries := false, false
	for _, c := range cells {
		if !slices.Contains(mainCases, c.Case.Name) {
			continue
		}
		if byCodec[c.Codec.Name] == nil {
			infos = append(infos, c.Codec)
		}
		byCodec[c.Codec.Name] = append(byCodec[c.Codec.Name], c)
		builds = builds || c.Case.Name == CaseBuild
		binaries = binaries || c.Case.Name == CaseBinary
	}
	if len(infos) == 0 {
		return nil
	}
	// unmeasured finishes the cells of codec name of the cases given (all
	// when none) that have no outcome yet.
	unmeasured := func(name, why string, cases ...string) {
		for _, c := range byCodec[name] {
			if c.Result.Outcome == "" && (len(cases) == 0 || slices.Contains(cases, c.Case.Name)) {
				c.Result.Outcome, c.Result.Detail = Unmeasured, why
			}
		}
	}
	preps, base, err := e.prepare(ctx, infos)
	if err != nil {
		for _, info := range infos {
			unmeasured(info.Name, err.Error())
		}
		return nil
	}
	added := map[string]Dependencies{}
	for _, info := range infos {
		p := preps[info.Name]
		if p.why != "" {
			unmeasured(info.Name, p.why)
			continue
		}
		added[info.Name] = Added(p.pkgs, base.pkgs)
		d := added[info.Name]
		for _, c := range byCodec[info.Name] {
			switch c.Case.Name {
			case CaseDeps:
				c.Result = depsCell(d)
			case CaseUnsafe:
				c.Result = unsafeCell(info, d)
			case CaseCode:
				c.Result = codeCell(info, CountCode(d.Serbench))
			}
		}
	}
	if !builds && !binaries {
		return nil
	}
	wrapper, err := e.w.Toolexec(ctx)
	if err != nil {
		for _, info := range infos {
			unmeasured(info.Name, err.Error())
		}
		return nil
	}
	in := coldInput{Work: e.w.Dir, Seed: e.seed, Wrapper: wrapper, Mains: []string{base.main.ImportPath()}}
	for _, info := range infos {
		if p := preps[info.Name]; p.why == "" {
			in.Mains = append(in.Mains, p.main.ImportPath())
		}
	}
	runs := 1
	if builds {
		runs = e.runs
	}
	// The builds run at once, as many side by side as the pool runs
	// children: what each measures is CPU time, which a busy machine
	// moves little, and a long study on a loaded one gets its share of
	// the processors sooner.
	tasks := make([]study.Task, runs)
	for i := range tasks {
		tasks[i] = study.Task{Codec: infos[0], Case: caseColdBuild, Input: mustJSON(in)}
	}
	rs, err := run(ctx, tasks)
	if err != nil {
		// The driver runs no After when Before fails: the workspace goes
		// here.
		e.after(ctx, nil)
		return err
	}
	var accs []Accounting
	why := ""
	for _, r := range rs {
		if d := study.Died(r); d != "" {
			why = d
			continue
		}
		var a Accounting
		if err := study.Decode(r, &a); err != nil {
			why = err.Error()
			continue
		}
		accs = append(accs, a)
		e.overhead = append(e.overhead, a.Total-a.Tooled())
	}
	e.mains = len(in.Mains)
	for _, info := range infos {
		p := preps[info.Name]
		if p.why != "" {
			continue
		}
		var cpu, baseCPU []float64
		var failed string
		missing := 0
		for _, a := range accs {
			if _, ok := a.Sizes[p.main.ImportPath()]; !ok {
				failed = cmp.Or(a.Failed, "no binary")
				continue
			}
			for _, c := range byCodec[info.Name] {
				if c.Case.Name == CaseBinary && c.Result.Outcome == "" {
					c.Result = binaryCell(binaryOut{Binary: a.Sizes[p.main.ImportPath()], Baseline: a.Sizes[base.main.ImportPath()]})
				}
			}
			x, m := a.CPU(p.pkgs, p.main.ImportPath())
			b, _ := a.CPU(base.pkgs, base.main.ImportPath())
			cpu, baseCPU, missing = append(cpu, x), append(baseCPU, b), missing+m
		}
		if len(cpu) > 0 {
			for _, c := range byCodec[info.Name] {
				if c.Case.Name == CaseBuild {
					c.Result = buildCell(cpu, baseCPU)
					if missing > 0 {
						c.Result.Detail += fmt.Sprintf("; %d of its packages were not compiled, their CPU not counted: the seeded cache held them", missing)
					}
					if len(cpu) < runs {
						c.Result.Detail += fmt.Sprintf("; %d of %d builds failed: %s", runs-len(cpu), runs, cmp.Or(failed, why))
					}
				}
			}
		}
		unmeasured(info.Name, cmp.Or(why, failed, "not built"), CaseBinary, CaseBuild)
	}
	return nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// prepare makes the workspace, the baseline's main and every codec's of
// infos, lists them with one go list, and seeds the cache with the
// standard library packages they need. It returns each codec's main and
// packages (or why it has none) and the baseline's; an error stops
// every codec.
func (e *env) prepare(ctx context.Context, infos []codec.Info) (map[string]*prepared, *prepared, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	root := e.opts.Root
	if root == "" {
		return nil, nil, fmt.Errorf("cost: no serbench checkout named (Options.Root)")
	}
	adapters, err := Locate(root, registry.Names())
	if err != nil && len(adapters) == 0 {
		return nil, nil, err
	}
	if e.w == nil {
		if e.w, err = NewWorkspace(root); err != nil {
			return nil, nil, err
		}
	}
	bm, err := e.w.Add(Baseline, nil, "tiny")
	if err != nil {
		return nil, nil, err
	}
	preps := map[string]*prepared{}
	mains := []*Main{bm}
	for _, info := range infos {
		a, ok := adapters[info.Name]
		if !ok {
			preps[info.Name] = &prepared{why: fmt.Sprintf("cost: no adapter package of %s found under %s/codecs", info.Name, root)}
			continue
		}
		m, err := e.w.Add(info.Name, &a, mainDataset(info))
		if err != nil {
			preps[info.Name] = &prepared{why: err.Error()}
			continue
		}
		preps[info.Name] = &prepared{main: m}
		mains = append(mains, m)
	}
	all, err := e.w.List(ctx, mains)
	if err != nil {
		return nil, nil, err
	}
	base := &prepared{main: bm}
	if base.pkgs, err = Closure(all, bm); err != nil {
		return nil, nil, err
	}
	var std []string
	for _, p := range preps {
		if p.main == nil {
			continue
		}
		if p.pkgs, err = Closure(all, p.main); err != nil {
			p.why = err.Error()
		}
	}
	for _, p := range all {
		if p.Standard && p.ImportPath != "unsafe" && p.ImportPath != "C" && p.Error == nil {
			std = append(std, p.ImportPath)
		}
	}
	slices.Sort(std)
	e.seed = e.opts.Seed
	if e.seed == "" {
		e.seed = filepath.Join(e.w.Dir, "seed-cache")
		if dir, err := os.UserCacheDir(); err == nil {
			e.seed = filepath.Join(dir, "serbench", "cost-seed-std")
		}
	}
	if err := e.w.Seed(ctx, e.seed, std); err != nil {
		return nil, nil, err
	}
	return preps, base, nil
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

// after notes the go command's own CPU-seconds, which the build figures
// leave out, in matrix m (if any), and removes the workspace; a next run
// of the same value makes another.
func (e *env) after(_ context.Context, m *results.Matrix) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.overhead) > 0 && m != nil {
		st := results.Summarize(e.overhead, 0.95)
		m.Settings = append(m.Settings, fmt.Sprintf("%d cold builds of %d mains; the go command's own CPU in one, not in any main's figure: %s s (median)",
			len(e.overhead), e.mains, ff(st.Median)))
	}
	if e.w != nil {
		e.w.Close()
	}
	e.w, e.overhead = nil, nil
	return nil
}

// binaryOut is a binary cell's figures.
type binaryOut struct {
	Binary   int64 `json:"binary"`
	Baseline int64 `json:"baseline"`
}

// runCell is the child's side: a cold build of every main, or one case
// through one codec.
func runCell(ctx context.Context, t study.Task, step func(string)) (any, error) {
	if t.Case == caseColdBuild {
		var in coldInput
		if err := json.Unmarshal(t.Input, &in); err != nil {
			return nil, fmt.Errorf("cost: reading the task: %w", err)
		}
		return ColdBuild(ctx, in.Work, in.Seed, in.Wrapper, in.Mains, step)
	}
	var in cellInput
	if len(t.Input) > 0 {
		if err := json.Unmarshal(t.Input, &in); err != nil {
			return nil, fmt.Errorf("cost: reading the task: %w", err)
		}
	}
	if in.Err != "" && t.Case != CaseDeterministic {
		return nil, fmt.Errorf("%s", in.Err)
	}
	switch t.Case {
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

// record is the parent's side: it turns a child's answer into the cell,
// running a determinism cell once more, in a fresh process.
func (e *env) record(c *study.Cell, r worker.TaskResult) bool {
	info := c.Codec
	if why := study.Died(r); why != "" {
		c.Result.Outcome, c.Result.Detail = Unmeasured, why
		return false
	}
	switch c.Case.Name {
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
