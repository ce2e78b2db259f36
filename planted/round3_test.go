package planted

import (
	"regexp"
	"testing"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
)

// TestRoundThreeCaught runs each round-three evader through the real
// runner, in this process, with the smallest budget, and checks that each
// result it cheats on is failed or flagged implausible, never ranked, by
// the check that sees it.
func TestRoundThreeCaught(t *testing.T) {
	tr := newTrial(t)
	for _, tt := range []struct {
		codec, dataset string
		op             results.Op
		reason         string // a regexp matching Implausible or Reason
	}{
		{StreamMemo, "medium", results.StreamEncode, "never saw"},
		{StreamMemo, "medium", results.StreamDecode, "never saw"},
		{ReplayReuse, "medium", results.Encode, "its value changed to build [0-9]+'s after its first Encode, encoded the value as it was"},
		{DeferConverts, "medium", results.Decode, "its input overwritten after Decode returned"},
	} {
		t.Run(tt.codec+"/"+string(tt.op), func(t *testing.T) {
			got, why := tr.run(t, tt.codec, tt.dataset, dataset.Single, tt.op)
			t.Logf("%s, weakness %d: %s: %.400s", tt.codec, WeaknessThree[tt.codec], got.Status, why)
			if got.Ranked() {
				t.Fatalf("ranked: %.3gns/op, status %s, unseen %.3gns", got.NsPerOp.Median, got.Status, got.UnseenNsPerOp)
			}
			if !regexp.MustCompile(tt.reason).MatchString(why) {
				t.Errorf("%s %q; want %q", got.Status, why, tt.reason)
			}
		})
	}
}
