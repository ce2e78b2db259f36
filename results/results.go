// Package results is serbench's data model for a run: the environment,
// the codecs measured and one Result per benchmark, with every sample
// kept. The runner produces a Run; renderers and readers consume it.
//
// It is also the one model of a study's matrix (Matrix: codecs by cases,
// an outcome, detail and reproducer per cell, a verdict per codec), which
// fidelity, hostile and every later study fill from their Study data.
package results

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"
)

// An Op is the operation a benchmark times.
type Op string

// The operations.
const (
	Encode Op = "encode"
	Decode Op = "decode"
	// StreamEncode and StreamDecode time one message of a stream written
	// through the library's streaming Encoder to an io.Writer, and read
	// back through its Decoder from an io.Reader (codec.Streamer).
	StreamEncode Op = "stream-encode"
	StreamDecode Op = "stream-decode"
)

// Ops lists the default operations, in display order: a run without
// -ops times these, and the summary's answers are about them.
var Ops = []Op{Encode, Decode}

// String returns the op's name.
func (op Op) String() string { return string(op) }

// The operations that read: a get reads the first, the first seven or
// all of a dataset's named fields from an encoding (in place where the
// codec can, through a struct holding only those fields for a reflection
// library, by a full decode otherwise: Result.Via says which); GetFloor
// decodes into an empty struct, the cost of validating the input;
// DecodeAny decodes into generic values (maps, lists, numbers).
const (
	Get1      Op = "get1"
	Get7      Op = "get7"
	GetAll    Op = "getall"
	GetFloor  Op = "getfloor"
	DecodeAny Op = "decode-any"
)

// MoreOps lists the operations timed only when asked for (run -ops), in
// display order; each is one entry of the runner's operations table.
var MoreOps = []Op{Get1, Get7, GetAll, GetFloor, DecodeAny, StreamEncode, StreamDecode}

// ReaderOps lists the ops an in-place reader (a codec entry whose
// codec.Info.ReadsOnly is set) takes part in; the others skip it.
var ReaderOps = []Op{Get1, Get7, GetAll, DecodeAny}

// AllOps returns every operation, the default ones first.
func AllOps() []Op { return append(append([]Op{}, Ops...), MoreOps...) }

// A Status says how a benchmark ended.
type Status string

// The statuses.
const (
	OK      Status = "ok"      // verified and measured
	Failed  Status = "failed"  // verification failed: the round trip lost or changed data
	Error   Status = "error"   // the codec returned an error, panicked or hung
	Skipped Status = "skipped" // not run: the codec cannot represent the value, or the case was not asked for
)

// A Run is the record of one serbench run.
type Run struct {
	Env     Env      `json:"env"`
	Options Options  `json:"options"`
	Codecs  []Codec  `json:"codecs"`
	Results []Result `json:"results"`
	Peak    Memory   `json:"peak_memory"`
	// Machine is how steadily the machine ran; nil in runs recorded
	// before serbench probed it.
	Machine  *Machine  `json:"machine,omitempty"`
	Warnings []string  `json:"warnings,omitempty"`
	Started  time.Time `json:"started"`
	Elapsed  Duration  `json:"elapsed"`
	// Refined counts the benchmarks sampled again in the run's refining
	// pass (the contested ones: results.Contested), their samples merged.
	Refined int `json:"refined,omitempty"`
	// Document, if set, is the user's document the run measured in
	// place of the datasets (serbench run -file).
	Document *Document `json:"document,omitempty"`
	// Needs, if set, are what the user needs of a format (run -need) and
	// how each candidate stood against them; the run measured only the
	// candidates that meet every need.
	Needs *Needs `json:"needs,omitempty"`
	// Matrices are the study matrices found beside the run (fidelity.json,
	// hostile.json, ...); each is saved in its own file, not in
	// results.json.
	Matrices []*Matrix `json:"-"`
}

// A Document is a user's file measured as generic values (maps of
// string to any, lists of any), under the file's base name as dataset.
type Document struct {
	File     string `json:"file"`     // the file's base name
	Format   string `json:"format"`   // "JSON", "JSON lines", "YAML", "CBOR", "MessagePack"
	Bytes    int64  `json:"bytes"`    // the file's size
	Messages int    `json:"messages"` // 1 for a document; JSON lines: one per line
	// Second is the base name of the second document the decode
	// benchmark alternated with this one; empty when this one was the
	// only message.
	Second string `json:"second,omitempty"`
}

// String describes the document and the messages made of it:
// "orders.json (123456 bytes of JSON; decoded alone, no second
// document)" or "orders.json (123456 bytes of JSON; decode alternates it
// with orders2.json)".
func (s *Document) String() string {
	str := fmt.Sprintf("%s (%d bytes of %s", s.File, s.Bytes, s.Format)
	if s.Messages != 1 {
		str += fmt.Sprintf(", %d messages", s.Messages)
	}
	if s.Second != "" {
		str += "; decode alternates it with " + s.Second
	} else {
		str += "; decoded alone, no second document"
	}
	return str + ")"
}

