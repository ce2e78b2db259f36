// Package bench writes serbench results in Go's benchmark format
// through golang.org/x/perf/benchfmt, one line per sample, with names like
// Encode/codec=json/dataset=tiny/shape=single so benchstat can slice them.
package bench

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/serbench/serbench/compress"
	"github.com/serbench/serbench/results"
)

// UnitEncoded is the unit of the encoded message size.
const UnitEncoded = "B/msg"

// UnitMBs is a stream op's throughput, in MB/s of the stream.
const UnitMBs = "MB/s"

// UnitHeapGrowth is what a long stream's decode left in the live heap,
// in bytes (results.StreamCheck).
const UnitHeapGrowth = "stream-heap-B"

// CompressUnits returns the units of an encoding compressed by algo
// ("zstd-3"): its size, "zstd3-B/msg", and the time to compress and
// decompress it, "zstd3-comp-ns/msg" and "zstd3-decomp-ns/msg".
func CompressUnits(algo string) (size, comp, decomp string) {
	a := strings.ReplaceAll(algo, "-", "")
	return a + "-B/msg", a + "-comp-ns/msg", a + "-decomp-ns/msg"
}

// UnitInstructions is the unit of an op's instructions counted under
// Valgrind (run -measure instructions or both): one line per process
// that counted the result (Result.InstrCounts), apart from its timed
// samples; compare takes their smallest and largest as the count's
// interval (results.Spread).
const UnitInstructions = results.UnitInstructions

// UnitCPU is the unit of a sample's CPU time per op (the process's, user
// and system), beside its wall time (ns/op).
const UnitCPU = "cpu-ns/op"

// The units of the production figures: a decoded value's kept heap, the
// collector's cycles and CPU time per 1,000 operations, a result's first
// call in a fresh process, and throughput at a GOMAXPROCS (run -cpu),
// which go test reports as MB/s.
const (
	UnitKept      = "kept-B/op"
	UnitGCCycles  = "gc-cycles/kop"
	UnitGCCPU     = "gc-cpu-ns/kop"
	UnitFirstCall = "first-call-ns"
	UnitMBPerSec  = "MB/s"
)

// Write writes every measured sample of run. Results that were skipped,
// failed or errored are listed as comment lines at the end, which
// benchmark readers ignore.
func Write(w io.Writer, run *results.Run) error {
	bw := benchfmt.NewWriter(w)
	exact := []string{UnitEncoded} // not a count: each process's is a line of its own
	if compressed(run) {
		for _, algo := range compress.Names() {
			size, _, _ := CompressUnits(algo)
			exact = append(exact, size)
		}
	}
	for _, u := range exact {
		if err := bw.Write(&benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: "assume"}, OrigUnit: u, Value: "exact"}); err != nil {
			return err
		}
	}
	cfg := Config(run)
	var notRun []results.Result
	for _, res := range run.Results {
		if res.Status != results.OK {
			notRun = append(notRun, res)
			continue
		}
		for _, s := range res.Samples {
			r := &benchfmt.Result{
				Config: cfg,
				Name:   benchfmt.Name(res.Key()),
				Iters:  s.Iters,
				Values: []benchfmt.Value{
					{Value: round(s.NsPerOp), Unit: "ns/op"},
					{Value: round(s.BPerOp), Unit: "B/op"},
					{Value: round(s.AllocsPerOp), Unit: "allocs/op"},
					{Value: float64(res.Bytes), Unit: UnitEncoded},
				},
			}
			if s.CPUNsPerOp > 0 {
				r.Values = append(r.Values, benchfmt.Value{Value: round(s.CPUNsPerOp), Unit: UnitCPU})
			}
			r.Values = append(r.Values, production(&res, s)...)
			if res.StreamBytes > 0 && s.NsPerOp > 0 {
				r.Values = append(r.Values, benchfmt.Value{Value: round(res.StreamBytes / s.NsPerOp * 1e3), Unit: UnitMBs})
			}
			if res.Streams != nil {
				r.Values = append(r.Values, benchfmt.Value{Value: float64(res.Streams.HeapGrowth), Unit: UnitHeapGrowth})
			}
			for _, c := range res.Compressed {
				size, comp, decomp := CompressUnits(c.Algo)
				r.Values = append(r.Values, benchfmt.Value{Value: float64(c.Bytes), Unit: size},
					benchfmt.Value{Value: round(c.CompressNs), Unit: comp}, benchfmt.Value{Value: round(c.DecompressNs), Unit: decomp})
			}
			if err := bw.Write(r); err != nil {
				return err
			}
		}
		counts := res.InstrCounts
		if len(counts) == 0 && res.InstrPerOp > 0 {
			counts = []float64{res.InstrPerOp}
		}
		for _, n := range counts {
			r := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(res.Key()), Iters: 1, Values: []benchfmt.Value{
				{Value: round(n), Unit: UnitInstructions},
				{Value: float64(res.Bytes), Unit: UnitEncoded},
			}}
			if err := bw.Write(r); err != nil {
				return err
			}
		}
	}
	var implausible []results.Result
	for _, res := range run.Results {
		if res.Status == results.OK && res.Implausible != "" {
			implausible = append(implausible, res)
		}
	}
	if len(implausible) > 0 {
		fmt.Fprintf(w, "\n# Implausible, too fast to be the codec's work (%d):\n", len(implausible))
	}
	for _, res := range implausible {
		if _, err := fmt.Fprintf(w, "# implausible %s: %s\n", res.Key(), res.Implausible); err != nil {
			return err
		}
	}
	if len(notRun) > 0 {
		fmt.Fprintf(w, "\n# Not measured (%d):\n", len(notRun))
	}
	for _, res := range notRun {
		if _, err := fmt.Fprintf(w, "# %s %s: %s\n", res.Status, res.Key(), res.ShortReason()); err != nil {
			return err
		}
	}
	return nil
}

