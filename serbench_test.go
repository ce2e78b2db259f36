package serbench_test

import (
	"context"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/planted"
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
	case "lossy":
		serbench.Benchmark(b, &Order{ID: 7, Lines: []string{"tea"}, At: time.Date(2026, 1, 2, 3, 4, 5, 6, cet)},
			serbench.Codecs("json", "msgpack", "binary", "gjson"), serbench.Ops("encode"))
	case "floats":
		serbench.Benchmark(b, &Reading{Sensor: "t1", Value: 0.6046602879796196},
			serbench.Codecs("json", "jsoniter-fastest"), serbench.Ops("encode"))
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
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkSelf$", "-test.benchtime=1x", "-test.v="+strconv.FormatBool(mode != "lossy" && mode != "floats"))
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
	// A codec left out is said without -v too, in go test's own form:
	// for what it loses of the value, for a type it cannot hold, and an
	// in-place reader, which takes no part in encode or decode (as in
	// serbench run) rather than timing encoding/json's under its name.
	out, err = bench("lossy")
	if err != nil {
		t.Errorf("a lossy codec's skip failed the benchmark: %v\n%s", err, out)
	}
	if strings.Contains(out, "codec=gjson/op=") {
		t.Errorf("an in-place reader was timed on encode:\n%s", out)
	}
	for _, want := range []string{
		`(?m)^BenchmarkSelf/codec=json/op=encode\S*\s+1\s+\d+ ns/op`,
		`(?m)^--- SKIP: BenchmarkSelf/codec=binary\n +codec binary: unsupported type \*serbench_test.Order`,
		`(?m)^--- SKIP: BenchmarkSelf/codec=gjson\n +gjson is an in-place reader of json's encodings, not a codec`,
		`(?m)^--- SKIP: BenchmarkSelf/codec=msgpack\n +msgpack does not return this value exactly: it loses time-zone, as it declares \(-want \+got: .At: -2026-01-02T03:04:05.000000006\+01:00 CET \+\S+ \S+\);.* serbench.Losses\(codec.Loss\{Kind: codec.TimeZone\}\)`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output does not match %s:\n%s", want, out)
		}
	}
	// A float of full precision: jsoniter-fastest writes 6 decimals, and
	// is skipped with the loss it declares and the option that accepts it.
	out, err = bench("floats")
	if err != nil {
		t.Errorf("a rounding codec's skip failed the benchmark: %v\n%s", err, out)
	}
	for _, want := range []string{
		`(?m)^BenchmarkSelf/codec=json/op=encode\S*\s+1\s+\d+ ns/op`,
		`(?m)^--- SKIP: BenchmarkSelf/codec=jsoniter-fastest\n +jsoniter-fastest does not return this value exactly: it loses float-precision\(6\), as it declares \(-want \+got: .Value: -0.6046602879796196 \+0.60466\);.* serbench.Losses\(codec.Loss\{Kind: codec.FloatPrecision, Digits: 6\}\) in Go or -accept float-precision=6 with run -file`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output does not match %s:\n%s", want, out)
		}
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

// cet is a zone of its own, as a user's time.Local would be.
var cet = time.FixedZone("CET", 3600)

