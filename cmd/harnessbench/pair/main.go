// Command pair checks serbench's harness against testing.B in one process:
// for every operation of the harness preset it alternates testing.B runs
// (testing.Benchmark, one second each, as `go test -bench` runs them) with
// serbench runs of the same operation (runner.RunJob), round after round,
// so both see the same machine and the same compiled code. A shared
// machine's speed drifts over seconds to minutes; timed minutes apart, or
// in two different binaries, the two harnesses would measure different
// things (see README, "Noise").
//
// It writes OUT/testingb.bench (one line per testing.B run),
// OUT/serbench.bench (one line per serbench run: its median) and
// OUT/serbench-pooled.bench (the same runs' pooled time per op, the
// figure testing.B reports), compares them with serbench's compare
// package (medians within ±5%, ranking, each side's round-to-round ±),
// and sets the wall time of ten testing.B runs per operation (what `go
// test -bench . -count=10` spends) against serbench's whole-preset run.
//
//	go run ./cmd/harnessbench/pair [-rounds 10] [-run REGEXP] [-o DIR]
//	go run ./cmd/harnessbench/pair -summarize -o DIR   (an earlier check's files, again)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/serbench/serbench/cmd/harnessbench"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "pair:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("pair", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rounds := fs.Int("rounds", 10, "testing.B and serbench runs per operation")
	filter := fs.String("run", "", "only operations whose name (Encode/codec=json/...) matches this regexp")
	out := fs.String("o", "harness-out", "output directory")
	gate := fs.Bool("gate", false, "serbench samples only while the machine runs at full speed")
	noGC := fs.Bool("nogc", false, "serbench samples without a collection before each")
	gcFirst := fs.Bool("gc-first", false, "serbench collects before every sample, also of operations that allocate fast (whose samples otherwise span whole cycles of their own)")
	fresh := fs.Bool("fresh", false, "testing.B times a freshly prepared value and encoding each round, as each serbench run prepares its own")
	wholeRun := fs.Bool("whole", true, "first run the whole preset, as a user runs it, for its wall time")
	again := fs.Bool("summarize", false, "measure nothing: summarize the .bench files an earlier check wrote in -o")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *again {
		return summarizeAll(stdout, *out)
	}
	if *rounds < 2 {
		return fmt.Errorf("-rounds %d: need at least 2", *rounds)
	}
	re, err := regexp.Compile(*filter)
	if err != nil {
		return fmt.Errorf("-run: %v", err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	p, err := preset.Lookup("harness")
	if err != nil {
		return err
	}
	r, err := runner.New(runner.Options{Budget: p.Budget, SampleTime: p.SampleTime, Gate: *gate, NoGC: *noGC, GCFirst: *gcFirst})
	if err != nil {
		return err
	}

	// The whole preset as a user runs it: its wall time and targets met.
	jobs, err := p.Jobs()
	if err != nil {
		return err
	}
	var whole []results.Result
	var wholeWall time.Duration
	if *wholeRun {
		start := time.Now()
		if whole, err = r.Run(ctx, jobs); err != nil {
			return err
		}
		wholeWall = time.Since(start)
	}
	wholeCount := results.Count(whole)

	cases, err := harnessbench.Cases()
	if err != nil {
		return err
	}
	tb, err := createBench(filepath.Join(*out, "testingb.bench"))
	if err != nil {
		return err
	}
	defer tb.Close()
	sb, err := createBench(filepath.Join(*out, "serbench.bench"))
	if err != nil {
		return err
	}
	defer sb.Close()
	pooled, err := createBench(filepath.Join(*out, "serbench-pooled.bench"))
	if err != nil {
		return err
	}
	defer pooled.Close()
	var tbWall, sbWall time.Duration
	for _, op := range results.Ops {
		for _, c := range cases {
			name := (&results.Result{Op: op, Codec: c.Job.Codec.Name, Dataset: c.Job.Dataset, Shape: c.Job.Shape}).Key()
			if !re.MatchString(name) {
				continue
			}
			job := c.Job
			job.Ops = []results.Op{op}
			for i := range *rounds {
				// Alternate which harness goes first, so that a drift
				// within a round falls on both alike.
				steps := []func() error{
					func() error {
						c := c
						if *fresh {
							p, err := runner.Prepare(&job)
							if err != nil {
								return fmt.Errorf("%s: %v", name, err)
							}
							c.Prep = p
						}
						t0 := time.Now()
						res := testing.Benchmark(harnessbench.Bench(c, op))
						tbWall += time.Since(t0)
						if res.N == 0 {
							return fmt.Errorf("%s: testing.B failed", name)
						}
						return tb.add(name, res.N, float64(res.T.Nanoseconds())/float64(res.N))
					},
					func() error {
						t0 := time.Now()
						res := r.RunJob(ctx, &job)[0]
						sbWall += time.Since(t0)
						if res.Status != results.OK {
							return fmt.Errorf("%s: serbench: %s: %s", name, res.Status, res.ShortReason())
						}
						if err := pooled.add(name, len(res.Samples), res.PooledNsPerOp); err != nil {
							return err
						}
						return sb.add(name, len(res.Samples), res.NsPerOp.Median)
					},
				}
				if i%2 == 1 {
					steps[0], steps[1] = steps[1], steps[0]
				}
				for _, step := range steps {
					if err := ctx.Err(); err != nil {
						return err
					}
					if err := step(); err != nil {
						return err
					}
				}
			}
			fmt.Fprintf(stderr, "%s done\n", name)
		}
	}
	if err := errors.Join(tb.Close(), sb.Close(), pooled.Close()); err != nil {
		return err
	}

	fmt.Fprintf(stdout, "%d alternating rounds per operation.\n", *rounds)
	if err := summarizeAll(stdout, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wall time: %d testing.B runs per operation %.1fs; serbench's %d runs per operation %.1fs\n",
		*rounds, tbWall.Seconds(), *rounds, sbWall.Seconds())
	fmt.Fprintf(stdout, "Machine during serbench's sampling: %s\n", r.Machine())
	if *wholeRun {
		fmt.Fprintf(stdout, "serbench's whole-preset run: %.1fs (%.2f of testing.B's %d runs per operation); "+
			"interval target (%.0f%%) met by %d of %d benchmarks\n",
			wholeWall.Seconds(), wholeWall.Seconds()/tbWall.Seconds(), *rounds, 100*r.Options().Target, wholeCount.Met, wholeCount.OK)
	}
	return nil
}

// summarizeAll compares the files of a check in dir: testing.B with
// serbench's medians and pooled figures, and with itself.
func summarizeAll(w io.Writer, dir string) error {
	tb := filepath.Join(dir, "testingb.bench")
	if _, err := os.Stat(tb); err != nil {
		return fmt.Errorf("%s holds no check's results (%v): run the check with -o %s first", dir, err, dir)
	}
	fmt.Fprintln(w, "testing.B vs serbench:")
	if err := summarize(w, tb, filepath.Join(dir, "serbench.bench"), "testing.B", "serbench"); err != nil {
		return err
	}
	fmt.Fprintln(w, "testing.B vs serbench's pooled time per op (its samples' total time over their iterations, the figure testing.B reports):")
	if err := summarize(w, tb, filepath.Join(dir, "serbench-pooled.bench"), "testing.B", "serbench pooled"); err != nil {
		return err
	}
	fmt.Fprintln(w, "testing.B vs itself (odd rounds vs even rounds), the machine's yardstick:")
	return summarizeHalves(w, tb, dir)
}

// summarize prints the agreement and ranking lines of compare's report,
// and how much each side's rounds of one operation disagreed with each
// other.
func summarize(w io.Writer, oldPath, newPath, oldLabel, newLabel string) error {
	var sb strings.Builder
	old, err := readSet(oldPath)
	if err != nil {
		return err
	}
	cur, err := readSet(newPath)
	if err != nil {
		return err
	}
	rows, err := compare.Compare(old, cur)
	if err != nil {
		return err
	}
	if err := compare.WriteText(&sb, oldPath, newPath, rows); err != nil {
		return err
	}
	report := strings.TrimSuffix(oldPath, ".bench") + "-vs-" + strings.TrimSuffix(filepath.Base(newPath), ".bench") + ".txt"
	if err := os.WriteFile(report, []byte(sb.String()), 0o644); err != nil {
		return err
	}
	if err := compare.WriteSummary(w, rows); err != nil {
		return err
	}
	if sig, total := compare.SignificantBeyond(rows, "sec/op", 0.05); total > 0 {
		fmt.Fprintf(w, "Significant differences (benchstat's test, p ≤ 0.05) larger than ±5%%: %d of %d.\n", sig, total)
	}
	o, n := compare.Spread(rows, "sec/op")
	if math.IsNaN(o) && math.IsNaN(n) {
		return nil // five rounds a side (odd and even) give no interval
	}
	_, err = fmt.Fprintf(w, "Round to round (benchstat's ± of each operation's rounds, the middle over operations): %s %s, %s %s.\n",
		oldLabel, pct(o), newLabel, pct(n))
	return err
}

// pct formats a relative interval as benchstat does, ∞ when unknown.
func pct(x float64) string {
	if math.IsNaN(x) {
		return "∞ (too few rounds for an interval)"
	}
	return fmt.Sprintf("±%.1f%%", 100*x)
}

// summarizeHalves compares testing.B's odd rounds with its even rounds.
func summarizeHalves(w io.Writer, path, out string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	odd, err := createBench(filepath.Join(out, "testingb-odd.bench"))
	if err != nil {
		return err
	}
	defer odd.Close()
	even, err := createBench(filepath.Join(out, "testingb-even.bench"))
	if err != nil {
		return err
	}
	defer even.Close()
	seen := map[string]int{}
	rd := benchfmt.NewReader(f, path)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		name := string(res.Name)
		half := odd
		if seen[name]%2 == 1 {
			half = even
		}
		seen[name]++
		if err := half.w.Write(res); err != nil {
			return err
		}
	}
	if err := rd.Err(); err != nil {
		return err
	}
	if err := errors.Join(odd.Close(), even.Close()); err != nil {
		return err
	}
	return summarize(w, odd.Name(), even.Name(), "odd rounds", "even rounds")
}

func readSet(path string) (*compare.Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return compare.Read(f, path)
}

// A benchFile writes results in Go's benchmark format as they come, so
// an interrupted check keeps what it measured.
type benchFile struct {
	*os.File
	w *benchfmt.Writer
}

func createBench(path string) (*benchFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &benchFile{File: f, w: benchfmt.NewWriter(f)}, nil
}

func (b *benchFile) add(name string, iters int, nsPerOp float64) error {
	return b.w.Write(&benchfmt.Result{
		Name:   benchfmt.Name(name),
		Iters:  iters,
		Values: []benchfmt.Value{{Value: nsPerOp, Unit: "ns/op"}},
	})
}
