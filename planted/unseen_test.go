package planted

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
)

// TestRoundTwoCaught runs each round-two evader through the real runner,
// in this process, with the smallest budget, and checks that each result
// it cheats on is failed or flagged implausible, never ranked, with the
// check that sees it; or, where the cheat relies on what the runner no
// longer does (deterministic builds, message 0's size), that its figure
// is the honest json's.
func TestRoundTwoCaught(t *testing.T) {
	tr := newTrial(t)
	for _, tt := range []struct {
		codec, dataset string
		op             results.Op
		reason         string // a regexp matching Implausible or Reason; "" when the result must be honest json's
	}{
		{Replay, "big", results.Encode, "never saw"},
		// A buffer freed and allocated again at the same address hands
		// back a stale memo: failed, or flagged where none was.
		{MemoAddress, "big", results.Decode, "never saw|unseen build|differs from the original"},
		{DeferValue, "big", results.Decode, "tells the timed calls from the checked ones|never saw"},
		{Index, "tiny", results.Encode, ""},
		{SmallFirst, "medium", results.Encode, ""},
	} {
		t.Run(tt.codec+"/"+string(tt.op), func(t *testing.T) {
			got, why := tr.run(t, tt.codec, tt.dataset, dataset.Single, tt.op)
			t.Logf("%s, weakness %d: %s, %d bytes (spread %.0f): %.300s", tt.codec, WeaknessTwo[tt.codec], got.Status, got.Bytes, got.BytesSpread, why)
			if tt.reason == "" {
				// The salted pool holds no build the codec can know: every
				// message is json, and the size reported is the pool's mean.
				want := jsonSize(t, tt.dataset)
				if got.Status != results.OK || float64(got.Bytes) < 0.9*want {
					t.Errorf("status %s, %d bytes; want ok and about json's %.0f", got.Status, got.Bytes, want)
				}
				return
			}
			if got.Ranked() {
				t.Fatalf("ranked: %.3gns/op, status %s, checks %.3gns, unseen %.3gns, value %.3gns",
					got.NsPerOp.Median, got.Status, got.CheckNsPerOp, got.UnseenNsPerOp, got.ValueNs)
			}
			if !regexp.MustCompile(tt.reason).MatchString(why) {
				t.Errorf("%s %q; want %q", got.Status, why, tt.reason)
			}
		})
	}
}

// jsonSize returns the size of the json of a build of the dataset's single
// value drawn as a salted pool draws them.
func jsonSize(t *testing.T, name string) float64 {
	d, err := dataset.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.ValueAt(dataset.Single, 1<<21+12345)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return float64(len(b))
}

// TestRoundTwoFaults checks that each round-two evader plants its fault.
func TestRoundTwoFaults(t *testing.T) {
	v := &dataset.Tiny{ID: 7, SomeStr: "seven"}
	enc := marshal(t, v)

	c := prepare(t, Replay, v)
	first := encode(t, c)
	v.SomeStr = "eight"
	if again := encode(t, c); string(again) != string(first) {
		t.Error("planted-replay: a later Encode did not replay the first")
	}
	v.SomeStr = "seven"

	c = prepare(t, MemoAddress, v)
	buf := append([]byte(nil), enc...)
	a := decode(t, c, buf)
	if b := decode(t, c, buf); a != b {
		t.Error("planted-memo-address: the same buffer decoded twice gave two values")
	}

	d, err := dataset.Lookup("tiny")
	if err != nil {
		t.Fatal(err)
	}
	b3, err := d.ValueAt(dataset.Single, 3)
	if err != nil {
		t.Fatal(err)
	}
	c = prepare(t, Index, b3)
	if e := encode(t, c); len(e) != 3 {
		t.Errorf("planted-index: build 3 encodes to %d bytes, want a 3-byte index", len(e))
	} else if got := decode(t, c, e); got.(*dataset.Tiny).ID != b3.(*dataset.Tiny).ID {
		t.Errorf("planted-index: the index decoded to %+v", got)
	}

	c = prepare(t, DeferValue, v)
	other := marshal(t, &dataset.Tiny{ID: 1})
	if err := c.Decode(other); err != nil {
		t.Fatal(err)
	}
	if err := c.Decode(enc); err != nil {
		t.Fatal(err)
	}
	if c.(*deferCase).pending == nil {
		t.Error("planted-defer-value: a Decode after a Decode decoded")
	}
	if got, _ := c.Value(); got.(*dataset.Tiny).ID != 7 {
		t.Error("planted-defer-value: Value did not decode the deferred input")
	}
}
