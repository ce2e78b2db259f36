package runner

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
)

// durations returns n copies of d.
func durations(n int, d time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = d
	}
	return out
}

// TestJudge checks the flags the checks' own timings raise, on times
// given, not measured: a timed figure far below the same calls seen in
// the checks, and a Value costing more than Decode, unless declared.
func TestJudge(t *testing.T) {
	clock := newFakeClock() // the timer's own cost reads 0
	r := onClock(t, Options{}, clock)
	for _, tt := range []struct {
		name             string
		info             codec.Info
		op               results.Op
		median           float64
		encode, dec, val time.Duration
		flag             string // in Flagged; "" for none
		checkNs, valueNs float64
	}{
		{"honest encode", codec.Info{}, results.Encode, 1000, 1500 * time.Nanosecond, 0, 0, "", 1500, 0},
		{"encode told apart", codec.Info{}, results.Encode, 100, 2600 * time.Nanosecond, 0, 0, "tells the timed calls from the checked ones", 2600, 0},
		{"a fast op within the slack", codec.Info{}, results.Encode, 2, 0, 0, 0, "", 0, 0},
		{"fast op, slow single calls", codec.Info{}, results.Encode, 2, 52 * time.Nanosecond, 0, 0, "", 52, 0},
		{"half the work when timed", codec.Info{}, results.Decode, 500, 0, 1100 * time.Nanosecond, 0, "tells the timed calls from the checked ones", 1100, 0},
		{"honest decode", codec.Info{}, results.Decode, 1000, 0, 1200 * time.Nanosecond, 100 * time.Nanosecond, "", 1200, 100},
		{"decoding in Value", codec.Info{}, results.Decode, 20, 0, 20 * time.Nanosecond, 900 * time.Nanosecond, "the decoding is done in Value", 20, 900},
		{"a lazy codec: Value timed", codec.Info{Lazy: true}, results.Decode, 950, 0, 20 * time.Nanosecond, 900 * time.Nanosecond, "", 920, 900},
		{"a lazy codec told apart", codec.Info{Lazy: true}, results.Decode, 20, 0, 20 * time.Nanosecond, 900 * time.Nanosecond, "tells the timed calls", 920, 900},
		{"a converting Value", codec.Info{ValueConverts: true}, results.Decode, 200, 0, 200 * time.Nanosecond, 900 * time.Nanosecond, "", 200, 900},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &Prepared{info: tt.info, times: checkTimes{
				encode: durations(100, tt.encode), decode: durations(100, tt.dec), value: durations(100, tt.val)}}
			res := results.Result{Op: tt.op, Status: results.OK, NsPerOp: results.Stat{Median: tt.median}}
			r.judge(p, &res)
			if tt.flag == "" && res.Flagged != "" || !strings.Contains(res.Flagged, tt.flag) {
				t.Errorf("flagged %q, want %q", res.Flagged, tt.flag)
			}
			if res.CheckNsPerOp != tt.checkNs || res.ValueNs != tt.valueNs {
				t.Errorf("checks %vns, Value %vns; want %v, %v", res.CheckNsPerOp, res.ValueNs, tt.checkNs, tt.valueNs)
			}
			results.MarkImplausible([]results.Result{res}, 0)
		})
	}
}

// TestSelfTimedBound checks the bound on a self-timed figure against the
// same operation through Encode and Decode (results.MarkImplausible).
func TestSelfTimedBound(t *testing.T) {
	const overhead = 2.5
	for _, tt := range []struct {
		name        string
		median      float64
		path        float64
		implausible bool
	}{
		{"saves the indirect call", 1, 3.5, false},
		{"keeps a small result on the stack", 0.3, 25, false}, // 80 times, but by less than the slack
		{"a tenth of the iterations", 100, 1000, true},
		{"compresses only the last", 150, 5000, true},
		{"no path measured", 0.3, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs := []results.Result{{Status: results.OK, SelfTimed: true, NsPerOp: results.Stat{Median: tt.median}, PathNs: tt.path}}
			results.MarkImplausible(rs, overhead)
			if got := rs[0].Implausible != ""; got != tt.implausible {
				t.Errorf("implausible %v (%q), want %v", got, rs[0].Implausible, tt.implausible)
			}
		})
	}
}

