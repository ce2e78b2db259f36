package planted

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// TestRoundFourCaught runs each round-four evader through the real
// runner, in this process, with the smallest budget, and checks that each
// result it cheats on is failed or flagged implausible, never ranked, by
// the check that sees it.
func TestRoundFourCaught(t *testing.T) {
	tr := newTrial(t)
	for _, tt := range []struct {
		codec  string
		op     results.Op
		reason string // a regexp matching Implausible or Reason
	}{
		{CopyConverts, results.Decode, "cut to [0-9]+ of its [0-9]+ bytes: Decode returned no error, then Value failed"},
		{HideConverts, results.Decode, "cut to [0-9]+ of its [0-9]+ bytes: Decode returned no error and Value handed back the value of the build decoded before it"},
		{ReplayPrepare, results.Encode, `encoded the value as it was: .*implement codec.Reloader`},
		{ReplayReload, results.Encode, "never saw"},
	} {
		t.Run(tt.codec+"/"+string(tt.op), func(t *testing.T) {
			got, why := tr.run(t, tt.codec, "medium", dataset.Single, tt.op)
			t.Logf("%s, weakness %d: %s: %.400s", tt.codec, WeaknessFour[tt.codec], got.Status, why)
			if got.Ranked() {
				t.Fatalf("ranked: %.3gns/op, status %s, unseen %.3gns", got.NsPerOp.Median, got.Status, got.UnseenNsPerOp)
			}
			if !regexp.MustCompile(tt.reason).MatchString(why) {
				t.Errorf("%s %q; want %q", got.Status, why, tt.reason)
			}
		})
	}
}

// TestRoundFourFaults checks that each round-four evader plants its
// fault: the converts decode nothing in Decode, and the replays encode
// the value as it was when prepared (or reloaded) after a change in place.
func TestRoundFourFaults(t *testing.T) {
	for _, name := range []string{CopyConverts, HideConverts} {
		c := prepare(t, name, value(t, "medium", dataset.Single))
		if err := c.Decode([]byte("{not json")); err != nil {
			t.Errorf("%s: Decode of broken input = %v, want nil (the decoding is Value's)", name, err)
		}
		_, err := c.Value()
		if hides := name == HideConverts; hides != (err == nil) {
			t.Errorf("%s: Value of broken input: %v", name, err)
		}
	}
	for _, name := range []string{ReplayPrepare, ReplayReload} {
		v := value(t, "medium", dataset.Single)
		c := prepare(t, name, v)
		first := encode(t, c)
		*v.(*dataset.Medium) = dataset.NewMedium(1)
		if got := encode(t, c); string(got) != string(first) {
			t.Errorf("%s: Encode after a change in place is not the first encoding", name)
		}
		_, reloads := c.(interface{ Reload() error })
		if reloads != (name == ReplayReload) {
			t.Errorf("%s: a Reloader: %v", name, reloads)
		}
	}
}

// TestWarmPrepareCounted: a cold call is timed with the Prepare before
// it, so a Prepare that warms the codec's caches (planted-warm-prepare)
// has that warming in its first call's figure: the warming lies within
// the Prepare timed, and the Prepare within the first call.
func TestWarmPrepareCounted(t *testing.T) {
	for _, op := range []results.Op{results.Encode, results.Decode} {
		t.Run(string(op), func(t *testing.T) {
			j := job(t, WarmPrepare, "medium", dataset.Single, op)
			v, err := j.ValueAt(0)
			if err != nil {
				t.Fatal(err)
			}
			enc, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			c, err := runner.ColdCall(&j, op, enc)
			if err != nil {
				t.Fatal(err)
			}
			warmed := time.Duration(Warmed.Load())
			if warmed <= 0 || c.Prepare < warmed || c.First < c.Prepare {
				t.Errorf("warming %v, Prepare %v, first call %v: the first call must hold the Prepare that holds the warming", warmed, c.Prepare, c.First)
			}
		})
	}
}
