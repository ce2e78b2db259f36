package results_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/serbench/serbench/results"
)

const sample = `{"env":{"go_version":"go1.26.8","goos":"linux","goarch":"amd64","cpu":"x","num_cpu":2,"gomaxprocs":2,"serbench_version":"v0","date":"2026-01-02T03:04:05Z","loop_overhead_ns":1.2},
"options":{"ci_target":0.03,"confidence":0.95,"sample_time":"10ms","budget":"1s","min_samples":6,"max_samples":60,"gc_before_sample":true},
"codecs":[{"name":"json","family":"json","label":"encoding/json","module":"std","version":"go1.26.8","url":"u","api":"reflection"}],
"results":[{"op":"encode","codec":"json","dataset":"tiny","shape":"single","status":"ok","bytes":34,"items":1,
"samples":[{"iters":10,"ns_per_op":100,"b_per_op":48,"allocs_per_op":1}],"ns_per_op":{"median":100,"lo":99,"hi":101},"b_per_op":48,"allocs_per_op":1,"target_met":true}],
"peak_memory":{"heap_bytes":1},"started":"2026-01-02T03:04:05Z","elapsed":"1.5s"}`

func TestReadJSONRoundTrip(t *testing.T) {
	run, err := results.ReadJSON(strings.NewReader(sample), "sample.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := run.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	again, err := results.ReadJSON(&buf, "again.json")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(run, again); d != "" {
		t.Errorf("round trip changed the run (-first +second):\n%s", d)
	}
	if got := run.Results[0].Key(); got != "Encode/codec=json/dataset=tiny/shape=single" {
		t.Errorf("Key() = %q", got)
	}
	if got := run.Results[0].NsPerOp.RelCI(); got < 0.0099 || got > 0.0101 {
		t.Errorf("RelCI() = %v, want 0.01", got)
	}
}

func TestReadJSONErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"results": [`, "bad.json: not a serbench results.json"},
		{`{"resultz": []}`, `unknown field "resultz"`},
		{`{"results": [{"op": "encode"}]}`, "bad.json: result 0 lacks op, codec, dataset or status"},
		{`{"elapsed": "soon"}`, "bad.json: not a serbench results.json"},
		{`{}`, "bad.json: no results: not a serbench results.json"},
		{`{"codecs": [{"name": "json"}], "results": []}`, "bad.json: no results"},
	}
	for _, tt := range tests {
		_, err := results.ReadJSON(strings.NewReader(tt.in), "bad.json")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadJSON(%q) = %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
}

// FuzzReadJSON checks that no input makes ReadJSON panic, and that what it
// accepts survives a write and a read.
func FuzzReadJSON(f *testing.F) {
	f.Add(sample)
	f.Add(`{}`)
	f.Add(`{"results":[{"op":"decode","codec":"c","dataset":"d","status":"failed","reason":"x\ny"}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		run, err := results.ReadJSON(strings.NewReader(in), "fuzz.json")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := run.WriteJSON(&buf); err != nil {
			t.Fatalf("WriteJSON of an accepted run: %v", err)
		}
		if _, err := results.ReadJSON(&buf, "again.json"); err != nil {
			t.Fatalf("re-reading a written run: %v", err)
		}
	})
}

func TestMeanGap(t *testing.T) {
	tests := []struct {
		name         string
		median, pool float64
		gap          float64
		twoSpeeds    bool
	}{
		{"no pooled figure (an older run)", 100, 0, 0, false},
		{"median and mean agree", 100, 99, 100.0/99 - 1, false},
		{"median in the slow speed", 109, 100, 0.09, true},
		{"median in the fast speed", 90, 100, -0.1, true},
		{"just inside the mark", 104.9, 100, 0.049, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := results.Result{NsPerOp: results.Stat{Median: tc.median}, PooledNsPerOp: tc.pool}
			if got := r.MeanGap(); math.Abs(got-tc.gap) > 1e-9 {
				t.Errorf("MeanGap = %v, want %v", got, tc.gap)
			}
			if got := r.TwoSpeeds(); got != tc.twoSpeeds {
				t.Errorf("TwoSpeeds = %v, want %v", got, tc.twoSpeeds)
			}
		})
	}
}

func TestMachineString(t *testing.T) {
	tests := []struct {
		m    results.Machine
		want string
	}{
		{results.Machine{}, "not probed"},
		{results.Machine{Probes: 900}, "busy (a probe more than 20% slower than its fast speed) for 0.0% of 900 probes"},
		{results.Machine{Probes: 900, Busy: 0.4, Slowdown: 1.7}, "busy (a probe more than 20% slower than its fast speed) for 40.0% of 900 probes, 1.70× slower then"},
	}
	for _, tc := range tests {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("%+v: String() = %q, want %q", tc.m, got, tc.want)
		}
	}
}

