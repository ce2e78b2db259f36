package serbench_test

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/internal/planted"
	"github.com/serbench/serbench/runner"
)

// BenchmarkSelf is the benchmark TestBenchmark runs in a child process,
// as go test -bench runs a user's; alone it is skipped.
func BenchmarkSelf(b *testing.B) {
	order := &Order{ID: 7, Lines: []string{"tea", "cake"}, At: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)}
	switch os.Getenv("SERBENCH_SELF") {
	case "codecs":
		var memo serbench.Option
		for _, c := range planted.Codecs {
			if c.Name == planted.MemoDecode {
				memo = serbench.WithCodec(c)
			}
		}
		serbench.Benchmark(b, order, serbench.Codecs("json", "binary", planted.MemoDecode), memo)
	case "unknown":
		serbench.Benchmark(b, order, serbench.Codecs("jsn"))
	default:
		b.Skip("run by TestBenchmark")
	}
}

// TestBenchmark runs Benchmark under go test -bench, once per benchmark
// (-benchtime 1x), and checks what it prints, never a figure.
func TestBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	bench := func(mode string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkSelf$", "-test.benchtime=1x", "-test.v")
		cmd.Env = append(os.Environ(), "SERBENCH_SELF="+mode)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := bench("codecs")
	if err == nil {
		t.Errorf("a codec that fails verification did not fail the benchmark:\n%s", out)
	}
	for _, want := range []string{
		`(?m)^BenchmarkSelf/codec=json/op=encode\S*\s+1\s+\d+ ns/op\s+[\d.]+ B/msg\s+\d+ B/op\s+\d+ allocs/op$`,
		`(?m)^BenchmarkSelf/codec=json/op=decode\S*\s+1\s+\d+ ns/op\s+[\d.]+ B/msg`,
		`serbench.go:\d+: codec binary: unsupported type \*serbench_test.Order: cannot represent variable-size data\s+--- SKIP: BenchmarkSelf/codec=binary\n`,
		`serbench.go:\d+: failed: message 2 of 2: verify: decoded value differs from the original[\s\S]+--- FAIL: BenchmarkSelf/codec=planted-memo-decode\n`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output does not match %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "codec=planted-memo-decode/op=") {
		t.Errorf("a codec that failed verification was timed:\n%s", out)
	}
	out, _ = bench("unknown")
	if !strings.Contains(out, `unknown codec "jsn"; known: gob, gob-stream, json,`) {
		t.Errorf("an unknown codec name: want an error listing the known ones, got:\n%s", out)
	}
}

func TestRunErrors(t *testing.T) {
	ctx := context.Background()
	quick := serbench.Measure(runner.Options{Budget: 10 * time.Millisecond, SampleTime: time.Millisecond})
	tests := []struct {
		name string
		v    any
		opts []serbench.Option
		want string
	}{
		{"nil", nil, nil, "v is nil"},
		{"nil pointer", (*Order)(nil), nil, "nil *serbench_test.Order"},
		{"alternate of another type", Order{ID: 1}, []serbench.Option{serbench.WithAlt(1)}, "WithAlt's value is a *int"},
		{"alternate equal", Order{ID: 1}, []serbench.Option{serbench.WithAlt(&Order{ID: 1})}, "equals the benchmarked value"},
		{"unknown op", Order{ID: 1}, []serbench.Option{serbench.Ops("marshal")}, `unknown op "marshal"; known: encode, decode`},
		{"bad name", Order{ID: 1}, []serbench.Option{serbench.Name("my order")}, "must have no spaces"},
		{"bad loss", Order{ID: 1}, []serbench.Option{serbench.TimePrecision(0)}, "needs a positive Precision"},
		{"unknown library", Order{ID: 1}, []serbench.Option{serbench.Schema("thrift", func(*Order) *Order { return nil }, func(*Order) *Order { return nil })}, `unknown library "thrift"; known: easyjson, msgp, proto, vtproto`},
		{"not generated", Order{ID: 1}, []serbench.Option{serbench.Schema("proto", func(*Order) *Order { return nil }, func(*Order) *Order { return nil })}, "does not implement proto.Message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := serbench.Run(ctx, tt.v, append(tt.opts, quick)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run: %v; want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestRunLabels(t *testing.T) {
	quick := serbench.Measure(runner.Options{Budget: 10 * time.Millisecond, SampleTime: time.Millisecond})
	tests := []struct {
		v              any
		opts           []serbench.Option
		dataset, shape string
		items          int
	}{
		{Order{ID: 1}, nil, "order", "single", 1},
		{[]Order{{ID: 1}, {ID: 2}}, nil, "order", "slice", 2},
		{&[]*Order{{ID: 1}}, []serbench.Option{serbench.Name("orders")}, "orders", "ptrslice", 1},
		{map[string]int{"a": 1}, nil, "value", "single", 1},
	}
	for _, tt := range tests {
		run, err := serbench.Run(context.Background(), tt.v, append(tt.opts, serbench.Codecs("json"), serbench.Ops("encode"), quick)...)
		if err != nil {
			t.Fatal(err)
		}
		if r := run.Results[0]; len(run.Results) != 1 || r.Dataset != tt.dataset || r.Shape != tt.shape || r.Items != tt.items || r.Status != "ok" {
			t.Errorf("Run(%T): %+v; want one ok result of dataset %s, shape %s, %d items", tt.v, run.Results, tt.dataset, tt.shape, tt.items)
		}
	}
}
