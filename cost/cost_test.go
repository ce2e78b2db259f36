package cost_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// TestMain makes the test binary a child of the study when a test
// starts it so.
func TestMain(m *testing.M) {
	if os.Getenv("SERBENCH_COST_CHILD") == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, nil, cost.Spec(cost.Options{}).Handler()); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func childCommand() *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SERBENCH_COST_CHILD=1")
	return cmd
}

// fixedFetcher answers the module proxy's questions from a map, and
// fails on any other URL, as the proxy does offline.
type fixedFetcher map[string]string

func (f fixedFetcher) Fetch(_ context.Context, url string) ([]byte, error) {
	if b, ok := f[url]; ok {
		return []byte(b), nil
	}
	return nil, os.ErrNotExist
}

// TestStudy runs the whole study on the driver for encoding/json, the
// cheapest codec to build (its library is the standard library's, which
// the seeded cache holds: its builds compile the baseline's packages and
// its adapter), and for msgpack, whose module the children ask
// a module proxy about: an httptest server in this process. It checks
// the structure of what the cells record, never the figures' sizes
// beyond their signs.
func TestStudy(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/github.com/vmihailenco/msgpack/v5/@latest":
			w.Write([]byte(`{"Version":"v5.9.9","Time":"2025-06-01T00:00:00Z"}`))
		case "/github.com/vmihailenco/msgpack/v6/@v/list":
			w.Write([]byte("v6.0.0\n"))
		default:
			if strings.HasSuffix(r.URL.Path, ".info") {
				w.Write([]byte(`{"Version":"v5.0.0","Time":"2024-06-01T00:00:00Z"}`))
				return
			}
			http.NotFound(w, r)
		}
	}))
	defer proxy.Close()
	root, _ := filepath.Abs("..")
	s := cost.Spec(cost.Options{Root: root, Runs: 2, Proxy: proxy.URL,
		Now: func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }})
	pool := &worker.Pool{Command: childCommand, Parallel: 2}
	// Every case of json; msgpack's that build nothing (its library's
	// compile would cost the test seconds of CPU more).
	m, err := study.Run(context.Background(), pool, s, study.Options{Codecs: []string{"json"}})
	if err != nil {
		t.Fatal(err)
	}
	mm, err := study.Run(context.Background(), pool, s, study.Options{Codecs: []string{"msgpack"},
		Cases: []string{cost.CaseDeps, cost.CaseDeterministic, cost.CaseUpkeep}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cells) != len(cost.Cases) || len(mm.Cells) != 3 {
		t.Fatalf("%d and %d cells, want %d and 3", len(m.Cells), len(mm.Cells), len(cost.Cases))
	}
	for _, c := range mm.Cells {
		m.Add(c)
	}
	for _, c := range m.Cells {
		if c.Outcome == cost.Unmeasured && c.Note != "std" {
			t.Errorf("%s %s unmeasured: %s", c.Codec, c.Case, c.Detail)
		}
		if c.Outcome == cost.Contradicted {
			t.Errorf("%s %s: %s", c.Codec, c.Case, c.Note)
		}
	}
	fact := func(codec, kase, name string) string { return m.Cell(codec, kase).Facts[name] }
	if n, _ := strconv.Atoi(fact("json", cost.CaseBinary, cost.FactBytesAdded)); n <= 0 {
		t.Errorf("json adds %d bytes; want some", n)
	}
	if c := m.Cell("json", cost.CaseBuild); !strings.Contains(c.Detail, "runs ") || strings.Count(c.Detail, ".") < 3 {
		t.Errorf("json's build cell holds no runs: %s", c.Detail)
	}
	// The seed holds the standard library alone: every other package of
	// the main is compiled, and its CPU counted.
	if c := m.Cell("json", cost.CaseBuild); strings.Contains(c.Detail, "not compiled") || parseFloat(fact("json", cost.CaseBuild, cost.FactBuildCPU)) <= 0 {
		t.Errorf("json's build: %s", c.Detail)
	}
	if !strings.Contains(strings.Join(m.Settings, "; "), "the go command's own CPU") {
		t.Errorf("the settings do not give the go command's own CPU: %q", m.Settings)
	}
	if fact("json", cost.CaseDeps, cost.FactModules) != "0" || fact("msgpack", cost.CaseDeps, cost.FactModules) == "0" {
		t.Errorf("modules: json %s, msgpack %s; want none and some", fact("json", cost.CaseDeps, cost.FactModules), fact("msgpack", cost.CaseDeps, cost.FactModules))
	}
	if fact("msgpack", cost.CaseDeps, cost.FactLicences) == "" {
		t.Error("msgpack's modules have no licence named")
	}
	if c := m.Cell("json", cost.CaseDeterministic); c.Outcome != cost.Light || m.Study.Code(c) != "same bytes" {
		t.Errorf("encoding/json sorts map keys, so its output is the same bytes every time: %+v", c)
	}
	if c := m.Cell("msgpack", cost.CaseDeterministic); c.Outcome != cost.Heavy {
		t.Errorf("msgpack writes maps in Go's map order by default, so its bytes differ: %+v", c)
	}
	if fact("msgpack", cost.CaseUpkeep, cost.FactLatest) != "v5.9.9" || fact("msgpack", cost.CaseUpkeep, cost.FactNewerMajor) == "" {
		t.Errorf("msgpack's upkeep, from the test's proxy: %+v", m.Cell("msgpack", cost.CaseUpkeep))
	}
	if m.Study.Code(m.Cell("json", cost.CaseUpkeep)) != "std" {
		t.Errorf("json's upkeep: %+v", m.Cell("json", cost.CaseUpkeep))
	}
}

func parseFloat(s string) float64 {
	x, _ := strconv.ParseFloat(s, 64)
	return x
}