func TestMachineSplit(t *testing.T) {
	// probed returns a result whose samples started after these probes.
	probed := func(probes ...float64) *results.Result {
		r := &results.Result{}
		for _, p := range probes {
			r.Samples = append(r.Samples, results.Sample{Probe: p})
		}
		return r
	}
	m := results.Machine{Probes: 100, Busy: 0.5, Slowdown: 1.6, FastNs: 100}
	tests := []struct {
		name   string
		m      results.Machine
		r      *results.Result
		share  float64
		probed bool
		split  bool
	}{
		{"all in the fast speed", m, probed(100, 110, 119), 0, true, false},
		{"half and half", m, probed(100, 160, 100, 160), 0.5, true, true},
		{"three in ten busy: split", m, probed(100, 100, 100, 100, 100, 100, 100, 160, 160, 160), 0.3, true, true},
		{"mostly busy", m, probed(160, 160, 160, 160, 100), 0.8, true, false},
		{"unprobed samples are not counted", m, probed(0, 0, 160, 100), 0.5, true, true},
		{"no probed samples", m, probed(0, 0), 0, false, false},
		{"a run recorded before the fast speed was", results.Machine{Probes: 100, Busy: 0.5}, probed(100, 160), 0, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			share, ok := tc.m.BusyShare(tc.r)
			if ok != tc.probed || math.Abs(share-tc.share) > 1e-9 {
				t.Errorf("BusyShare = %v, %v; want %v, %v", share, ok, tc.share, tc.probed)
			}
			if got := tc.m.Split(tc.r); got != tc.split {
				t.Errorf("Split = %v, want %v", got, tc.split)
			}
		})
	}
}

// TestMarkImplausible checks the one bound on a plausible figure: the
// loop's own cost plus the cost of copying the encoding's bytes, the
// copy's fixed cost aside. The honest cases are those that flagged
// byteorder's int64 (8 bytes) under the bounds this one replaced.
func TestMarkImplausible(t *testing.T) {
	const overhead = 1.3
	ok := func(median float64, bytes int, copyNs, baseNs float64) results.Result {
		return results.Result{Status: results.OK, Bytes: bytes, NsPerOp: results.Stat{Median: median}, CopyNs: copyNs, CopyBaseNs: baseNs}
	}
	self := func(r results.Result) results.Result { r.SelfTimed = true; return r }
	withSamples := func(r results.Result, ns ...float64) results.Result {
		for _, x := range ns {
			r.Samples = append(r.Samples, results.Sample{Iters: 1000, NsPerOp: x})
		}
		return r
	}
	beside := func(loopNs float64, r results.Result) results.Result { r.LoopNs = loopNs; return r }
	procs := func(n int, r results.Result) results.Result { r.Procs = n; return r }
	tests := []struct {
		name string
		r    results.Result
		want string // in Implausible; "" for plausible
	}{
		{"a word's decode, faster than a whole copy of it", ok(2.9, 8, 3.6, 3.5), ""},
		{"a word's encode, under twice the loop's cost", ok(2.4, 8, 3.6, 3.5), ""},
		{"below the loop's own cost", ok(1.0, 8, 3.6, 3.5), "below the timed loop's own cost (1.3ns/op)"},
		{"the loop timed beside it stands for the run's", beside(0.9, ok(1.0, 8, 3.6, 3.5)), ""},
		{"a word's encode, the loop timed beside it", beside(1.2, ok(3.5, 8, 3.7, 3.67)), ""},
		{"below the loop timed beside it", beside(3, ok(2.5, 8, 3.7, 3.67)), "below the timed loop's own cost (3ns/op)"},
		{"a cached 600-byte encoding", ok(2.5, 600, 20, 3.5), "faster than copying its 600-byte encoding (17.8ns/op: the loop's 1.3ns and 16.5ns for the bytes)"},
		{"an honest 600-byte encode", ok(900, 600, 20, 3.5), ""},
		{"no copy measured: the loop bound alone", ok(2, 600, 0, 0), ""},
		{"recorded without the copy's base: the whole copy", ok(10, 600, 20, 0), "faster than copying its 600-byte encoding (20ns/op)"},
		{"recorded without the base, plausible", ok(30, 600, 20, 0), ""},
		{"self-timed: no loop bound", self(ok(0.5, 9, 0.6, 0.55)), ""},
		{"self-timed: the bytes' cost", self(ok(1, 600, 12, 1)), "faster than copying its 600-byte encoding (11ns/op)"},
		{"self-timed word: exempt from the copy", self(ok(0.3, 8, 2, 0)), ""},
		{"self-timed beyond a word, recorded without the base", self(ok(1, 9, 2, 0)), "faster than copying its 9-byte encoding (2ns/op)"},
		{"not measured", results.Result{Status: results.Failed, NsPerOp: results.Stat{Median: 1}}, ""},
		{"a cheat whose median a busy machine lifted: its fastest sample", withSamples(ok(9, 600, 20, 3.5), 9, 2.5, 12), "the fastest sample, 2.5ns/op, is faster than copying its 600-byte encoding"},
		{"an honest figure, quiet or busy", withSamples(ok(30, 600, 20, 3.5), 30, 19, 60), ""},
		{"on two goroutines, below one copy but not below two", procs(2, ok(10, 600, 20, 3.5)), ""},
		{"on two goroutines, below half a copy", procs(2, ok(5, 600, 20, 3.5)), "the median per goroutine of 2, 10ns/op, is faster than copying its 600-byte encoding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := []results.Result{tt.r}
			rs[0].Implausible = "stale: cleared before marking"
			if tt.r.Status != results.OK {
				rs[0].Implausible = ""
			}
			results.MarkImplausible(rs, overhead)
			got := rs[0].Implausible
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("Implausible = %q, want %q", got, tt.want)
			}
			if rs[0].Ranked() != (tt.want == "" && tt.r.Status == results.OK) {
				t.Errorf("Ranked = %v with Implausible %q", rs[0].Ranked(), got)
			}
		})
	}
}
