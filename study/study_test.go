package study_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// TestMain makes the test binary a study's child when the test starts it
// so.
func TestMain(m *testing.M) {
	if os.Getenv("SERBENCH_STUDY_CHILD") == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, nil, toy(false).Handler(), toy(true).Handler(), faceted().Handler(), prepared(nil).Handler()); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func testPool() *worker.Pool {
	return &worker.Pool{Parallel: 2, Command: func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SERBENCH_STUDY_CHILD=1")
		return cmd
	}}
}

// toy is a study of three cases: "ok" answers, "again" asks for a second
// task (its input counts the tasks), "crash" kills its child. It takes
// every codec but hand-written ones, by their declared API.
func toy(perCodec bool) *study.Study {
	name := "toy"
	if perCodec {
		name = "toyper"
	}
	return &study.Study{
		Matrix: results.Study{Name: name, CaseWord: "trick", Outcomes: []results.OutcomeKind{
			{Name: "ok", Code: "=", Tone: results.ToneGood},
			{Name: "crashed", Code: "!", Tone: results.ToneBad},
		}, Rules: []results.Rule{{Verdict: "crashes", When: []results.Outcome{"crashed"}, Why: "{cases}"}, {Verdict: "fine", Why: "fine"}}},
		Cases:    []study.Case{{Name: "ok"}, {Name: "again"}, {Name: "crash"}},
		CaseList: "tricks",
		Takes: func(info codec.Info) string {
			if info.API == codec.Manual {
				return "hand-written for each type"
			}
			return ""
		},
		Timeout:  time.Minute,
		PerCodec: perCodec,
		Input:    func(c *study.Cell) any { return c.Tasks },
		Cell: func(_ context.Context, t study.Task, step func(string)) (any, error) {
			step(t.Case)
			if t.Case == "crash" {
				done := make(chan struct{})
				go func() { panic("planted") }()
				<-done
			}
			return t.Codec.Name + " " + t.Case + " " + string(t.Input), nil
		},
		Record: func(c *study.Cell, r worker.TaskResult) bool {
			if why := study.Died(r); why != "" {
				c.Result.Outcome, c.Result.Detail = "crashed", why
				return false
			}
			var s string
			if err := study.Decode(r, &s); err != nil {
				c.Result.Outcome, c.Result.Detail = "crashed", err.Error()
				return false
			}
			c.Result.Outcome, c.Result.Detail = "ok", s
			return c.Case.Name == "again" && c.Tasks < 2
		},
	}
}

