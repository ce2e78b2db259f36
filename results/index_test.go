package results_test

import (
	"slices"
	"testing"

	"github.com/serbench/serbench/results"
)

func TestFormatNs(t *testing.T) {
	for _, c := range []struct {
		ns   float64
		want string
	}{
		{3.05, "3.05ns"}, {15.7, "15.7ns"}, {336, "336ns"}, {1480, "1.48µs"}, {156000, "156µs"},
		{4.37e6, "4.37ms"}, {1.2e9, "1.20s"}, {0, "0.00ns"},
	} {
		if got := results.FormatNs(c.ns); got != c.want {
			t.Errorf("FormatNs(%v) = %q, want %q", c.ns, got, c.want)
		}
	}
}

func TestIndex(t *testing.T) {
	res := func(op results.Op, codec, dataset, shape string, st results.Status, implausible string) results.Result {
		return results.Result{Op: op, Codec: codec, Dataset: dataset, Shape: shape, Status: st, Implausible: implausible}
	}
	rs := []results.Result{
		res(results.Encode, "json", "tiny", "single", results.OK, ""),
		res(results.Decode, "json", "tiny", "single", results.OK, ""),
		res(results.Encode, "gob", "tiny", "single", results.OK, "faster than copying"),
		res(results.Decode, "gob", "tiny", "single", results.OK, ""),
		res(results.Encode, "proto", "big", "slice", results.Skipped, ""),
		res(results.Decode, "proto", "big", "slice", results.Skipped, ""),
		res(results.Encode, "json", "big", "slice", results.Skipped, ""),
		res(results.Decode, "json", "big", "slice", results.OK, ""),
		res(results.Encode, "cbor", "big", "slice", results.Failed, ""),
	}
	ix := results.NewIndex(rs)
	wantCats := []results.Category{{Dataset: "tiny", Shape: "single"}, {Dataset: "big", Shape: "slice"}}
	if !slices.Equal(ix.Categories, wantCats) {
		t.Errorf("Categories = %v, want %v", ix.Categories, wantCats)
	}
	if want := []string{"json", "gob", "proto", "cbor"}; !slices.Equal(ix.Codecs, want) {
		t.Errorf("Codecs = %v, want %v", ix.Codecs, want)
	}
	for _, c := range []struct {
		codec        string
		cat          results.Category
		ranked, skip bool
	}{
		{"json", wantCats[0], true, false},
		{"gob", wantCats[0], false, false}, // one implausible figure taints the cell
		{"proto", wantCats[1], false, true},
		{"json", wantCats[1], true, false}, // a skipped encode does not taint the decode
		{"cbor", wantCats[1], false, false},
	} {
		cell := ix.Cell(c.codec, c.cat)
		if cell == nil {
			t.Fatalf("Cell(%s, %v) = nil", c.codec, c.cat)
		}
		if cell.Ranked() != c.ranked || cell.Skipped() != c.skip {
			t.Errorf("Cell(%s, %v): Ranked %v, Skipped %v; want %v, %v", c.codec, c.cat, cell.Ranked(), cell.Skipped(), c.ranked, c.skip)
		}
	}
	if got := ix.Cell("json", wantCats[0]).Result(results.Decode); got != &rs[1] {
		t.Errorf("Result(decode) = %p, want the run's own result %p", got, &rs[1])
	}
	if ix.Cell("gob", wantCats[1]) != nil {
		t.Error("Cell(gob, big/slice) is not nil: gob has no result there")
	}
	if n := len(ix.Cells(wantCats[1])); n != 3 {
		t.Errorf("Cells(big/slice) holds %d cells, want 3", n)
	}
}

func TestFlags(t *testing.T) {
	for _, c := range []struct {
		codec results.Codec
		want  []string
	}{
		{results.Codec{Name: "json", API: "reflection"}, nil},
		{results.Codec{Name: "gob-stream", API: "reflection", Variant: "encoder reused"}, []string{"variant"}},
		{results.Codec{Name: "proto", API: "codegen", Losses: []string{"time-zone", "nil-empty"}},
			[]string{"codegen API", "loses time-zone, nil-empty"}},
		{results.Codec{Name: "gob", API: "reflection", Losses: []string{"nil-empty", "nil-pointer-zero"},
			LossProbes: map[string]string{"nil-empty": "slice-empty"}},
			[]string{"loses nil-empty (probe slice-empty), nil-pointer-zero"}},
	} {
		if got := c.codec.Flags(); !slices.Equal(got, c.want) {
			t.Errorf("%s: Flags() = %q, want %q", c.codec.Name, got, c.want)
		}
	}
}
