package compare_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

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
	pairs, inv := compare.Ranking(rows, "sec/op", 0.10)
	if pairs != 1 || len(inv) != 1 || inv[0].A != "json" || inv[0].B != "gob" {
		t.Errorf("Ranking = %d pairs, %+v; want the json/gob pair flipped", pairs, inv)
	}
	within, total, _, worst := compare.Agreement(rows, "sec/op", 0.05)
	if within != 1 || total != 2 || worst != "Encode/codec=gob/dataset=tiny/shape=single" {
		t.Errorf("Agreement = %d of %d, worst %s", within, total, worst)
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
	}
	for _, tt := range tests {
		_, err := compare.Read(strings.NewReader(tt.in), "x.bench")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%q) = %v, want error containing %q", tt.in, err, tt.want)
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
