// The examples look codecs up in the registry, which links every codec:
// the race detector's build of this package's tests leaves them out, to
// stay small (scripts/test runs them without -race).

//go:build !race

package runner_test

import (
	"context"
	"fmt"
	"time"

	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// Order is a user's own type.
type Order struct {
	ID    int64
	Lines []string
	At    time.Time
}

// Benchmark a type of your own: any value works, not only the built-in
// datasets. The round trip is verified before anything is timed.
func ExampleRunner_RunJob() {
	r, err := runner.New(runner.Options{Budget: 50 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"json", "gob-stream", "binary"} {
		info, err := registry.Lookup(name)
		if err != nil {
			panic(err)
		}
		job := runner.Job{
			Codec: info, Dataset: "order", Shape: "single", Items: 1, Ops: results.Ops,
			Value: func() (any, error) {
				return &Order{ID: 7, Lines: []string{"tea", "cake"}, At: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)}, nil
			},
		}
		for _, res := range r.RunJob(context.Background(), &job) {
			fmt.Println(res.Codec, res.Op, res.Status, res.Bytes > 0)
		}
	}
	// Output:
	// json encode ok true
	// json decode ok true
	// gob-stream encode ok true
	// gob-stream decode ok true
	// binary encode skipped false
	// binary decode skipped false
}