// TestExact checks the rule for a value of the user's own: a codec must
// return it exactly; one that loses part of it as it declares is skipped
// with the losses named, unless they are accepted with Losses; one that
// changes it beyond what it declares is left to fail in the runner.
func TestExact(t *testing.T) {
	nano := &Order{ID: 7, Lines: []string{"tea", "cake"}, At: time.Date(2026, 1, 2, 3, 4, 5, 6, cet)}
	// cbor and msgpack decode a time in time.Local: one of whole seconds
	// there comes back exactly, whatever the machine's zone.
	whole := &Order{ID: 7, Lines: []string{"tea", "cake"}, At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)}
	var lossyLater serbench.Option
	for _, c := range planted.Codecs {
		if c.Name == planted.LossyLater {
			c.Losses = []codec.Loss{{Kind: codec.TimeZone}}
			lossyLater = serbench.WithCodec(c)
		}
	}
	tests := []struct {
		name   string
		v      *Order
		codec  string
		opts   []serbench.Option
		skip   string // a regexp the skip reason matches; "" for a job that is measured
		losses string // the losses the job's round trips are compared under
	}{
		{"json keeps nanoseconds and the offset", nano, "json", nil, "", ""},
		{"gob keeps them too", nano, "gob-stream", nil, "", ""},
		{"cbor loses sub-seconds and the zone", nano, "cbor", nil,
			`^cbor does not return this value exactly: it loses time-precision\(1s\) and time-zone, as it declares \(-want \+got: .At: -2026-01-02T03:04:05.000000006\+01:00 CET \+\S+ \S+\); .*serbench.Losses\(codec.Loss\{Kind: codec.TimePrecision, Precision: time.Second\}, codec.Loss\{Kind: codec.TimeZone\}\)`, ""},
		{"cbor with only a millisecond accepted", nano, "cbor", []serbench.Option{serbench.TimePrecision(time.Millisecond)},
			`it loses time-zone, as it declares .*serbench.Losses\(codec.Loss\{Kind: codec.TimeZone\}\)`, "time-precision(1ms)"}, // 6 ns off is within the millisecond
		{"cbor with a millisecond and the zone accepted", nano, "cbor", []serbench.Option{serbench.TimePrecision(time.Millisecond), serbench.Losses(codec.Loss{Kind: codec.TimeZone})},
			"", "time-precision(1ms) time-zone"},
		{"cbor with its losses accepted", nano, "cbor", []serbench.Option{serbench.TimePrecision(time.Second), serbench.Losses(codec.Loss{Kind: codec.TimeZone})},
			"", "time-precision(1s) time-zone"},
		{"cbor on a whole-second local time", whole, "cbor", nil, "", ""},
		{"msgpack loses the zone", nano, "msgpack", nil, `^msgpack does not return this value exactly: it loses time-zone, as it declares .*serbench.Losses\(codec.Loss\{Kind: codec.TimeZone\}\)`, ""},
		{"msgpack with the zone accepted", nano, "msgpack", []serbench.Option{serbench.Losses(codec.Loss{Kind: codec.TimeZone})}, "", "time-zone"},
		{"msgpack on a local time", whole, "msgpack", nil, "", ""},
		{"a codec wrong beyond what it declares keeps its losses and fails", nano, planted.LossyLater, []serbench.Option{lossyLater}, "", "time-zone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs, err := serbench.Jobs(tt.v, append(tt.opts, serbench.Codecs(tt.codec))...)
			if err != nil {
				t.Fatal(err)
			}
			job := jobs[0]
			if tt.skip == "" && job.Skip != "" || tt.skip != "" && !regexp.MustCompile(tt.skip).MatchString(job.Skip) {
				t.Errorf("skip reason %q; want one matching %q", job.Skip, tt.skip)
			}
			if got := strings.Join(codec.LossNames(job.Codec.Losses), " "); got != tt.losses {
				t.Errorf("compared under losses %q; want %q", got, tt.losses)
			}
		})
	}
}

// Reading is a measured value: a float with every digit a float64 has.
type Reading struct {
	Sensor string
	Value  float64
}

// TestExactFloats checks the rule on floats of full precision: a codec
// that rounds them is skipped with float-precision named, and measured
// once as few digits as it keeps are accepted.
func TestExactFloats(t *testing.T) {
	v := &Reading{Sensor: "t1", Value: 0.6046602879796196}
	tests := []struct {
		name   string
		codec  string
		opts   []serbench.Option
		skip   string // a regexp the skip reason matches; "" for a job that is measured
		losses string // the losses the job's round trips are compared under
	}{
		{"json keeps every digit", "json", nil, "", ""},
		{"jsoniter keeps every digit", "jsoniter", nil, "", ""},
		{"jsoniter-fastest rounds to 6 decimals", "jsoniter-fastest", nil,
			`^jsoniter-fastest does not return this value exactly: it loses float-precision\(6\), as it declares \(-want \+got: .Value: -0.6046602879796196 \+0.60466\); .*serbench.Losses\(codec.Loss\{Kind: codec.FloatPrecision, Digits: 6\}\) in Go or -accept float-precision=6 with run -file`, ""},
		{"jsoniter-fastest with 7 digits accepted", "jsoniter-fastest", []serbench.Option{serbench.FloatPrecision(7)},
			`it loses float-precision\(6\)`, "float-precision(7)"},
		{"jsoniter-fastest with 6 digits accepted", "jsoniter-fastest", []serbench.Option{serbench.FloatPrecision(6)}, "", "float-precision(6)"},
		{"jsoniter-fastest with 3 digits accepted", "jsoniter-fastest", []serbench.Option{serbench.Losses(codec.Loss{Kind: codec.FloatPrecision, Digits: 3})}, "", "float-precision(3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs, err := serbench.Jobs(v, append(tt.opts, serbench.Codecs(tt.codec))...)
			if err != nil {
				t.Fatal(err)
			}
			job := jobs[0]
			if tt.skip == "" && job.Skip != "" || tt.skip != "" && !regexp.MustCompile(tt.skip).MatchString(job.Skip) {
				t.Errorf("skip reason %q; want one matching %q", job.Skip, tt.skip)
			}
			if got := strings.Join(codec.LossNames(job.Codec.Losses), " "); got != tt.losses {
				t.Errorf("compared under losses %q; want %q", got, tt.losses)
			}
		})
	}
	if _, err := serbench.Jobs(v, serbench.Losses(codec.Loss{Kind: codec.FloatPrecision})); err == nil || !strings.Contains(err.Error(), "needs Digits") {
		t.Errorf("a float-precision loss without Digits: %v", err)
	}
}