// Env describes the machine and build that produced a Run.
type Env struct {
	GoVersion  string `json:"go_version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Serbench   string `json:"serbench_version"`
	Date       string `json:"date"`
	// Overhead is the measured cost of one iteration of the harness's
	// timed loop with a codec that does nothing, in ns. It is included in
	// every figure, as in testing.B.
	Overhead float64 `json:"loop_overhead_ns"`
	// CPUList is the GOMAXPROCS values the run timed each benchmark at
	// (run -cpu, as go test -cpu), each with as many goroutines; empty
	// when the run timed one goroutine at the process's GOMAXPROCS.
	CPUList []int `json:"cpu_list,omitempty"`
	// Cores are the CPUs the process may run on (its affinity mask, as
	// taskset numbers them), where the OS reports them: with CPUList, the
	// cores the parallel figures had.
	Cores []int `json:"cores,omitempty"`
	// SpinSpeedup holds, for each of CPUList, the machine's ceiling for a
	// speed-up there, measured as the run starts: how many times as much
	// work a loop of pure arithmetic did on that many goroutines as on
	// one. It is the GOMAXPROCS on a machine of its own; less where other
	// work held cores, and no codec's speed-up could be more.
	SpinSpeedup []float64 `json:"spin_speedup,omitempty"`
	// SpinSpeedupHi holds, for each of CPUList, the highest of the
	// ceilings measured as the run started and as it ended: the top of
	// the ceiling's range (FlagScaling).
	SpinSpeedupHi []float64 `json:"spin_speedup_hi,omitempty"`
	// Load is the machine's load average over 1, 5 and 15 minutes as the
	// run started ("1.02 0.87 0.55", /proc/loadavg), where the OS reports
	// it: how busy the machine was beside the run.
	Load string `json:"load,omitempty"`
}

// Options records the measuring options a Run used.
type Options struct {
	Preset     string   `json:"preset,omitempty"`
	Target     float64  `json:"ci_target"`
	Confidence float64  `json:"confidence"`
	SampleTime Duration `json:"sample_time"`
	Budget     Duration `json:"budget"`
	// Time is the whole run's time shared among its benchmarks, 0 when
	// each had Budget.
	Time       Duration `json:"run_time,omitempty"`
	MinSamples int      `json:"min_samples"`
	MaxSamples int      `json:"max_samples"`
	// GCBefore: a collection ran before each sample; WholeCycles: except
	// those of operations that allocate fast, which spanned whole
	// collection cycles of their own instead (the runner's default).
	GCBefore    bool `json:"gc_before_sample"`
	WholeCycles bool `json:"fast_allocators_whole_gc_cycles,omitempty"`
	// PinCPU is runner.Options.PinCPU: 0 for no pinning, else the run
	// pinned to CPU PinCPU-1 (serbench run -pin PinCPU-1).
	PinCPU int `json:"pin_cpu,omitempty"`
	// BatchTime: a sample runs the loop in timed batches of about
	// BatchTime.
	BatchTime Duration `json:"batch_time,omitempty"`
	// Gate is the quiet gate's tolerance, 0 when the gate was off.
	Gate float64 `json:"quiet_gate,omitempty"`
	// Compress: every encoding was also compressed (Result.Compressed).
	Compress bool `json:"compress,omitempty"`
	// LiveHeap is the pointer-rich data, in bytes, each measuring process
	// kept alive while it sampled (run -live-heap), so that every
	// collection had that heap to mark, as in a service; 0 for none.
	LiveHeap int64 `json:"live_heap_bytes,omitempty"`
	// Measure is what the run measured: "time" (also when empty),
	// "instructions" (counted under Valgrind) or "both".
	Measure string `json:"measure,omitempty"`
	// CountSeed, in a run that counted, says what seeded the counting
	// processes' runtimes: "fixed: ..." where a build of serbench whose
	// runtime seeds from a constant counted (every process draws the same
	// map and sync.Map seeds, so counts repeat), else "random per
	// process: " and why no such build could be made.
	CountSeed string `json:"count_seed,omitempty"`
}

// Codec is the metadata of a codec as recorded in a Run.
type Codec struct {
	Name    string   `json:"name"`
	Family  string   `json:"family"`
	Label   string   `json:"label"`
	Module  string   `json:"module"`
	Version string   `json:"version"`
	URL     string   `json:"url"`
	API     string   `json:"api"`
	Variant string   `json:"variant,omitempty"`
	Losses  []string `json:"losses,omitempty"`
	Notes   string   `json:"notes,omitempty"`
	// ReusesBuffer, ReusesTarget and Aliases are the codec's variant
	// flags (codec.Info): the encode buffer kept across calls, one decode
	// target reused, decoded strings pointing into the input (zero-copy).
	ReusesBuffer bool `json:"reuses_buffer,omitempty"`
	ReusesTarget bool `json:"reuses_target,omitempty"`
	Aliases      bool `json:"aliases,omitempty"`
	// ReadsOnly names the codec whose encodings an in-place reader reads.
	ReadsOnly string `json:"reads_only,omitempty"`
	// LossProbes names, for each of Losses, the fidelity probe that
	// shows it (serbench fidelity -probes NAME), where one does.
	LossProbes map[string]string `json:"loss_probes,omitempty"`
}

// A Result is one benchmark: one op of one codec on one dataset shape.
type Result struct {
	Op      Op     `json:"op"`
	Codec   string `json:"codec"`
	Dataset string `json:"dataset"`
	Shape   string `json:"shape"`
	Status  Status `json:"status"`
	Reason  string `json:"reason,omitempty"`
	// Bytes is the size of one encoded message.
	Bytes int `json:"bytes,omitempty"`
	// Items is the number of dataset elements in the value.
	Items int `json:"items,omitempty"`
	// Procs is the GOMAXPROCS the benchmark ran at (run -cpu), its timed
	// loop on as many goroutines, each with a case and a pool of messages
	// of its own; NsPerOp is then wall time over the operations of all of
	// them, as testing.B's RunParallel reports. 0 when the run set none:
	// one goroutine at the process's GOMAXPROCS.
	Procs   int      `json:"gomaxprocs,omitempty"`
	Samples []Sample `json:"samples,omitempty"`
	// Summary statistics of the samples' ns/op.
	NsPerOp Stat `json:"ns_per_op"`
	// PooledNsPerOp is the samples' total time over their total
	// iterations: what one testing.B run as long as all the samples
	// together reports. On a machine that runs at two speeds in phases,
	// the median lands in the speed that held more samples and the pooled
	// figure between the two, so their ratio shows such a benchmark.
	PooledNsPerOp float64 `json:"pooled_ns_per_op,omitempty"`
	BPerOp        float64 `json:"b_per_op"`
	Allocs        float64 `json:"allocs_per_op"`
	TargetMet     bool    `json:"target_met"`
	// CutShort says the benchmark was skipped because the run's whole
	// time (-time) ended before it was measured.
	CutShort bool `json:"cut_short,omitempty"`
	// CopyNs is how long copying the encoded message takes through the
	// timed loop, in ns: no encode or decode of it can honestly be faster.
	CopyNs float64 `json:"copy_ns,omitempty"`
	// CopyBaseNs is how long copying one byte takes through the same
	// loop, in ns: the fixed cost of a copy (the call, the slice header),
	// which an operation that reads a word without copying it does not
	// pay. CopyNs minus CopyBaseNs is the cost of the encoding's bytes. 0
	// in results recorded before serbench measured it.
	CopyBaseNs float64 `json:"copy_base_ns,omitempty"`
	// LoopNs is the timed loop's own cost per iteration, in ns, measured
	// beside this benchmark (the fastest of a few short batches, so that a
	// busy phase does not raise it); 0 for a self-timed result, and in
	// results recorded before serbench measured it (Env.Overhead stands in).
	LoopNs float64 `json:"loop_ns,omitempty"`
	// Checked counts the round trips verified after timing, alternating
	// the value and a second, distinct one.
	Checked int `json:"checked_round_trips,omitempty"`
	// Implausible, if set, says why the figure cannot be the operation's
	// cost: it is below the timed loop's own cost plus that of copying
	// the encoding's bytes (see MarkImplausible).
	Implausible string `json:"implausible,omitempty"`
	// Busy counts the samples set aside because the machine was busy
	// (another tenant's load) when they started or ended.
	Busy int `json:"busy_samples,omitempty"`
	// SelfTimed says the codec's case ran the timed loop itself
	// (codec.Looper): no indirect call per iteration is in the figure,
	// so the loop overhead (Env.Overhead) does not bound it from below,
	// and CopyNs was measured by a direct loop too.
	SelfTimed bool `json:"self_timed,omitempty"`
	// PathNs, for a self-timed result, is the same operation timed
	// through Encode and Decode in the runner's own loop, in ns: a
	// self-timed figure may beat it by the indirect call it saves, not by
	// a multiple (see MarkImplausible).
	PathNs float64 `json:"path_ns,omitempty"`
	// CheckNsPerOp is the operation's cost as the checks after timing saw
	// it, each call timed on its own on the timed loop's buffers (the
	// timer's own cost taken out), in ns: a low quantile of the calls.
	CheckNsPerOp float64 `json:"check_ns_per_op,omitempty"`
	// ValueNs, for a decode, is what Value cost in the same checks, in ns.
	ValueNs float64 `json:"value_ns,omitempty"`
	// CopyValueNs, for a decode of a codec that declares ValueConverts,
	// is what a reflective deep copy of the decoded value cost in the
	// same checks, in ns: the cost a conversion is held to.
	CopyValueNs float64 `json:"copy_value_ns,omitempty"`
	// CycleNs, for a self-timed result, is one iteration of a loop
	// carrying a one-cycle dependency, timed beside it: no loop runs an
	// iteration faster, so no self-timed figure can be below it.
	CycleNs float64 `json:"cycle_ns,omitempty"`
	// UnseenNsPerOp is the operation's cost on builds of the value the
	// codec never saw (drawn from a per-run salt after timing), each
	// call timed on its own as CheckNsPerOp's are, in ns; for an encode,
	// each case's first call, and for a decode, with Value.
	UnseenNsPerOp float64 `json:"unseen_ns_per_op,omitempty"`
	// BytesSpread is how far the encodings of the pool's builds are from
	// their mean size (Bytes) at most, in bytes.
	BytesSpread float64 `json:"bytes_spread,omitempty"`
	// BusyNs is what the samples set aside (Busy) add up to, in ns: a
	// worker's samples and these are its whole timed sampling.
	BusyNs float64 `json:"busy_ns,omitempty"`
	// SamplingCPUNs and SamplingWallNs are the CPU time and the wall time
	// the worker spent sampling the benchmark, in ns, as serbench measured
	// them from outside the worker (the kernel's clock of the worker
	// process, read at each of the worker's steps), not as the worker
	// reports: its samples are most of them (see package worker).
	SamplingCPUNs  float64 `json:"sampling_cpu_ns,omitempty"`
	SamplingWallNs float64 `json:"sampling_wall_ns,omitempty"`
	// Flagged, if set, says why the runner's own checks do not believe
	// the figure: it is much faster than the same calls seen in the
	// checks, or Value does the decoder's work. MarkImplausible makes it
	// the result's Implausible.
	Flagged string `json:"flagged,omitempty"`
	// InstrPerOp is the instructions one op runs, counted under
	// Valgrind (run -measure instructions or both; see Counted); 0 when
	// not counted.
	InstrPerOp float64 `json:"instr_per_op,omitempty"`
	// InstrCounts are the instructions per op each counting process
	// counted (InstrPerOp is their median): what varies between
	// processes, their random hash seeds, is the count's spread
	// (InstrInterval).
	InstrCounts []float64 `json:"instr_counts,omitempty"`
	// CountSkipped, if set, says why the op was not counted although the
	// run counted: what happened when it was tried under Valgrind.
	CountSkipped string `json:"count_skipped,omitempty"`
	// CPUNsPerOp is the median of the samples' CPU time per op (the
	// process's, user and system), 0 where the OS does not report it.
	CPUNsPerOp float64 `json:"cpu_ns_per_op,omitempty"`
	// GCCyclesPerKop and GCCPUNsPerKop are the collection cycles that
	// ended during the samples, and the CPU time the collector spent
	// (runtime/metrics' estimate, /cpu/classes/gc/total), per 1,000
	// operations over all the samples: what the operation's garbage costs
	// a program beyond the operation's own time. Samples after a forced
	// collection pay for few cycles; see Options.WholeCycles and LiveHeap.
	GCCyclesPerKop float64 `json:"gc_cycles_per_kop,omitempty"`
	GCCPUNsPerKop  float64 `json:"gc_cpu_ns_per_kop,omitempty"`
	// KeptBPerOp, for a decode, is the heap a decoded value keeps
	// reachable once the collector has run (the live heap with the
	// values held, less without, per value), apart from what the
	// decode allocated and dropped (BPerOp): what a program pays to hold
	// the values it decodes. It is not measured with Options.LiveHeap,
	// whose every collection would cost more than the figure.
	KeptBPerOp float64 `json:"kept_b_per_op,omitempty"`
	// ColdNs is the op's first call on the value's type in a fresh
	// process (reflection caches, code generated at run time), in ns, and
	// ColdNextNs the call after it in that process; 0 when not measured
	// (run -cold).
	ColdNs     float64 `json:"cold_ns,omitempty"`
	ColdNextNs float64 `json:"cold_next_ns,omitempty"`
	// MultiThreaded says the samples used more CPU time than wall time,
	// beyond what the collector adds: the operation ran on more than one
	// thread, so its figure is not comparable with single-threaded ones.
	MultiThreaded bool `json:"multi_threaded,omitempty"`
	// StreamBytes, for a stream op, is the stream's size per message in
	// bytes: what its MB/s is of (a stream may carry more than its
	// messages, or share what they repeat).
	StreamBytes float64 `json:"stream_bytes,omitempty"`
	// Streams, for a stream decode, is what reading a long stream kept of
	// the heap: whether the Decoder truly streams.
	Streams *StreamCheck `json:"streams,omitempty"`
	// Compressed holds the size of the encoding (message 0) after each
	// compressor of run -compress, and the time to compress and
	// decompress it.
	Compressed []Compressed `json:"compressed,omitempty"`
	// Verified holds encodings the checks verified, to be decoded again
	// in a process that never saw the value (an encoding must carry the
	// value, not point at it). The parent that runs that check drops
	// them before the result is saved.
	Verified []Message `json:"verified,omitempty"`

	// Via, for a get, says how the fields were read: "in place: " and
	// the library call, "partial struct" (a struct holding only the
	// fields read), "full decode" (the codec's only way), or "empty
	// struct" (the floor); for a decode-any, the library's generic form:
	// what it turns numbers and maps into.
	Via string `json:"via,omitempty"`
	// Raw, for a get, counts the fields read back as raw slices of the
	// input rather than materialised Go strings.
	Raw int `json:"raw_slices,omitempty"`
	// Numbers and Maps, for a decode-any, name the Go types the library
	// turned numbers and maps into ("float64", "int64 uint64",
	// "map[string]interface {}").
	Numbers string `json:"numbers,omitempty"`
	Maps    string `json:"maps,omitempty"`
}

// A Message is one verified encoding of build Build of a job's value.
type Message struct {
	Build int    `json:"build"`
	Data  []byte `json:"data"`
}

// MeanGap returns how far the median stands from the pooled time per op
// (the samples' mean, what testing.B reports), relative to the latter:
// 0.08 for a median 8% above it. It is 0 when the pooled figure is
// unknown (results recorded before serbench kept it).
func (r *Result) MeanGap() float64 {
	if r.PooledNsPerOp <= 0 || r.NsPerOp.Median <= 0 {
		return 0
	}
	return r.NsPerOp.Median/r.PooledNsPerOp - 1
}

// MeanGapMark is the MeanGap beyond which reports mark a result: its
// samples ran at two speeds (or a few were far slower than the rest), and
// its median is the speed that held more of them.
const MeanGapMark = 0.05

// TwoSpeeds reports whether r's MeanGap is beyond MeanGapMark.
func (r *Result) TwoSpeeds() bool { return math.Abs(r.MeanGap()) > MeanGapMark }

// A Sample is Iters iterations timed after a garbage collection, in
// Batches batches of Iters/Batches; NsPerOp, B/op and allocs/op are over
// the whole sample.
type Sample struct {
	Iters       int     `json:"iters"`
	Batches     int     `json:"batches,omitempty"`
	NsPerOp     float64 `json:"ns_per_op"`
	BPerOp      float64 `json:"b_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	// GCs counts the garbage collections that ran during the sample.
	GCs int `json:"gcs,omitempty"`
	// Probe is the machine's probe time (Machine) last taken before the
	// sample, in ns: against the run's fast speed it tells whether the
	// sample started in a busy phase.
	Probe float64 `json:"probe_ns,omitempty"`
	// CPUNsPerOp is the process's CPU time (user and system) over the
	// sample per op, 0 where the OS does not report it.
	CPUNsPerOp float64 `json:"cpu_ns_per_op,omitempty"`
	// GCCPUNs is the CPU time the collector spent during the sample, in
	// ns (runtime/metrics' estimate, updated as cycles end).
	GCCPUNs float64 `json:"gc_cpu_ns,omitempty"`
}

