package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/interop"
	"github.com/serbench/serbench/need"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/report/summary"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// A needStudy is a study that decides a need, as run -need runs it:
// its quick form, and the cases of it the needs read (all when nil).
type needStudy struct {
	spec  func() (*study.Study, error)
	cases []string
}

// needStudies are, for run -need, the studies that decide a need, each
// run over the candidate codecs that take part in it.
var needStudies = map[string]needStudy{
	"hostile":   {spec: func() (*study.Study, error) { return hostile.Spec(true), nil }},
	"evolution": {spec: func() (*study.Study, error) { return evolve.Spec(), nil }},
	"fidelity":  {spec: func() (*study.Study, error) { return fidelity.Spec(), nil }},
	"interop":   {spec: func() (*study.Study, error) { return interop.Spec(nil), nil }},
	// The cost study builds a main per codec: only what the needs read,
	// from the checkout around the current directory.
	"cost": {cases: []string{cost.CaseBinary, cost.CaseUnsafe}, spec: func() (*study.Study, error) {
		root, err := checkout("")
		if err != nil {
			return nil, err
		}
		return cost.Spec(cost.Options{Root: root, Proxy: "off"}), nil
	}},
}

// runNeedStudy runs study s over codecs, each taking part in it, and
// the cases named (all when nil).
func runNeedStudy(ctx context.Context, s *study.Study, cases, codecs []string) (*results.Matrix, error) {
	return study.Run(ctx, &worker.Pool{Parallel: 2}, s, study.Options{Codecs: codecs, Cases: cases})
}

// takesWhy says why codec takes no part in study s.
func takesWhy(s *study.Study, name string) string {
	_, out := s.Participants()
	for _, e := range out {
		if e.Codec == name {
			return e.Why
		}
	}
	return "no row of the study stands for it"
}

// applyNeeds judges the plan's codecs on the run's needs and keeps the
// jobs of those that meet every one. The studies the needs read come from
// the output directory when it holds them for the candidates; the others
// run here, in their quick form, and are written into the run's working
// directory, to be published with its outputs.
func (p *runPlan) applyNeeds(ctx context.Context, stderr io.Writer) error {
	wants := p.cfg.needs
	if len(wants) == 0 {
		return nil
	}
	var candidates []string
	for _, j := range p.jobs {
		if !slices.Contains(candidates, j.Codec.Name) {
			candidates = append(candidates, j.Codec.Name)
		}
	}
	ms, err := report.ReadMatrices(p.work)
	if err != nil {
		return &UsageError{Msg: fmt.Sprintf("-need: reading the studies of %s: %v", p.work, err)}
	}
	if len(ms) == 0 {
		if ms, err = report.ReadMatrices(p.dir.Path()); err != nil {
			return &UsageError{Msg: fmt.Sprintf("-need: reading the studies of %s: %v", p.dir.Path(), err)}
		}
	}
	outside := map[string]map[string]string{} // by codec, then study: why it takes no part
	for _, name := range need.Studies(wants) {
		spec, err := needStudies[name].spec()
		if err != nil {
			return &RunError{Msg: fmt.Sprintf("-need: the %s study: %v", name, err)}
		}
		in := spec.Among(candidates)
		for _, c := range candidates {
			if !slices.Contains(in, c) {
				if outside[c] == nil {
					outside[c] = map[string]string{}
				}
				outside[c][name] = takesWhy(spec, c)
			}
		}
		// The candidates the directory's matrix of the study lacks.
		existing := slices.IndexFunc(ms, func(m *results.Matrix) bool { return m.Study.Name == name })
		missing := slices.DeleteFunc(slices.Clone(in), func(c string) bool { return existing >= 0 && ms[existing].Holds(c) })
		if len(missing) == 0 {
			continue
		}
		if !p.cfg.quiet {
			fmt.Fprintf(stderr, "serbench: -need runs the %s study over %d codecs\n", name, len(missing))
		}
		start := time.Now()
		m, err := runNeedStudy(ctx, spec, needStudies[name].cases, missing)
		if err != nil {
			return &RunError{Msg: fmt.Sprintf("-need: the %s study: %v", name, err)}
		}
		if m.Elapsed == "" {
			m.Elapsed = time.Since(start).Round(time.Second).String()
		}
		ms = append(ms, m)
		if existing >= 0 {
			// The directory's own matrix of the study stays as it is: these
			// cells judge the needs, and are not written over it.
			if !p.cfg.quiet {
				fmt.Fprintf(stderr, "serbench: -need keeps %s's own %s.json; the cells of %s judge the needs alone\n", p.dir.Path(), name, strings.Join(missing, ", "))
			}
			continue
		}
		if err := report.WriteMatrix(p.work, m); err != nil {
			return &RunError{Msg: fmt.Sprintf("-need: writing the %s study: %v", name, err)}
		}
		p.studies = append(p.studies, report.MatrixFiles(m)...)
	}
	if p.needs, err = judge(ctx, wants, candidates, ms, outside); err != nil {
		return err
	}
	p.needs.Displaced = displaced(p.dir.Path(), p.needs)
	meet, excluded := need.Split(p.needs)
	p.jobs = slices.DeleteFunc(p.jobs, func(j runner.Job) bool { return !slices.Contains(meet, j.Codec.Name) })
	if !p.cfg.quiet {
		fmt.Fprintf(stderr, "serbench: -need %s: %d of %d codecs meet every need; left out: %s\n",
			strings.Join(p.needs.Wanted, ","), len(meet), len(candidates), orNone(excluded))
	}
	return nil
}

