package compare_test

import (
	"bytes"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"

	"github.com/serbench/serbench/compare"
)

func read(t *testing.T, name string) *compare.Set {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := compare.Read(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCompare(t *testing.T) {
	rows, err := compare.Compare(read(t, "testdata/old.bench"), read(t, "testdata/new.bench"))
	if err != nil {
		t.Fatal(err)
	}
	// json is unchanged, gob got 2.2x faster: a significant change that
	// flips the pair's order.
	byName := map[string]compare.Row{}
	for _, r := range rows {
		byName[r.Name+" "+r.Unit] = r
	}
	if r := byName["Encode/codec=json/dataset=tiny/shape=single sec/op"]; r.Significant() || r.Delta() != "~" {
		t.Errorf("json: delta %s, significant %v; want ~", r.Delta(), r.Significant())
	}
	if r := byName["Encode/codec=gob/dataset=tiny/shape=single sec/op"]; !r.Significant() || r.Delta() != "-55.00%" {
		t.Errorf("gob: delta %s, significant %v; want -55.00%%", r.Delta(), r.Significant())
	}
	if _, ok := byName["OnlyOld sec/op"]; ok {
		t.Error("a benchmark missing from the new file was compared")
	}
	pairs, inv := compare.Ranking(rows, "sec/op")
	if pairs != 1 || len(inv) != 1 || inv[0].A != "json" || inv[0].B != "gob" {
		t.Errorf("Ranking = %d pairs, %+v; want the json/gob pair flipped", pairs, inv)
	}
	within, total, _, worst := compare.Agreement(rows, "sec/op", 0.05)
	if within != 1 || total != 2 || worst != "Encode/codec=gob/dataset=tiny/shape=single" {
		t.Errorf("Agreement = %d of %d, worst %s", within, total, worst)
	}
	for _, tc := range []struct {
		tol      float64
		n, total int
	}{{0.05, 1, 2}, {0.60, 0, 2}} { // gob's -55% is significant, json's change is not
		if n, total := compare.SignificantBeyond(rows, "sec/op", tc.tol); n != tc.n || total != tc.total {
			t.Errorf("SignificantBeyond(%v) = %d of %d, want %d of %d", tc.tol, n, total, tc.n, tc.total)
		}
	}
	var buf bytes.Buffer
	if err := compare.WriteText(&buf, "old", "new", rows); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 of 4 comparisons changed significantly", "1 flipped order", "flipped in Encode/dataset=tiny/shape=single: json was 100% faster than gob, now 12% slower"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "x.bench: no benchmark results found"},
		{"BenchmarkX 10 5 ns/op extra\n", "x.bench:1: "},
		{"BenchmarkX ten 5 ns/op\n", "x.bench:1: "},
		// Cut short: the last line without its newline.
		{"goos: linux\nBenchmarkX 10 5 ns/op\nBenchmarkX 10 5 ns/o", "x.bench:3: truncated: the file ends inside this line"},
		{"BenchmarkX 10 5 ns/op\nBenchmarkX 10 5 ns/op", "x.bench:2: truncated"},
		// A file serbench wrote (its configuration names serbench) holds
		// nothing else: a corrupted line would lose its sample silently.
		{"serbench: v1\nBenchmarkX 10 5 ns/op\nBznchmarkX 10 5 ns/op\n", "x.bench:3: corrupt: neither a benchmark"},
		{"serbench: v1\nBenchmarkX 10 5 ns/op\n\x00\x00 garbage\n", "x.bench:3: corrupt"},
		{"serbench: v1\nBenchmarkX 10 5 ns/op\nBenchmarkX 10 5 ns\x01op\n", "x.bench:3: corrupt: a benchmark line without ns/op"},
		{"serbench: v1\nBenchmarkX 10 5 ns/op\nBenchmarkX 10 5 ns/oq\n", "x.bench:3: corrupt: a benchmark line without ns/op"},
	}
	for _, tt := range tests {
		_, err := compare.Read(strings.NewReader(tt.in), "x.bench")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%q) = %v, want error containing %q", tt.in, err, tt.want)
		}
	}
}