// A Stat is a median with its confidence interval.
type Stat struct {
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
}

// RelCI returns the larger distance from the median to an interval bound,
// relative to the median (benchstat's "± x%"), or +Inf if unknown.
func (s Stat) RelCI() float64 {
	if s.Median <= 0 || s.Lo <= 0 && s.Hi <= 0 {
		return math.Inf(1)
	}
	return max(s.Hi/s.Median-1, 1-s.Lo/s.Median)
}

// Machine is how steadily the machine ran during a Run, from a fixed
// probe (formatting and parsing integers in the L1 cache, about 10µs)
// timed between samples, never inside one. On a machine of its own the
// probe's time barely moves; on a shared one (a cloud VM whose host runs
// other tenants on the same core) it runs at two speeds in phases, and
// so does every codec.
type Machine struct {
	// Probes is how many times the probe ran, about every 10ms.
	Probes int `json:"probes"`
	// Busy is the share of probes that ran more than BusyTolerance slower
	// than the machine's fast speed (the probes' 5th percentile).
	Busy float64 `json:"busy_share"`
	// Slowdown is the median of those busy probes over the fast speed:
	// how much slower the machine ran while busy.
	Slowdown float64 `json:"busy_slowdown,omitempty"`
	// FastNs is the probe's time at the machine's fast speed, in ns.
	FastNs float64 `json:"fast_probe_ns,omitempty"`
}