// TestRunExact checks that Run applies the rule: the lossy codec's results
// are skipped with the loss named, the exact codec's measured.
func TestRunExact(t *testing.T) {
	order := Order{ID: 7, Lines: []string{"tea"}, At: time.Date(2026, 1, 2, 3, 4, 5, 6, cet)}
	run, err := serbench.Run(context.Background(), order, serbench.Codecs("json", "msgpack"), serbench.Ops("encode"),
		serbench.Measure(runner.Options{Budget: 10 * time.Millisecond, SampleTime: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range run.Results {
		got = append(got, r.Codec+" "+string(r.Status))
	}
	if want := "json ok, msgpack skipped"; strings.Join(got, ", ") != want {
		t.Fatalf("results %s; want %s", strings.Join(got, ", "), want)
	}
	if r := run.Results[1]; !strings.Contains(r.Reason, "it loses time-zone") {
		t.Errorf("msgpack's reason %q does not name the loss", r.Reason)
	}
}

// TestAlt checks the second value of the decode benchmark: a varied copy
// by default, WithAlt's, or none with NoAlt.
func TestAlt(t *testing.T) {
	order := &Order{ID: 7, Lines: []string{"tea"}}
	second := &Order{ID: 8, Lines: []string{"cake"}}
	tests := []struct {
		name string
		opts []serbench.Option
		want *Order // nil: no second value
	}{
		{"default", nil, &Order{ID: 8, Lines: []string{"uea"}, At: order.At.Add(time.Hour)}},
		{"WithAlt", []serbench.Option{serbench.WithAlt(second)}, second},
		{"NoAlt", []serbench.Option{serbench.NoAlt()}, nil},
		{"NoAlt then WithAlt", []serbench.Option{serbench.NoAlt(), serbench.WithAlt(second)}, second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs, err := serbench.Jobs(order, append(tt.opts, serbench.Codecs("json"))...)
			if err != nil {
				t.Fatal(err)
			}
			switch alt := jobs[0].Alt; {
			case tt.want == nil && alt != nil:
				v, _ := alt()
				t.Errorf("a second value %+v; want none", v)
			case tt.want != nil && alt == nil:
				t.Errorf("no second value; want %+v", tt.want)
			case tt.want != nil:
				if v, _ := alt(); !reflect.DeepEqual(v, tt.want) {
					t.Errorf("second value %+v; want %+v", v, tt.want)
				}
			}
		})
	}
}

// TestNeeds checks that Needs leaves out the codecs failing a need, and
// that one judged by a study absent from the matrices given is left out
// as unknown.
func TestNeeds(t *testing.T) {
	v := &Reading{Sensor: "t1", Value: 2.5}
	names := func(jobs []runner.Job) string {
		var out []string
		for _, j := range jobs {
			out = append(out, j.Codec.Name)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		needs, want string
	}{
		{"human-readable", "json,yaml"},
		{"human-readable,streams", "json,yaml"},
		{"schema", ""},    // json, msgpack and yaml all carry field names
		{"untrusted", ""}, // no hostile matrix given: unknown for every codec
	} {
		jobs, err := serbench.Jobs(v, serbench.Codecs("json", "msgpack", "yaml"), serbench.Needs(tc.needs))
		if err != nil {
			t.Fatalf("%s: %v", tc.needs, err)
		}
		if got := names(jobs); got != tc.want {
			t.Errorf("Needs(%q): codecs %q; want %q", tc.needs, got, tc.want)
		}
	}
	if _, err := serbench.Jobs(v, serbench.Needs("untrsted")); err == nil || !strings.Contains(err.Error(), "did you mean untrusted") {
		t.Errorf("an unknown need: %v; want an error with a suggestion", err)
	}
}