func TestMultiThreaded(t *testing.T) {
	for _, tt := range []struct {
		name  string
		ss    []results.Sample
		procs int
		want  bool
	}{
		{"one thread", []results.Sample{{Iters: 10, NsPerOp: 100, CPUNsPerOp: 101}}, 0, false},
		{"the collector's share", []results.Sample{{Iters: 10, NsPerOp: 100, CPUNsPerOp: 125}}, 0, false},
		{"two threads", []results.Sample{{Iters: 10, NsPerOp: 100, CPUNsPerOp: 190}, {Iters: 10, NsPerOp: 100, CPUNsPerOp: 180}}, 0, true},
		{"not measured", []results.Sample{{Iters: 10, NsPerOp: 100}}, 0, false},
		{"two goroutines asked for", []results.Sample{{Iters: 10, NsPerOp: 100, CPUNsPerOp: 190}}, 2, false},
		{"more threads than goroutines", []results.Sample{{Iters: 10, NsPerOp: 100, CPUNsPerOp: 400}}, 2, true},
	} {
		if got := multiThreaded(tt.ss, tt.procs); got != tt.want {
			t.Errorf("%s: multiThreaded = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestCheckCount checks how many round trips follow the timing: a
// thousand of a message up to 16 KiB, fewer of a larger one, never fewer
// than twenty, and never more than asked for.
func TestCheckCount(t *testing.T) {
	for _, tt := range []struct{ n, size, want int }{
		{500, 100, 500}, {1000, 16 << 10, 1000}, {1000, 160 << 10, 102}, {1000, 512 << 10, 32},
		{1000, 2 << 20, 20}, {10, 64 << 20, 10}, {1000, 0, 1000},
	} {
		if got := checkCount(tt.n, tt.size); got != tt.want {
			t.Errorf("checkCount(%d, %d) = %d, want %d", tt.n, tt.size, got, tt.want)
		}
	}
}

func TestPoolSize(t *testing.T) {
	for _, tt := range []struct{ size, want int }{
		{0, PoolSize}, {34, PoolSize}, {PoolBytes / 64, PoolSize}, {PoolBytes / 10, 10}, {PoolBytes, 2}, {50 * PoolBytes, 2},
	} {
		if got := poolSize(tt.size); got != tt.want {
			t.Errorf("poolSize(%d) = %d, want %d", tt.size, got, tt.want)
		}
	}
}

// TestPrepareBuildsPool checks the pool Prepare builds: PoolSize distinct
// builds, each message in a buffer of its own, and the hashes that show a
// message written into.
func TestPrepareBuildsPool(t *testing.T) {
	d, _ := dataset.Lookup("tiny")
	job := Job{Codec: codec.Info{Name: "json", Family: "json", API: codec.Reflection,
		New: func() codec.Codec { return codec.Reflect(json.Marshal, json.Unmarshal) }},
		Dataset: "tiny", Shape: "single", Ops: results.Ops,
		Value:   func() (any, error) { return d.Value(dataset.Single) },
		ValueAt: func(k int) (any, error) { return d.ValueAt(dataset.Single, k) }}
	p, err := Prepare(&job)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Msgs) != PoolSize || len(p.Cases) != PoolSize {
		t.Fatalf("%d messages and %d cases, want %d", len(p.Msgs), len(p.Cases), PoolSize)
	}
	seen := map[string]bool{}
	for k, m := range p.Msgs {
		if seen[string(m)] {
			t.Errorf("message %d repeats another", k)
		}
		seen[string(m)] = true
	}
	// Each message has a buffer of its own: writing into one leaves the
	// others as they were.
	for k := range p.Msgs {
		p.Msgs[k][0] ^= 0xFF
		for j, m := range p.Msgs {
			if j != k && !seen[string(m)] {
				t.Fatalf("writing into message %d changed message %d", k, j)
			}
		}
		p.Msgs[k][0] ^= 0xFF
	}
	if err := p.CheckMessages(); err != nil {
		t.Fatal(err)
	}
	p.Msgs[3][0] ^= 1
	if err := p.CheckMessages(); err == nil || !strings.Contains(err.Error(), "writes into its input") {
		t.Errorf("a message written into: %v", err)
	}
	p.Msgs[3][0] ^= 1
	if n, err := p.RoundTrips(20, time.Time{}); n != 20 || err != nil {
		t.Errorf("RoundTrips: %d, %v", n, err)
	}
}

// TestLoopsFollowOrder checks that the timed loops walk the pool in the
// control's order and verify the iteration it draws, off the clock.
func TestLoopsFollowOrder(t *testing.T) {
	clock := newFakeClock()
	var seen []int
	verified := -1
	ctl := newControl(5, 1, clock.now, func(k int, _ []byte) error {
		verified = k
		clock.advance(time.Second) // a slow check: not the batch's time
		return nil
	})
	c := &orderCase{seen: &seen}
	l := decodeLoop(c, [][]byte{{0}, {1}, {2}, {3}, {4}}, false, ctl)
	ctl.at = 6 // as arm draws it, here fixed
	if err := l(12); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 12 {
		t.Fatalf("%d decodes, want 12", len(seen))
	}
	for i, k := range seen {
		if k != ctl.order[i%5] {
			t.Fatalf("decode %d of message %d, want %d (order %v)", i, k, ctl.order[i%5], ctl.order)
		}
	}
	if verified != ctl.order[6%5] {
		t.Errorf("verified message %d, want %d", verified, ctl.order[1])
	}
	if ctl.paused != time.Second {
		t.Errorf("paused %v, want the check's second", ctl.paused)
	}
}

// orderCase records the messages it decodes (one byte: their index).
type orderCase struct{ seen *[]int }

func (c *orderCase) Encode() ([]byte, error) { return nil, nil }
func (c *orderCase) Decode(b []byte) error   { *c.seen = append(*c.seen, int(b[0])); return nil }
func (c *orderCase) Value() (any, error)     { return nil, nil }

// TestCheckSplit checks the round trips after timing of a bench: all of
// checkCount below LargeBytes, whatever the budget; of a larger message
// largeCheckRoundTrips, the rest only while the budget lasts.
func TestCheckSplit(t *testing.T) {
	for _, tt := range []struct{ n, size, pools, must, more int }{
		{500, 100, 1, 500, 0}, {500, 100, 2, 250, 0}, {500, 2 << 20, 1, 20, 0}, {500, LargeBytes - 1, 1, 20, 0},
		{500, LargeBytes, 1, largeCheckRoundTrips, 20 - largeCheckRoundTrips}, {500, 64 << 20, 4, largeCheckRoundTrips, 20 - largeCheckRoundTrips},
		{1, 100, 1, minCheckRoundTrips, 0},
	} {
		if must, more := checkSplit(tt.n, tt.size, tt.pools); must != tt.must || more != tt.more {
			t.Errorf("checkSplit(%d, %d, %d) = %d, %d, want %d, %d", tt.n, tt.size, tt.pools, must, more, tt.must, tt.more)
		}
	}
}

// TestRoundTripsAtLeast checks that a deadline already past stops the
// round trips after the first atLeast, and that RoundTrips makes one.
func TestRoundTripsAtLeast(t *testing.T) {
	d, _ := dataset.Lookup("tiny")
	job := Job{Codec: codec.Info{Name: "json", Family: "json", API: codec.Reflection,
		New: func() codec.Codec { return codec.Reflect(json.Marshal, json.Unmarshal) }},
		Dataset: "tiny", Shape: "single", Ops: results.Ops,
		Value:   func() (any, error) { return d.Value(dataset.Single) },
		ValueAt: func(k int) (any, error) { return d.ValueAt(dataset.Single, k) }}
	p, err := Prepare(&job)
	if err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Hour)
	for _, tt := range []struct{ atLeast, want int }{{0, 0}, {2, 2}, {5, 5}} {
		if got, err := p.roundTrips(10, past, tt.atLeast); err != nil || got != tt.want {
			t.Errorf("roundTrips(10, past, %d) = %d, %v; want %d", tt.atLeast, got, err, tt.want)
		}
	}
	if got, err := p.RoundTrips(10, past); err != nil || got != 1 {
		t.Errorf("RoundTrips(10, past) = %d, %v; want 1", got, err)
	}
	if got, err := p.roundTrips(3, time.Time{}, 0); err != nil || got != 3 {
		t.Errorf("roundTrips(3, no deadline, 0) = %d, %v; want 3", got, err)
	}
}

// TestChecksWork checks the calls an estimate counts: many for a small
// message (a thousand round trips), few for a large one, whose remaining
// round trips are bounded by the budget.
func TestChecksWork(t *testing.T) {
	small := Checks(100, 2)
	if small.Bounded != 0 || small.Calls() < 2*6*500 {
		t.Errorf("Checks(100, 2) = %+v; want at least 6,000 calls, none bounded", small)
	}
	large := Checks(LargeBytes*4, 2)
	if large.Bounded != 2 || large.Calls() > 100 {
		t.Errorf("Checks(16 MiB, 2) = %+v; want at most 100 calls, 2 ops bounded", large)
	}
}