// BusyShare returns the share of r's samples that started while the
// machine was busy (their Probe more than BusyTolerance slower than
// m.FastNs), and false when the samples or the machine were not probed.
func (m Machine) BusyShare(r *Result) (float64, bool) {
	if m.FastNs <= 0 {
		return 0, false
	}
	busy, probed := 0, 0
	for _, s := range r.Samples {
		if s.Probe > 0 {
			probed++
			if BusyProbe(s.Probe, m.FastNs) {
				busy++
			}
		}
	}
	if probed == 0 {
		return 0, false
	}
	return float64(busy) / float64(probed), true
}

// Split reports whether r's samples fell in both of the machine's speeds
// about evenly: between 30% and 70% of them started in a busy phase. The
// median of such samples lies between two modes, where its interval is
// wide whatever the budget: such benchmarks miss their interval target
// far more often than those sampled mostly in one speed (the runs that
// show it are in notes/noise-log.md).
func (m Machine) Split(r *Result) bool {
	share, ok := m.BusyShare(r)
	return ok && share >= 0.3 && share <= 0.7
}

// String describes m in a few words for reports.
func (m Machine) String() string {
	if m.Probes == 0 {
		return "not probed"
	}
	s := fmt.Sprintf("busy (a probe more than %.0f%% slower than its fast speed) for %.1f%% of %d probes", 100*BusyTolerance, 100*m.Busy, m.Probes)
	if m.Slowdown > 0 {
		s += fmt.Sprintf(", %.2f× slower then", m.Slowdown)
	}
	return s
}