// TestRun runs the toy study both ways: each cell ends once, in the
// journal and the progress, with the outcome its task gave; a cell asked
// again runs again with its state; a crash costs its cell alone; the rows
// carry what the header constructor gives; the step timeout is passed
// with each task, the pool's field left alone; each task is told to
// Options.Task with its wall time, whether it was its cell's first and
// whether the cell runs again.
func TestRun(t *testing.T) {
	for _, perCodec := range []bool{false, true} {
		pool := testPool()
		var journal []string
		progress := 0
		var started []int
		running := 0
		tasks := map[[2]bool]int{}
		m, err := study.Run(context.Background(), pool, toy(perCodec), study.Options{
			Codecs:  []string{"json", "gob"},
			Started: func(total, pending int) { started = append(started, total, pending) },
			Running: func() { running++ },
			Journal: func(c results.MatrixCell) error {
				journal = append(journal, c.Codec+"/"+c.Case)
				return nil
			},
			Progress: func(int, int, results.MatrixCell) { progress++ },
			Task: func(wall time.Duration, first, again bool) {
				tasks[[2]bool{first, again}]++
				if wall <= 0 {
					t.Errorf("perCodec %v: a task told with wall time %v", perCodec, wall)
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		// Six first tasks, the two cells "again" asking for a second.
		if want := map[[2]bool]int{{true, false}: 4, {true, true}: 2, {false, false}: 2}; !maps.Equal(tasks, want) {
			t.Errorf("perCodec %v: tasks told {first, again}: %v; want %v", perCodec, tasks, want)
		}
		if running != 1 {
			t.Errorf("perCodec %v: Running called %d times; want once", perCodec, running)
		}
		if len(started) != 2 || started[0] != 6 || started[1] != 6 {
			t.Errorf("perCodec %v: Started called with %v; want once with 6 cells, 6 to run", perCodec, started)
		}
		if pool.TaskTimeout != 0 {
			t.Errorf("perCodec %v: the pool's TaskTimeout was set to %v", perCodec, pool.TaskTimeout)
		}
		if len(m.Cells) != 6 || len(journal) != 6 || progress != 6 {
			t.Fatalf("perCodec %v: %d cells, %d journaled, %d progress calls; want 6 each", perCodec, len(m.Cells), len(journal), progress)
		}
		for _, tc := range []struct{ codec, kase, outcome, detail string }{
			{"json", "ok", "ok", "json ok 0"},
			{"json", "again", "ok", "json again 1"},
			{"gob", "crash", "crashed", "the child died ("},
		} {
			c := m.Cell(tc.codec, tc.kase)
			if c == nil || string(c.Outcome) != tc.outcome || !strings.HasPrefix(c.Detail, tc.detail) {
				t.Errorf("perCodec %v: %s %s = %+v; want %s %q", perCodec, tc.codec, tc.kase, c, tc.outcome, tc.detail)
			}
		}
		if v := m.Verdict("json"); v.Verdict != "crashes" {
			t.Errorf("perCodec %v: json's verdict %+v; want crashes", perCodec, v)
		}
		for _, row := range m.Codecs {
			if row.Module == "" || row.Version == "" || row.API == "" || row.Label == "" {
				t.Errorf("perCodec %v: row %+v lacks module, version, API or label", perCodec, row)
			}
		}
		if m.Elapsed == "" || len(m.Settings) == 0 || !strings.Contains(m.Settings[len(m.Settings)-1], "1m0s") {
			t.Errorf("perCodec %v: elapsed %q, settings %q; want both, with the timeout", perCodec, m.Elapsed, m.Settings)
		}
	}
}

// TestResume: the cells done of a previous run are kept as they were and
// not run again; the others are.
func TestResume(t *testing.T) {
	kept := results.MatrixCell{Codec: "json", Case: "crash", Outcome: "ok", Detail: "kept"}
	var ran []string
	m, err := study.Run(context.Background(), testPool(), toy(true), study.Options{
		Codecs: []string{"json"}, Done: []results.MatrixCell{kept, {Codec: "xml", Case: "ok"}},
		Journal: func(c results.MatrixCell) error { ran = append(ran, c.Case); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Cell("json", "crash"); c == nil || c.Detail != "kept" {
		t.Errorf("the kept cell is %+v", c)
	}
	if slices.Contains(ran, "crash") || len(ran) != 2 || len(m.Cells) != 3 {
		t.Errorf("ran %q, %d cells; want ok and again run, 3 cells", ran, len(m.Cells))
	}
}

// TestJournalFails: a journal that cannot take a cell stops the run with
// its error; the cells journaled before it are in the matrix.
func TestJournalFails(t *testing.T) {
	full := errors.New("no space left on device")
	n := 0
	pool := testPool()
	pool.Parallel = 1
	m, err := study.Run(context.Background(), pool, toy(false), study.Options{
		Codecs: []string{"json", "gob"},
		Journal: func(results.MatrixCell) error {
			if n++; n == 2 {
				return full
			}
			return nil
		},
	})
	if !errors.Is(err, full) {
		t.Fatalf("err = %v; want the journal's", err)
	}
	if m == nil || len(m.Cells) == 0 || len(m.Cells) >= 6 {
		t.Fatalf("matrix %v; want the cells done before the journal failed", m)
	}
}

// TestNames: names are checked before any work, with the closest names
// for a misspelt one and why for a codec the study does not take.
func TestNames(t *testing.T) {
	for _, tc := range []struct {
		o    study.Options
		want string
	}{
		{study.Options{Codecs: []string{"jsn"}}, `unknown codec "jsn"`},
		{study.Options{Codecs: []string{"byteorder"}}, "toy cannot take byteorder: hand-written for each type"},
		{study.Options{Cases: []string{"oj"}}, `unknown trick "oj"`},
		{study.Options{Codecs: []string{"json"}, Cases: []string{"ok"}}, ""},
	} {
		err := study.Check(toy(false), tc.o)
		var ne *study.NameError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v; want no error", tc.o, err)
		case tc.want != "" && (!errors.As(err, &ne) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: %v; want a NameError with %q", tc.o, err, tc.want)
		}
	}
	in, out := toy(false).Participants()
	if len(in) == 0 || !slices.ContainsFunc(out, func(e study.Excluded) bool { return e.Codec == "byteorder" }) {
		t.Errorf("participants %d, left out %v; want byteorder left out", len(in), out)
	}
}

// faceted is a study whose rows are json read by two peers, "json@a"
// and "json@b", each row of facet "a" or "b".
func faceted() *study.Study {
	return &study.Study{
		Matrix: results.Study{Name: "faceted", CaseWord: "case", FacetWord: "peer", Outcomes: []results.OutcomeKind{{Name: "ok", Code: "=", Tone: results.ToneGood}},
			Rules: []results.Rule{{Verdict: "fine", Why: "fine"}}},
		Cases: []study.Case{{Name: "x"}},
		Rows: func(info codec.Info) []codec.Info {
			var rows []codec.Info
			for _, p := range []string{"a", "b"} {
				r := info
				r.Name = info.Name + "@" + p
				rows = append(rows, r)
			}
			return rows
		},
		Facet:    func(r codec.Info) string { _, p, _ := strings.Cut(r.Name, "@"); return p },
		PerCodec: true,
		Cell:     func(context.Context, study.Task, func(string)) (any, error) { return "ok", nil },
		Record: func(c *study.Cell, r worker.TaskResult) bool {
			c.Result.Outcome = "ok"
			return false
		},
	}
}

// TestFacet checks that each row of a study with a Facet carries it in
// the matrix's header.
func TestFacet(t *testing.T) {
	m, err := study.Run(context.Background(), testPool(), faceted(), study.Options{Codecs: []string{"json"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range m.Codecs {
		got = append(got, c.Name+":"+c.Facet)
	}
	if want := []string{"json@a:a", "json@b:b"}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}

// prepared is the toy study with a Before that runs one task per codec
// through run, keeps its answer in each cell's State for the cell's
// Input, and finishes the case "crash" without a task; limits counts the
// tasks Limits was asked for.
func prepared(limits *int) *study.Study {
	s := toy(false)
	s.Matrix.Name = "prepared"
	s.Matrix.Outcomes = append(s.Matrix.Outcomes, results.OutcomeKind{Name: "n/a", Code: "-", Tone: results.ToneNone})
	s.Input = func(c *study.Cell) any { return c.State }
	s.Limits = func(c *study.Cell) worker.Limits {
		*limits++
		return worker.Limits{}
	}
	s.Before = func(ctx context.Context, cells []*study.Cell, run func(context.Context, []study.Task) ([]worker.TaskResult, error)) error {
		var tasks []study.Task
		for _, c := range cells {
			if !slices.ContainsFunc(tasks, func(t study.Task) bool { return t.Codec.Name == c.Codec.Name }) {
				tasks = append(tasks, study.Task{Codec: c.Codec, Case: "ok", Input: []byte(`"before"`), Limits: worker.Limits{Uncapped: true}})
			}
		}
		rs, err := run(ctx, tasks)
		if err != nil {
			return err
		}
		for _, c := range cells {
			if c.Case.Name == "crash" {
				c.Result.Outcome = "n/a"
				continue
			}
			for i, t := range tasks {
				var got string
				if t.Codec.Name == c.Codec.Name && study.Decode(rs[i], &got) == nil {
					c.State = got
				}
			}
		}
		return nil
	}
	return s
}

// TestBefore: Before's tasks run the study's Cell in children, what it
// keeps reaches the cells' tasks, and a cell it finishes runs no task
// but is journaled; Limits is asked for every task of a cell.
func TestBefore(t *testing.T) {
	limits := 0
	var journal []string
	m, err := study.Run(context.Background(), testPool(), prepared(&limits), study.Options{
		Codecs:  []string{"json"},
		Journal: func(c results.MatrixCell) error { journal = append(journal, c.Case); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Cell("json", "ok"); c == nil || c.Detail != `json ok "json ok \"before\""` {
		t.Errorf("json ok = %+v; want the State Before kept in its input", c)
	}
	if c := m.Cell("json", "crash"); c == nil || c.Outcome != "n/a" {
		t.Errorf("json crash = %+v; want n/a, finished by Before", c)
	}
	if len(journal) != 3 || limits != 3 {
		t.Errorf("journaled %q, Limits asked %d times; want 3 cells, 3 tasks (ok, again twice)", journal, limits)
	}
}

// TestBeforeErrorNamedOnce: an error of Before carries the study's name
// once, whether or not its message begins with it.
func TestBeforeErrorNamedOnce(t *testing.T) {
	for _, msg := range []string{"no toolchain", "prepared: no toolchain"} {
		limits := 0
		s := prepared(&limits)
		s.Before = func(context.Context, []*study.Cell, func(context.Context, []study.Task) ([]worker.TaskResult, error)) error {
			return errors.New(msg)
		}
		_, err := study.Run(context.Background(), testPool(), s, study.Options{Codecs: []string{"json"}})
		if err == nil || err.Error() != "prepared: no toolchain" {
			t.Errorf("Before's %q: err = %v, want \"prepared: no toolchain\"", msg, err)
		}
	}
}