// compressed reports whether any of run's results holds compressed sizes.
func compressed(run *results.Run) bool {
	for i := range run.Results {
		if len(run.Results[i].Compressed) > 0 {
			return true
		}
	}
	return false
}

// Config returns the file configuration lines for run: the environment
// and the version of every codec measured.
func Config(run *results.Run) []benchfmt.Config {
	e := run.Env
	kv := [][2]string{
		{"goos", e.GOOS}, {"goarch", e.GOARCH}, {"pkg", "github.com/serbench/serbench"},
		{"cpu", e.CPU}, {"go", e.GoVersion}, {"gomaxprocs", strconv.Itoa(e.GOMAXPROCS)},
		{"serbench", e.Serbench}, {"date", e.Date},
	}
	if run.Options.Preset != "" {
		kv = append(kv, [2]string{"preset", run.Options.Preset})
	}
	if run.Document != nil {
		kv = append(kv, [2]string{"document", run.Document.String()})
	}
	if len(e.CPUList) > 0 {
		kv = append(kv, [2]string{"cpu-list", intList(e.CPUList)}, [2]string{"cores", intList(e.Cores)})
	}
	if run.Options.LiveHeap > 0 {
		kv = append(kv, [2]string{"live-heap", strconv.FormatInt(run.Options.LiveHeap, 10)})
	}
	used := map[string]bool{}
	for _, r := range run.Results {
		used[r.Codec] = true
	}
	var mods [][2]string
	for _, c := range run.Codecs {
		if used[c.Name] {
			mods = append(mods, [2]string{"codec-" + c.Name, c.Module + "@" + c.Version})
		}
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i][0] < mods[j][0] })
	kv = append(kv, mods...)
	cfg := make([]benchfmt.Config, len(kv))
	for i, p := range kv {
		cfg[i] = benchfmt.Config{Key: p[0], Value: []byte(p[1]), File: true}
	}
	return cfg
}

// round keeps six significant digits, beyond anything a timer resolves,
// so that the file shows 1504.5, not 1504.4999999999998.
func round(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return r
}

// production returns a sample's production figures, each where its
// result has it: the collector's per sample (a sample without a cycle
// reads 0, which benchstat must see), the kept heap and the first call
// per result, and MB/s for a result timed at a GOMAXPROCS.
func production(res *results.Result, s results.Sample) []benchfmt.Value {
	var vs []benchfmt.Value
	if res.Procs > 0 && s.NsPerOp > 0 && res.Bytes > 0 {
		vs = append(vs, benchfmt.Value{Value: round(float64(res.Bytes) * 1e3 / s.NsPerOp), Unit: UnitMBPerSec})
	}
	if res.KeptBPerOp > 0 {
		vs = append(vs, benchfmt.Value{Value: round(res.KeptBPerOp), Unit: UnitKept})
	}
	if (res.GCCyclesPerKop > 0 || res.GCCPUNsPerKop > 0) && s.Iters > 0 {
		vs = append(vs,
			benchfmt.Value{Value: round(1000 * float64(s.GCs) / float64(s.Iters)), Unit: UnitGCCycles},
			benchfmt.Value{Value: round(1000 * s.GCCPUNs / float64(s.Iters)), Unit: UnitGCCPU})
	}
	if res.ColdNs > 0 {
		vs = append(vs, benchfmt.Value{Value: round(res.ColdNs), Unit: UnitFirstCall})
	}
	return vs
}

// intList formats numbers as a comma-separated list: "1,2,4".
func intList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