// BusyTolerance is how much slower than its fast speed the probe must run
// for the machine to count as busy.
const BusyTolerance = 0.2

// BusyProbe reports whether a probe of probeNs says the machine was busy: more
// than BusyTolerance slower than its fast speed, fastNs.
func BusyProbe(probeNs, fastNs float64) bool { return probeNs > fastNs*(1+BusyTolerance) }

// Memory is the peak memory the run used.
type Memory struct {
	HeapBytes uint64 `json:"heap_bytes"`
	RSSBytes  uint64 `json:"rss_bytes,omitempty"`
}

// Counts tallies results by status, with the measured ones that met the
// interval target.
type Counts struct{ OK, Met, Failed, Skipped int }

// Count tallies rs.
func Count(rs []Result) Counts {
	var c Counts
	for _, r := range rs {
		switch r.Status {
		case OK:
			c.OK++
			if r.TargetMet {
				c.Met++
			}
		case Skipped:
			c.Skipped++
		default:
			c.Failed++
		}
	}
	return c
}

// Key identifies a result in a Run; it is the benchmark's name, with
// go test's "-N" suffix for a GOMAXPROCS N above 1 (Procs), which
// benchstat reads as the benchmark's GOMAXPROCS.
func (r *Result) Key() string {
	return fmt.Sprintf("%s/codec=%s/dataset=%s/shape=%s%s", opName(r.Op), r.Codec, r.Dataset, r.Shape, ProcsSuffix(r.Procs))
}