// TestCheckUpkeep asks a module proxy that lists no @latest, as some do:
// the newest version of @v/list is taken, its date and the pinned one's
// read from .info, and a newer major version found.
func TestCheckUpkeep(t *testing.T) {
	p := "https://proxy.test"
	f := fixedFetcher{
		p + "/github.com/!some/lib/v2/@v/list":        "v2.0.0\nv2.3.1\nv2.4.0-rc.1\nv2.1.0\n",
		p + "/github.com/!some/lib/v2/@v/v2.3.1.info": `{"Version":"v2.3.1","Time":"2025-06-01T00:00:00Z"}`,
		p + "/github.com/!some/lib/v2/@v/v2.1.0.info": `{"Version":"v2.1.0","Time":"2024-01-01T00:00:00Z"}`,
		p + "/github.com/!some/lib/v3/@v/list":        "v3.0.0\n",
		p + "/github.com/other/lib/@latest":           `{"Version":"v1.2.0","Time":"2023-03-01T00:00:00Z"}`,
		p + "/github.com/other/lib/v2/@v/list":        "",
		p + "/github.com/other/lib/@v/v1.1.0.info":    `{"Version":"v1.1.0","Time":"2022-03-01T00:00:00Z"}`,
	}
	u := cost.CheckUpkeep(context.Background(), f, p, "github.com/Some/lib/v2", "v2.1.0")
	if u.Latest != "v2.3.1" || u.LatestDate.Year() != 2025 || u.PinnedDate.Year() != 2024 || u.NewerMajor != "github.com/Some/lib/v3" || u.Unknown != "" {
		t.Errorf("listed: %+v", u)
	}
	u = cost.CheckUpkeep(context.Background(), f, p, "github.com/other/lib", "v1.1.0")
	if u.Latest != "v1.2.0" || u.NewerMajor != "" || u.Age(time.Date(2023, 3, 1, 0, 0, 0, 0, time.UTC)) != 365*24*time.Hour {
		t.Errorf("latest: %+v", u)
	}
	// Offline: the column says so instead of failing.
	u = cost.CheckUpkeep(context.Background(), fixedFetcher{}, p, "github.com/x/y", "v1.0.0")
	if u.Unknown == "" || u.Latest != "" {
		t.Errorf("offline: %+v", u)
	}
	if u := cost.CheckUpkeep(context.Background(), f, "", "github.com/x/y", ""); !strings.Contains(u.Unknown, "no module proxy") {
		t.Errorf("no proxy: %+v", u)
	}
}

// TestContradictions: a declaration the measurement contradicts is
// named, both ways, for JIT and for generated code.
func TestContradictions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		adopt codec.Adoption
		deps  cost.Dependencies
		code  cost.Code
		want  []string
	}{
		{"agree", codec.Adoption{JIT: "yes", Generator: "protoc"}, cost.Dependencies{JIT: []string{"x/loader"}}, cost.Code{Generated: 10}, nil},
		{"jit undeclared", codec.Adoption{}, cost.Dependencies{JIT: []string{"x/loader"}}, cost.Code{},
			[]string{"declares no JIT, but x/loader maps memory executable"}},
		{"jit declared", codec.Adoption{JIT: "yes"}, cost.Dependencies{}, cost.Code{}, []string{"declares JIT, but none"}},
		{"generator undeclared", codec.Adoption{}, cost.Dependencies{}, cost.Code{Generated: 5, Tools: []string{"protoc"}},
			[]string{"has 5 generated lines (by protoc) but declares no generator"}},
		{"generator declared", codec.Adoption{Generator: "flatc"}, cost.Dependencies{}, cost.Code{}, []string{"declares generator flatc, but none"}},
	} {
		got := cost.Contradictions(tc.adopt, tc.deps, tc.code)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) {
				t.Errorf("%s: %q, want it to start %q", tc.name, got[i], tc.want[i])
			}
		}
	}
}

// TestRefill: a refilled copy is deep and equal, and its maps are new.
func TestRefill(t *testing.T) {
	type T struct {
		M  map[string]int
		P  *T
		S  []map[int]string
		At time.Time
	}
	v := &T{M: map[string]int{"a": 1, "b": 2}, P: &T{M: map[string]int{"c": 3}}, S: []map[int]string{{1: "x", 2: "y"}}, At: time.Unix(5, 6)}
	got := cost.Refill(v).(*T)
	a, _ := json.Marshal(v)
	b, _ := json.Marshal(got)
	if string(a) != string(b) || got == v || got.P == v.P || !got.At.Equal(v.At) {
		t.Errorf("refilled %s, want a deep copy of %s", b, a)
	}
	got.M["a"] = 9
	if v.M["a"] != 1 {
		t.Error("the refilled map is the original's")
	}
}

// TestLicence names a licence text by licensecheck.
func TestLicence(t *testing.T) {
	mit := "Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the \"Software\"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:\n\nThe above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.\n\nTHE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.\n"
	if got := cost.Licence([]byte("MIT License\n\nCopyright (c) 2020 X\n\n" + mit)); got != "MIT" {
		t.Errorf("MIT text: %q", got)
	}
	if got := cost.Licence([]byte("all rights reserved")); got != "unknown" {
		t.Errorf("no licence: %q", got)
	}
}

// TestGrade: thresholds are inclusive.
func TestGrade(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want results.Outcome
	}{{0, cost.Light}, {1, cost.Light}, {1.5, cost.Moderate}, {3, cost.Heavy}, {9, cost.VeryHeavy}} {
		if got := cost.Grade(tc.x, 1, 2, 3); got != tc.want {
			t.Errorf("Grade(%v) = %s, want %s", tc.x, got, tc.want)
		}
	}
}