// displaced returns the answers of the run the output directory holds
// (results.json) whose winner n leaves out; none when it holds no run.
func displaced(dir string, n *results.Needs) []results.Displaced {
	f, err := os.Open(filepath.Join(dir, "results.json"))
	if err != nil {
		return nil
	}
	defer f.Close()
	before, err := results.ReadJSON(f, f.Name())
	if err != nil {
		return nil
	}
	answers, _ := summary.Answers(before)
	var out []results.Displaced
	for _, a := range answers {
		if a.Winner != "" && len(n.Lacks(a.Winner)) > 0 {
			out = append(out, results.Displaced{Question: a.Question, Codec: a.Winner, Detail: a.Detail})
		}
	}
	return out
}

// judge judges candidates on wants, and on every other need, from the
// matrices ms and the codecs' facts, their APIs probed in a worker child.
func judge(ctx context.Context, wants []need.Want, candidates []string, ms []*results.Matrix, outside map[string]map[string]string) (*results.Needs, error) {
	caps, err := probeCaps(ctx, candidates)
	if err != nil {
		return nil, &RunError{Msg: fmt.Sprintf("-need: probing the codecs' APIs: %v", err)}
	}
	var facts []need.Facts
	for _, c := range candidates {
		info, _ := registry.Lookup(c)
		f := caps[c].With(need.FactsOf(info))
		f.Outside = outside[c]
		facts = append(facts, f)
	}
	return need.Judge(wants, facts, ms), nil
}

// judgeAll records, for a run that named no need, how each of its codecs
// stands on every need, from the studies in its output directory, so that
// report.html's toggles can leave out the codecs that fail one. A failure
// is a warning: the run's figures stand without it.
func (p *runPlan) judgeAll(ctx context.Context, run *results.Run) {
	if run.Needs != nil || len(run.Codecs) == 0 || p.cfg.inproc {
		return
	}
	ms, _ := report.ReadMatrices(p.dir.Path())
	var names []string
	for _, c := range run.Codecs {
		if _, err := registry.Lookup(c.Name); err == nil {
			names = append(names, c.Name)
		}
	}
	n, err := judge(ctx, nil, names, ms, nil)
	if err != nil {
		run.Warnings = append(run.Warnings, fmt.Sprintf("report.html has no needs to toggle: %v", err))
		return
	}
	run.Needs = n
}

// needProbeHandler is the worker's side of need.ProbeTask.
var needProbeHandler = worker.Handler{Name: need.ProbeTask, Run: func(_ context.Context, input json.RawMessage, step func(string)) (json.RawMessage, error) {
	return need.ProbeAll(input, step)
}}

// probeCaps finds the APIs of codecs in a worker child (need.Probe).
func probeCaps(ctx context.Context, codecs []string) (map[string]need.Caps, error) {
	in, err := json.Marshal(codecs)
	if err != nil {
		return nil, err
	}
	trs, err := (&worker.Pool{}).RunTasks(ctx, []worker.Task{{Name: need.ProbeTask, Input: in}})
	if err != nil {
		return nil, err
	}
	tr := trs[0]
	if tr.Output == nil {
		return nil, fmt.Errorf("the probe of %s ended: %s%s", tr.Step, tr.Err, tr.Exit)
	}
	var caps map[string]need.Caps
	return caps, json.Unmarshal(tr.Output, &caps)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// needTable lists the needs run -need takes, each with what decides it.
func needTable() listing {
	t := listing{header: []string{"NEED", "DECIDED BY", "MEANING"}}
	for _, n := range need.Needs {
		by := "the codec's declaration"
		if n.Study != "" {
			by = n.Study + " study"
		}
		r := row{cells: []string{n.Name, by, n.Says}}
		if len(n.Args) > 0 {
			r.notes = append(r.notes, "changes: "+strings.Join(n.Args, ", ")+"; default "+strings.Join(n.Default, "+"))
		}
		t.rows = append(t.rows, r)
	}
	return t
}