// ProcsSuffix returns go test's suffix of a benchmark run at GOMAXPROCS
// procs: "-4", or "" for 1 and for a run that set none (0).
func ProcsSuffix(procs int) string {
	if procs <= 1 {
		return ""
	}
	return fmt.Sprintf("-%d", procs)
}

// opName capitalizes the op for benchmark names: "Encode", "Decode".
func opName(op Op) string {
	if op == "" {
		return ""
	}
	return string(op[0]-'a'+'A') + string(op[1:])
}

// ShortReason returns the first line of the reason.
func (r *Result) ShortReason() string {
	if i := strings.IndexByte(r.Reason, '\n'); i >= 0 {
		return r.Reason[:i] + " ..."
	}
	return r.Reason
}

// Codec returns the metadata of the codec named name, or nil.
func (r *Run) Codec(name string) *Codec {
	for i := range r.Codecs {
		if r.Codecs[i].Name == name {
			return &r.Codecs[i]
		}
	}
	return nil
}

// WriteJSON writes the run as indented JSON.
func (r *Run) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads a run written by WriteJSON. name is used in errors. A
// run without results is refused: {} is no record of a run, and a run
// stopped before its first benchmark has nothing to render or compare.
func ReadJSON(rd io.Reader, name string) (*Run, error) {
	var run Run
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&run); err != nil {
		return nil, fmt.Errorf("%s: not a serbench results.json: %w", name, err)
	}
	if len(run.Results) == 0 {
		return nil, fmt.Errorf("%s: no results: not a serbench results.json, or the record of a run stopped before its first benchmark", name)
	}
	for i, res := range run.Results {
		if res.Op == "" || res.Codec == "" || res.Dataset == "" || res.Status == "" {
			return nil, fmt.Errorf("%s: result %d lacks op, codec, dataset or status", name, i)
		}
	}
	return &run, nil
}

// A Duration is a time.Duration that reads and writes as "1.5s" in JSON.
type Duration time.Duration

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}

// ImplausibleRule says in a few words which figures MarkImplausible
// marks: every report's legend quotes it, so that one rule reads the same
// everywhere.
const ImplausibleRule = "faster than the timed loop's own cost plus copying the bytes of its encoding"

// WordSize is the size of a machine word in bytes: a self-timed result's
// encoding of this size or less is exempt from the copy bound.
const WordSize = 8

