package seed004_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/seed004"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// TestRoundTrips checks that every method round-trips the dataset's int
// through the runner's checks, as a run would before timing.
func TestRoundTrips(t *testing.T) {
	d, _ := dataset.Lookup("int64")
	for _, info := range seed004.Codecs {
		job := runner.Job{Codec: info, Dataset: d.Name, Shape: "single", Ops: results.Ops,
			Value: func() (any, error) { return d.Value(dataset.Single) },
			Alt:   func() (any, error) { return d.ValueAt(dataset.Single, 1) }}
		p, err := runner.Prepare(&job)
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		if _, ok := p.Case.(codec.Looper); !ok {
			t.Errorf("%s: its case does not run its own loop (codec.Looper)", info.Name)
		}
		if n, err := p.RoundTrips(10, time.Time{}); err != nil || n != 10 {
			t.Errorf("%s: %d round trips, %v", info.Name, n, err)
		}
	}
}

// TestRatios measures the four methods' encode and decode with
// testing.Benchmark and with
// serbench's runner in one process, interleaved, and prints both sets of
// ratios to the byte-order method: the target is serbench within
// 25% of testing.B on each. It times, so it runs only when asked:
//
//	SERBENCH_SEED004=1 go test -run TestRatios -v ./codecs/seed004/
func TestRatios(t *testing.T) {
	if os.Getenv("SERBENCH_SEED004") != "1" {
		t.Skip("a timing experiment: set SERBENCH_SEED004=1 to run it")
	}
	const rounds = 5
	r, err := runner.New(runner.Options{Budget: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := dataset.Lookup("int64")
	tb := map[string][]float64{}
	sb := map[string][]float64{}
	for range rounds {
		for i, info := range seed004.Codecs {
			var rtb float64
			for _, f := range []func(*testing.B){methods[i].encode, methods[i].decode} {
				res := testing.Benchmark(f)
				rtb += float64(res.T.Nanoseconds()) / float64(res.N)
			}
			tb[info.Name] = append(tb[info.Name], rtb)
			job := runner.Job{Codec: info, Dataset: d.Name, Shape: "single", Ops: results.Ops,
				Value: func() (any, error) { return d.Value(dataset.Single) },
				Alt:   func() (any, error) { return d.ValueAt(dataset.Single, 1) }}
			var rt float64
			for _, res := range r.RunJob(context.Background(), &job) {
				if res.Status != results.OK {
					t.Fatalf("%s %s: %s: %s", info.Name, res.Op, res.Status, res.Reason)
				}
				rt += res.NsPerOp.Median
			}
			sb[info.Name] = append(sb[info.Name], rt)
		}
	}
	median := func(xs []float64) float64 { xs = slices.Clone(xs); slices.Sort(xs); return xs[len(xs)/2] }
	base := seed004.Codecs[0].Name
	var lines []string
	worst := 0.0
	for _, info := range seed004.Codecs {
		n := info.Name
		rb := median(tb[n]) / median(tb[base])
		rs := median(sb[n]) / median(sb[base])
		off := rs/rb - 1
		worst = max(worst, off, -off)
		lines = append(lines, fmt.Sprintf("%-18s testing.B %8.2f ns (ratio %6.1f)   serbench %8.2f ns (ratio %6.1f)   %+5.0f%%",
			n, median(tb[n]), rb, median(sb[n]), rs, 100*off))
	}
	t.Logf("round trip (encode + decode), medians of %d interleaved rounds:\n%s", rounds, strings.Join(lines, "\n"))
	if worst > 0.25 {
		t.Errorf("a ratio is %.0f%% off testing.B's; the target is 25%%", 100*worst)
	}
}

// TestLoopAllocs checks each method's declared variant against what its
// timed loop allocates, by count: byte order's make([]byte, 8) is inlined
// and kept on the stack (its variant says 0 allocations), the other three
// allocate on every call.
func TestLoopAllocs(t *testing.T) {
	v := int64(23422)
	for _, info := range seed004.Codecs {
		c, err := info.New().Prepare(&v)
		if err != nil {
			t.Fatal(err)
		}
		l := c.(codec.Looper)
		// The last call's result is returned, and escapes: one
		// allocation per loop at most for a method that allocates none.
		allocs := testing.AllocsPerRun(10, func() { l.EncodeLoop(100) })
		says := strings.Contains(info.Variant, "0 allocations")
		if says != (allocs <= 1) {
			t.Errorf("%s: its encode loop of 100 calls allocates %v times; its variant says %q", info.Name, allocs, info.Variant)
		}
	}
}