// TestReadSerbenchFile checks that a results.bench serbench writes,
// comments, units and configuration included, reads in strict mode, and
// that go test's own output, with its other lines, still reads.
func TestReadSerbenchFile(t *testing.T) {
	data, err := os.ReadFile("../report/bench/testdata/results.bench.golden")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compare.Read(bytes.NewReader(data), "results.bench"); err != nil {
		t.Errorf("serbench's own file: %v", err)
	}
	gotest := "goos: linux\nBenchmarkX-2 10 5 ns/op\nPASS\nok  \tpkg\t1.2s\n"
	if _, err := compare.Read(strings.NewReader(gotest), "go.txt"); err != nil {
		t.Errorf("go test's output: %v", err)
	}
}

// TestUnmatched checks that the benchmarks only one side holds are
// counted and named.
func TestUnmatched(t *testing.T) {
	old, new := read(t, "testdata/old.bench"), read(t, "testdata/new.bench")
	if got := compare.Only(old, new); !slices.Equal(got, []string{"OnlyOld"}) {
		t.Errorf("Only(old, new) = %q, want [OnlyOld]", got)
	}
	if got := compare.Only(new, old); len(got) != 0 {
		t.Errorf("Only(new, old) = %q, want none", got)
	}
	var buf bytes.Buffer
	if err := compare.WriteUnmatched(&buf, old, new); err != nil {
		t.Fatal(err)
	}
	if want := "Not compared: 1 benchmarks only in testdata/old.bench: OnlyOld.\n"; buf.String() != want {
		t.Errorf("WriteUnmatched wrote %q, want %q", buf.String(), want)
	}
	many := "BenchmarkA 1 1 ns/op\nBenchmarkB 1 1 ns/op\nBenchmarkC 1 1 ns/op\nBenchmarkD 1 1 ns/op\nBenchmarkE 1 1 ns/op\n"
	s, err := compare.Read(strings.NewReader(many), "many.bench")
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := compare.WriteUnmatched(&buf, old, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Not compared: 3 benchmarks only in testdata/old.bench: Encode/codec=json/dataset=tiny/shape=single, Encode/codec=gob/dataset=tiny/shape=single, OnlyOld.\n",
		"Not compared: 5 benchmarks only in many.bench: A, B, C, and 2 more.\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("WriteUnmatched lacks %q:\n%s", want, buf.String())
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, name := range []string{"testdata/old.bench", "testdata/new.bench"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := compare.Read(strings.NewReader(in), "fuzz.bench")
		if err != nil {
			return
		}
		if _, err := compare.Compare(s, s); err != nil {
			t.Fatalf("comparing an accepted file with itself: %v", err)
		}
	})
}

func TestSpread(t *testing.T) {
	sum := func(lo, center, hi float64) benchmath.Summary {
		return benchmath.Summary{Lo: lo, Center: center, Hi: hi}
	}
	inf := math.Inf(1)
	tests := []struct {
		name     string
		rows     []compare.Row
		old, new float64
	}{
		{"none", nil, math.NaN(), math.NaN()},
		{"the wider side of the interval", []compare.Row{
			{Unit: "sec/op", Old: sum(90, 100, 105), New: sum(9.9, 10, 10.2)},
		}, 0.10, 0.02},
		{"the middle of an even count", []compare.Row{
			{Unit: "sec/op", Old: sum(99, 100, 101), New: sum(96, 100, 104)},
			{Unit: "sec/op", Old: sum(97, 100, 103), New: sum(92, 100, 108)},
		}, 0.02, 0.06},
		{"unknown intervals and other units left out", []compare.Row{
			{Unit: "sec/op", Old: sum(-inf, 100, inf), New: sum(95, 100, 105)},
			{Unit: "sec/op", Old: sum(96, 100, 104), New: sum(-inf, 100, inf)},
			{Unit: "B/op", Old: sum(0, 100, 200), New: sum(0, 100, 200)},
		}, 0.04, 0.05},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, new := compare.Spread(tt.rows, "sec/op")
			near := func(got, want float64) bool {
				return math.IsNaN(got) && math.IsNaN(want) || math.Abs(got-want) < 1e-9
			}
			if !near(old, tt.old) || !near(new, tt.new) {
				t.Errorf("Spread = %.4f, %.4f; want %.4f, %.4f", old, new, tt.old, tt.new)
			}
		})
	}
}