// MarkImplausible sets Implausible on each measured result the runner's
// own checks disbelieve (Flagged), or whose fastest sample (or median,
// without samples) cannot be the operation's cost: below the timed loop's own cost per
// iteration (LoopNs, measured beside it; else overheadNs, the run's one
// measure, 0 if unknown) plus the cost of copying the bytes of the
// result's encoding. No honest encode or decode can beat that: it
// runs in the loop, and it reads or writes every byte of its encoding.
//
// The bytes' cost is CopyNs minus CopyBaseNs: the copy of the encoding
// less the copy of one byte timed the same way, whose fixed cost (a call,
// a slice header written back) an operation that loads a word into a
// register never pays. Comparing with the whole copy flagged honest
// hand-written codecs of a word or two on every run, and a bound of twice
// the loop's cost flagged them on a busy machine: both bounds are for
// the harness, not for the operation. A result recorded without
// CopyBaseNs is held to the whole copy, as it was when recorded.
//
// A self-timed result's loop does not pay the overhead measured, so its
// floor is the bytes' cost alone, against a copy timed the same way; an
// encoding of a machine word or less (WordSize) is exempt: inlined into
// its own loop, the operation may keep it in a register. It is held
// against the same operation through Encode and Decode instead (PathNs,
// the fastest of a few batches): it may save the indirect call and what
// inlining saves (up to SelfTimedSlack ns), not more than SelfTimedRatio
// times over. A result timed on several goroutines (Procs) is held to
// these bounds per goroutine: its time per op times Procs.
func MarkImplausible(rs []Result, overheadNs float64) {
	for i := range rs {
		r := &rs[i]
		if r.Status != OK || len(r.Samples) == 0 && r.InstrPerOp > 0 { // a count has no time to doubt
			continue
		}
		r.Implausible = ""
		m, what := r.fastestSample()
		if r.Procs > 1 {
			// Wall time over the operations of Procs goroutines: one
			// goroutine's operation takes Procs times as long.
			m *= float64(r.Procs)
			what += fmt.Sprintf(" per goroutine of %d", r.Procs)
		}
		loop := overheadNs
		if r.LoopNs > 0 {
			loop = r.LoopNs
		}
		if r.SelfTimed {
			loop = 0
		}
		floor := loop
		bytesNs := r.CopyNs
		if r.CopyBaseNs > 0 {
			bytesNs = max(0, r.CopyNs-r.CopyBaseNs)
		} else {
			loop = 0 // the whole copy, timed through the loop, holds the loop's cost
		}
		if r.SelfTimed && r.Bytes <= WordSize {
			bytesNs = 0
		}
		path := r.PathNs - overheadNs
		switch {
		case r.Flagged != "":
			r.Implausible = r.Flagged
		case r.SelfTimed && r.CycleNs > 0 && m < r.CycleNs:
			r.Implausible = fmt.Sprintf("its own loop reads %.3gns/op (%s), less than one cycle (%.3gns, a loop carrying a one-cycle dependency timed beside it): "+
				"no loop runs an iteration faster", m, what, r.CycleNs)
		case r.SelfTimed && r.PathNs > 0 && m*SelfTimedRatio < path && path-m > SelfTimedSlack:
			r.Implausible = fmt.Sprintf("its own loop reads %.3gns/op (%s) where Encode and Decode in the runner's loop take %.3gns/op (%.3gns without the loop's own cost): "+
				"more than %.0f times faster, by more than %.0fns, is not the indirect call a self-timed loop saves", m, what, r.PathNs, path, SelfTimedRatio, SelfTimedSlack)
		case floor > 0 && m < floor:
			r.Implausible = fmt.Sprintf("%s, %.3gns/op, is below the timed loop's own cost (%.3gns/op): the figure is the harness, not the codec", what, m, floor)
		case bytesNs > 0 && m < loop+bytesNs:
			r.Implausible = fmt.Sprintf("%s, %.3gns/op, is faster than copying its %d-byte encoding (%.3gns/op%s): it cannot be doing the work", what, m, r.Bytes, loop+bytesNs, floorWords(loop, bytesNs))
		}
	}
}

// fastestSample returns the time per op of r's fastest sample, and
// words for it; the median where r keeps no samples. The floors are the
// fastest of their batches, taken while the machine was quiet: the
// codec's fastest sample is its figure taken the same way, so that a
// busy machine, which slows the codec's median, does not lift a cheat
// above them, nor an honest codec's quiet figure fall below.
func (r *Result) fastestSample() (float64, string) {
	best := 0.0
	for _, s := range r.Samples {
		if s.NsPerOp > 0 && (best == 0 || s.NsPerOp < best) {
			best = s.NsPerOp
		}
	}
	if best == 0 {
		return r.NsPerOp.Median, "the median"
	}
	return best, "the fastest sample"
}

// floorWords says what a copy floor is made of, when it is more than the
// whole copy.
func floorWords(loop, bytesNs float64) string {
	if loop == 0 {
		return ""
	}
	return fmt.Sprintf(": the loop's %.3gns and %.3gns for the bytes", loop, bytesNs)
}

