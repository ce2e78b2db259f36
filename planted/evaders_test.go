package planted

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// job returns the runner's job of a planted codec on a dataset shape, as
// serbench run builds it (a pool of builds).
func job(t *testing.T, name, ds string, s dataset.Shape, ops ...results.Op) runner.Job {
	t.Helper()
	d, err := dataset.Lookup(ds)
	if err != nil {
		t.Fatal(err)
	}
	return runner.Job{
		Codec: lookup(t, name), Dataset: d.Name, Shape: string(s), Items: d.Count(s), Ops: ops,
		Value:   func() (any, error) { return d.Value(s) },
		Alt:     func() (any, error) { return d.ValueAt(s, 1) },
		ValueAt: func(k int) (any, error) { return d.ValueAt(s, k) },
	}
}

// A trial runs planted codecs' jobs through the real runner, in this
// process, with the smallest budget, and marks their figures as a run
// does. Batches are of a millisecond: a self-timed loop that saves its
// work once per call (planted-loop-gzip) saves it over many iterations.
type trial struct {
	r        *runner.Runner
	overhead float64
}

func newTrial(t *testing.T) trial {
	t.Helper()
	r, err := runner.New(runner.Options{Budget: 20 * time.Millisecond, SampleTime: 5 * time.Millisecond, BatchTime: time.Millisecond, MinSamples: 3})
	if err != nil {
		t.Fatal(err)
	}
	return trial{r, r.LoopOverhead(context.Background())}
}

// run measures op of codec on dataset ds's shape s and returns the result
// and why it is not believed: its Reason, or Implausible when it is ok.
func (tr trial) run(t *testing.T, codec, ds string, s dataset.Shape, op results.Op) (results.Result, string) {
	t.Helper()
	j := job(t, codec, ds, s, op)
	res := tr.r.RunJob(context.Background(), &j)
	results.MarkImplausible(res, tr.overhead)
	got := res[0]
	if got.Status == results.OK {
		return got, got.Implausible
	}
	return got, got.Reason
}

// TestEvadersCaught runs each evader (but planted-handle, whose encodings
// only a fresh process can show for what they are: planted-evaders.txtar)
// through the real runner, in this process, with the smallest budget, and
// checks that each result it cheats on is failed with the check that
// sees it, or flagged implausible: never ranked. planted-rare-loss, whose
// loss an older runner missed on large messages, is here too.
func TestEvadersCaught(t *testing.T) {
	tr := newTrial(t)
	for _, tt := range []struct {
		codec, dataset string
		shape          dataset.Shape
		op             results.Op
		status         results.Status
		reason         string // a regexp matching Reason, or Implausible when status is ok
	}{
		{MemoContent, "tiny", dataset.Single, results.Decode, results.Failed, "handed back the very same value"},
		{Tell, "tiny", dataset.Single, results.Decode, results.Failed, "a timed iteration"},
		{LazyValue, "tiny", dataset.Single, results.Decode, results.OK, "the decoding is done in Value"},
		{LoopShort, "tiny", dataset.Single, results.Encode, results.OK, "its own loop reads|tells the timed calls"},
		{LoopShort, "tiny", dataset.Single, results.Decode, results.OK, "its own loop reads|tells the timed calls"},
		{LoopGzip, "tiny", dataset.Single, results.Encode, results.OK, "its own loop reads|tells the timed calls"},
		{RewriteInput, "tiny", dataset.Single, results.Decode, results.Failed, "Decode writes into its input"},
		{LargeLoss, "user", dataset.Slice, results.Decode, results.Failed, "message"},
		{RareLoss, "user", dataset.Slice, results.Decode, results.Failed, "message"},
		{Alias, "tiny", dataset.Single, results.Decode, results.Failed, "after its input was overwritten"},
		{Reuse, "tiny", dataset.Single, results.Decode, results.Failed, "handed back the very same value"},
	} {
		t.Run(tt.codec+"/"+string(tt.op), func(t *testing.T) {
			got, why := tr.run(t, tt.codec, tt.dataset, tt.shape, tt.op)
			if got.Ranked() {
				t.Fatalf("ranked: %.3gns/op, status %s, checked %d round trips, path %.3gns, checks %.3gns, value %.3gns",
					got.NsPerOp.Median, got.Status, got.Checked, got.PathNs, got.CheckNsPerOp, got.ValueNs)
			}
			t.Logf("%s, weakness %d: %s: %.300s", tt.codec, Weakness[tt.codec], got.Status, why)
			if got.Status != tt.status || !regexp.MustCompile(tt.reason).MatchString(why) {
				t.Errorf("status %s, %q; want %s with %q", got.Status, why, tt.status, tt.reason)
			}
		})
	}
}

// TestEvadersHonestOtherwise checks each evader's own behaviour: what it
// does honestly, and the fault it plants.
func TestEvadersHonestOtherwise(t *testing.T) {
	v := &dataset.Tiny{ID: 7, SomeStr: "seven"}
	enc := marshal(t, v)

	c := prepare(t, Handle, v)
	h := encode(t, c)
	if len(h) != 8 {
		t.Errorf("planted-handle: a %d-byte encoding, want an 8-byte handle", len(h))
	}
	if got := decode(t, c, h); got.(*dataset.Tiny).SomeStr != "seven" {
		t.Errorf("planted-handle: decoded %+v", got)
	}

	c = prepare(t, RewriteInput, v)
	buf := append([]byte(nil), enc...)
	first := decode(t, c, buf)
	if buf[0] != rewritten {
		t.Error("planted-rewrite-input: the buffer was not rewritten")
	}
	if again := decode(t, c, buf); again != first {
		t.Error("planted-rewrite-input: the rewritten buffer did not hand back the memo")
	}

	c = prepare(t, Alias, v)
	buf = append([]byte(nil), enc...)
	got := decode(t, c, buf).(*dataset.Tiny)
	for i := range buf {
		buf[i] = 'x'
	}
	if got.SomeStr == "seven" {
		t.Error("planted-alias: the decoded string does not point into the input")
	}

	c = prepare(t, Reuse, v)
	if a, b := decode(t, c, enc), decode(t, c, enc); a != b {
		t.Error("planted-reuse: two decodes gave two values")
	}

	c = prepare(t, Tell, v)
	for range 3 {
		if err := c.Decode(marshal(t, &dataset.Tiny{ID: 1})); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Decode(enc); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Value(); got.(*dataset.Tiny).ID != 1 {
		t.Error("planted-tell: the fourth Decode in a row decoded")
	}
	if got := decode(t, c, enc); got.(*dataset.Tiny).ID != 7 {
		t.Error("planted-tell: a Decode after Value did not decode")
	}
}
