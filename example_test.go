package serbench_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codecs/proto/schema"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/report"
	"github.com/serbench/serbench/runner"
)

// Order is a type of your own.
type Order struct {
	ID    int64
	Lines []string
	At    time.Time
}

// In a test file, one benchmark function measures your type with every
// codec that can hold it; go test -bench . -count 10 | benchstat - then
// compares them. (testing.Benchmark runs it here; go test -bench runs a
// BenchmarkOrder function of the same body.)
func ExampleBenchmark() {
	benchmarkOrder := func(b *testing.B) {
		serbench.Benchmark(b, &Order{ID: 7, Lines: []string{"tea", "cake"}, At: time.Now()},
			serbench.Codecs("json", "gob-stream", "msgpack", "cbor"), // default: every codec that can hold it
			serbench.TimePrecision(time.Millisecond))                 // times need only compare at ms
	}
	testing.Benchmark(benchmarkOrder)
}

// A program measures a value as serbench run does, and writes the same
// files.
func ExampleRun() {
	order := Order{ID: 7, Lines: []string{"tea", "cake"}, At: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)}
	run, err := serbench.Run(context.Background(), order,
		serbench.Codecs("json", "gob-stream", "binary"),
		serbench.Measure(runner.Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range run.Results {
		fmt.Println(r.Codec, r.Dataset, r.Op, r.Status)
	}
	dir, err := os.MkdirTemp("", "serbench-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := report.WriteFiles(dir, run); err != nil {
		fmt.Println(err)
	}
	// Output:
	// json order encode ok
	// json order decode ok
	// gob-stream order encode ok
	// gob-stream order decode ok
	// binary order encode skipped
	// binary order decode skipped
}

// Protobuf joins on a type of your own through the message generated for
// it and conversions both ways; here dataset.User and the User message
// serbench's own serbench.proto generates.
func ExampleSchema() {
	toProto := func(u *dataset.User) *schema.User {
		return &schema.User{Id: int64(u.ID), Name: u.Name, Email: u.Email}
	}
	fromProto := func(m *schema.User) *dataset.User {
		return &dataset.User{ID: int(m.GetId()), Name: m.GetName(), Email: m.GetEmail()}
	}
	run, err := serbench.Run(context.Background(), dataset.NewUser(0),
		serbench.Codecs("json", "proto"),
		serbench.Schema("proto", toProto, fromProto),
		serbench.Measure(runner.Options{Budget: 20 * time.Millisecond, SampleTime: time.Millisecond}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range run.Results {
		fmt.Println(r.Codec, r.Op, r.Status, r.Bytes)
	}
	// Output:
	// json encode ok 53
	// json decode ok 53
	// proto encode ok 30
	// proto decode ok 30
}

// A measured float keeps every digit a float64 has; jsoniter-fastest
// writes 6 decimals, so it is skipped with the loss it declares until the
// type's floats are said to need no more than 6 significant digits.
func ExampleFloatPrecision() {
	reading := Reading{Sensor: "t1", Value: 0.6046602879796196}
	for _, opts := range [][]serbench.Option{
		{serbench.Codecs("json", "jsoniter-fastest")},
		{serbench.Codecs("json", "jsoniter-fastest"), serbench.FloatPrecision(6)},
	} {
		jobs, err := serbench.Jobs(reading, opts...)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, j := range jobs {
			fmt.Printf("%s measured: %v\n", j.Codec.Name, j.Skip == "")
		}
	}
	// Output:
	// json measured: true
	// jsoniter-fastest measured: false
	// json measured: true
	// jsoniter-fastest measured: true
}
