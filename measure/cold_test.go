package measure

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// TestCheckCold checks how the first calls reach a run: an encode per
// codec and dataset shape, whatever its GOMAXPROCS, then a decode of the
// encoding that encode made, both set on every result of their op, and a
// failure a warning that leaves the warm figures as they are.
func TestCheckCold(t *testing.T) {
	res := func(op results.Op, codec string, procs int) results.Result {
		return results.Result{Op: op, Codec: codec, Dataset: "tiny", Shape: "single", Procs: procs, Status: results.OK}
	}
	run := &results.Run{Results: []results.Result{
		res(results.Encode, "json", 1), res(results.Decode, "json", 1), res(results.Encode, "json", 2), res(results.Decode, "json", 2),
		res(results.Encode, "gob", 0), res(results.Decode, "gob", 0),
	}}
	var calls [][]ColdJob
	cfg := Config{Cold: func(_ context.Context, jobs []ColdJob) ([]ColdFigure, error) {
		calls = append(calls, jobs)
		out := make([]ColdFigure, len(jobs))
		for i, j := range jobs {
			switch {
			case j.Codec == "gob" && j.Op == results.Decode:
				out[i].Reason = "failed: no value"
			case j.Op == results.Encode:
				out[i] = ColdFigure{FirstNs: 1000, NextNs: 10, Msg: []byte(j.Codec)}
			case string(j.Msg) != j.Codec:
				t.Errorf("%s decodes %q, not its own cold encoding", j.Cell(), j.Msg)
			default:
				out[i] = ColdFigure{FirstNs: 2000, NextNs: 20}
			}
		}
		return out, nil
	}}
	if err := checkCold(context.Background(), run, cfg); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 || len(calls[0]) != 2 || len(calls[1]) != 2 {
		t.Fatalf("calls %+v: want two encodes (json's and gob's, once each), then two decodes", calls)
	}
	for _, r := range run.Results {
		want := map[results.Op]float64{results.Encode: 1000, results.Decode: 2000}[r.Op]
		if r.Codec == "gob" && r.Op == results.Decode {
			want = 0
		}
		if r.ColdNs != want || r.Status != results.OK {
			t.Errorf("%s: cold %v, status %s; want %v and ok", r.Key(), r.ColdNs, r.Status, want)
		}
	}
	if len(run.Warnings) != 1 || !strings.Contains(run.Warnings[0], "gob tiny/single decode: failed: no value") {
		t.Errorf("warnings %q", run.Warnings)
	}
}

// TestColdCalls makes real first calls in this process (the test stands
// in for the fresh child): an encode, then a decode of its encoding.
func TestColdCalls(t *testing.T) {
	resolve := func(c, d, s string) (runner.Job, error) { return preset.Job(c, d, s, nil) }
	call := func(j ColdJob) ColdFigure {
		in, _ := json.Marshal(j)
		out, err := ColdCalls(in, resolve, func(string) {})
		if err != nil {
			t.Fatal(err)
		}
		var f ColdFigure
		if err := json.Unmarshal(out, &f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	enc := call(ColdJob{Codec: "json", Dataset: "tiny", Shape: "single", Op: results.Encode})
	if enc.Reason != "" || enc.FirstNs <= 0 || enc.NextNs <= 0 || len(enc.Msg) == 0 {
		t.Fatalf("encode: %+v", enc)
	}
	dec := call(ColdJob{Codec: "json", Dataset: "tiny", Shape: "single", Op: results.Decode, Msg: enc.Msg})
	if dec.Reason != "" || dec.FirstNs <= 0 {
		t.Fatalf("decode: %+v", dec)
	}
	bad := call(ColdJob{Codec: "json", Dataset: "tiny", Shape: "single", Op: results.Decode, Msg: []byte(`{"ID":"x"}`)})
	if !strings.HasPrefix(bad.Reason, "failed: ") {
		t.Errorf("a message that does not decode to the value: %+v", bad)
	}
}
