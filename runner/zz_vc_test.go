package runner_test

import (
	"context"
	"testing"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

func TestZZValueConverts(t *testing.T) {
	r, _ := runner.New(runner.Options{Budget: 50 * time.Millisecond})
	for _, c := range registry.Codecs {
		if !c.ValueConverts && c.Name != "json" && c.Name != "msgpack" && c.Name != "vtproto" {
			continue
		}
		for _, ds := range []string{"tiny", "big", "user"} {
			d, _ := dataset.Lookup(ds)
			j := runner.Job{Codec: c, Dataset: ds, Shape: "single", Ops: []results.Op{results.Encode, results.Decode},
				Value:   func() (any, error) { return d.Value(dataset.Single) },
				ValueAt: func(k int) (any, error) { return d.ValueAt(dataset.Single, k) }}
			for _, res := range r.RunJob(context.Background(), &j) {
				t.Logf("%s %s %s: %s med %.4g check %.4g unseen %.4g value %.4g copy %.4g bytes %d±%.0f flag %q %.100s", c.Name, ds, res.Op, res.Status, res.NsPerOp.Median, res.CheckNsPerOp, res.UnseenNsPerOp, res.ValueNs, res.CopyValueNs, res.Bytes, res.BytesSpread, res.Flagged, res.Reason)
			}
		}
	}
}