// A self-timed figure is implausible when it is below one cycle
// (Result.CycleNs, so that the slack below cannot carry a figure to
// nothing), or more than SelfTimedRatio times faster than the same
// operation through Encode and Decode, the loop's own cost taken out, and
// by more than SelfTimedSlack ns (an inlined byte-order write of a word
// takes under a nanosecond where the interface call and the runner's loop
// take ten: no ratio alone tells it from a cheat): an
// inlined loop saves an indirect call, and may keep a small result on the
// stack where the interface call allocates it, but does not do a
// multiple of the work in the same time.
const (
	SelfTimedRatio = 4.0
	SelfTimedSlack = 30.0
)

// Ranked reports whether r may stand in a ranking or a winners list:
// measured, verified and plausible.
func (r *Result) Ranked() bool { return r.Status == OK && r.Implausible == "" }

// ShakyRanks returns the keys (Result.Key) of the measured results that
// ran at two speeds (TwoSpeeds) where that changes a conclusion: ranked by
// their samples' mean time per op (PooledNsPerOp) instead of their
// median, they would swap places with a neighbour among the results of
// the same op on the same dataset shape. Elsewhere the two speeds are
// worth a line in the warnings, not a mark on the figure.
func ShakyRanks(rs []Result) map[string]bool {
	type cat struct {
		op             Op
		dataset, shape string
		procs          int
	}
	groups := map[cat][]*Result{}
	for i := range rs {
		r := &rs[i]
		if r.Ranked() {
			c := cat{r.Op, r.Dataset, r.Shape, r.Procs}
			groups[c] = append(groups[c], r)
		}
	}
	mean := func(r *Result) float64 {
		if r.PooledNsPerOp > 0 {
			return r.PooledNsPerOp
		}
		return r.NsPerOp.Median
	}
	shaky := map[string]bool{}
	for _, g := range groups {
		sort.Slice(g, func(i, j int) bool { return g[i].NsPerOp.Median < g[j].NsPerOp.Median })
		for i := 1; i < len(g); i++ {
			a, b := g[i-1], g[i]
			if !a.TwoSpeeds() && !b.TwoSpeeds() || mean(a) <= mean(b) {
				continue
			}
			for _, r := range []*Result{a, b} {
				if r.TwoSpeeds() {
					shaky[r.Key()] = true
				}
			}
		}
	}
	return shaky
}

// MBPerSec returns a stream op's throughput in MB/s (10^6 bytes) of the
// stream, or 0 for other ops and unmeasured results.
func (r *Result) MBPerSec() float64 {
	if r.StreamBytes <= 0 || r.NsPerOp.Median <= 0 {
		return 0
	}
	return r.StreamBytes / r.NsPerOp.Median * 1e3
}

// A StreamCheck is what decoding a long stream through one Decoder did to
// the heap: a Decoder that truly streams holds a bounded window of it,
// whatever the stream's length; one that reads the stream whole holds it
// all.
type StreamCheck struct {
	// Messages is how many messages were decoded, Bytes the stream's size.
	Messages int   `json:"messages"`
	Bytes    int64 `json:"bytes"`
	// HeapGrowth is the growth of the live heap (in use after a
	// collection) from message From, the stream's first tenth, to its
	// end, with the Decoder still reachable, in bytes: both readings hold
	// one decoded message and the Decoder's buffers at their working
	// size, so that what grows is what the Decoder keeps of the stream.
	HeapGrowth int64 `json:"heap_growth"`
	From       int   `json:"from,omitempty"`
	// AllocPerMsg is what the decodes after message From allocated, per
	// message, in bytes: garbage, not what is kept.
	AllocPerMsg float64 `json:"alloc_per_msg"`
}

// StreamMessages is the most messages a stream op's stream holds
// before the next begins; StreamCheckMessages, the length of the long
// stream that tells whether a Decoder truly streams.
const (
	StreamMessages      = 10000
	StreamCheckMessages = 1_000_000
)

// StreamLimit is the heap growth under which a Decoder truly streams
// (go-json-experiment's jsonbench criterion: 64 KiB over a stream of a
// million elements).
const StreamLimit = 64 << 10

// Truly reports whether the stream check's heap grew less than StreamLimit.
func (s *StreamCheck) Truly() bool { return s.HeapGrowth < StreamLimit }

// A Compressed is one encoding after one compressor.
type Compressed struct {
	// Algo names the compressor and its level: "gzip-6", "zstd-1",
	// "zstd-3", "s2", "lz4".
	Algo  string `json:"algo"`
	Bytes int    `json:"bytes"`
	// CompressNs and DecompressNs are the time to compress the encoding
	// and to decompress it back, in ns: the fastest of a few timed
	// batches.
	CompressNs   float64 `json:"compress_ns"`
	DecompressNs float64 `json:"decompress_ns"`
}
