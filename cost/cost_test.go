package cost_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// TestMain makes the test binary a Runner's child when a test starts it
// so.
func TestMain(m *testing.M) {
	if os.Getenv("SERBENCH_COST_CHILD") == "1" {
		err := worker.Serve(context.Background(), os.Stdin, nil, cost.Handler,
			worker.Handler{Name: cost.DeterminismTask, Run: cost.DeterminismHandler(registry.Lookup)})
		if err != nil {
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

// TestMeasure measures encoding/json, the cheapest codec to build (its
// library is the standard library's, which the seeded cache holds),
// through the whole study: the structure of what it records, never its
// figures' sizes beyond their signs.
func TestMeasure(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	info, err := registry.Lookup("json")
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("..")
	var said []string
	r := &cost.Runner{Root: root, Command: childCommand, Runs: 2, Proxy: "off",
		Now:      func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) },
		Progress: func(s string) { said = append(said, s); t.Log(s) }}
	m, err := r.Measure(context.Background(), []codec.Info{info})
	if err != nil {
		t.Fatal(err)
	}
	row := m.Rows[0]
	if len(row.Errors) > 0 {
		t.Fatalf("errors: %v", row.Errors)
	}
	if m.BaselineBytes <= 0 || row.Binary <= m.BaselineBytes || row.Added != row.Binary-m.BaselineBytes {
		t.Errorf("binary %d bytes, baseline %d, added %d: json's main must be larger than the baseline", row.Binary, m.BaselineBytes, row.Added)
	}
	if len(row.BuildRuns) != 2 || row.Build.Median <= 0 {
		t.Errorf("builds: %v", row.BuildRuns)
	}
	if len(row.Deps.Modules) != 0 || row.Deps.Packages != 0 || len(row.Deps.JIT) != 0 || len(row.Deps.Serbench) == 0 {
		t.Errorf("encoding/json adds %d modules, %d packages, JIT %v, serbench packages %d; want none but its adapter", len(row.Deps.Modules), row.Deps.Packages, row.Deps.JIT, len(row.Deps.Serbench))
	}
	if row.Code.Generated != 0 || row.Code.Adapter == 0 {
		t.Errorf("code: %+v; want no generated lines, some adapter lines", row.Code)
	}
	if !row.Det.Twice || !row.Fresh || !row.Det.Refill || !row.Det.Maps {
		t.Errorf("encoding/json sorts map keys, so its output is the same bytes every time: %+v, fresh %t", row.Det, row.Fresh)
	}
	if row.Upkeep.Module != "std" || len(row.Contradicted) != 0 {
		t.Errorf("upkeep %+v, contradicted %v", row.Upkeep, row.Contradicted)
	}
	mx := m.Matrix([]codec.Info{info}, nil)
	if err := mx.Study.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(mx.Cells) != len(cost.Cases) {
		t.Fatalf("%d cells, want %d", len(mx.Cells), len(cost.Cases))
	}
	if c := mx.Cell("json", cost.CaseDeterministic); c.Outcome != cost.Light || mx.Study.Code(c) != "same bytes" {
		t.Errorf("deterministic cell %+v", c)
	}
	if c := mx.Cell("json", cost.CaseBinary); !strings.HasPrefix(mx.Study.Code(c), "+") || c.Facts[cost.FactBytesAdded] == "" {
		t.Errorf("binary cell %+v", c)
	}
	if len(said) == 0 {
		t.Error("no progress")
	}
	var buf strings.Builder
	if err := mx.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadMatrix(strings.NewReader(buf.String()), "cost.json")
	if err != nil || len(back.Cells) != len(mx.Cells) {
		t.Fatalf("read back: %v", err)
	}
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
	some := cost.Dependencies{Packages: 1}
	for _, tc := range []struct {
		name  string
		adopt codec.Adoption
		row   cost.Row
		want  []string
	}{
		{"agree", codec.Adoption{JIT: "yes", Generator: "protoc"},
			cost.Row{Deps: cost.Dependencies{Packages: 1, JIT: []string{"x/loader"}}, Code: cost.Code{Generated: 10}}, nil},
		{"jit undeclared", codec.Adoption{}, cost.Row{Deps: cost.Dependencies{Packages: 1, JIT: []string{"x/loader"}}},
			[]string{"declares no JIT, but x/loader maps memory executable"}},
		{"jit declared", codec.Adoption{JIT: "yes"}, cost.Row{Deps: some}, []string{"declares JIT, but none"}},
		{"generator undeclared", codec.Adoption{}, cost.Row{Deps: some, Code: cost.Code{Generated: 5, Tools: []string{"protoc"}}},
			[]string{"has 5 generated lines (by protoc) but declares no generator"}},
		{"generator declared", codec.Adoption{Generator: "flatc"}, cost.Row{Deps: some}, []string{"declares generator flatc, but none"}},
		{"unmeasured", codec.Adoption{JIT: "yes"}, cost.Row{}, nil},
	} {
		got := cost.Contradictions(tc.adopt, tc.row)
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
