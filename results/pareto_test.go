package results

import (
	"slices"
	"testing"
)

func TestParetoFront(t *testing.T) {
	type pt struct {
		time, size float64
		out        bool
	}
	for _, tt := range []struct {
		name string
		pts  []pt
		want []int
	}{
		{"one", []pt{{1, 1, false}}, []int{0}},
		{"dominated", []pt{{2, 2, false}, {1, 1, false}}, []int{1}},
		{"trade-off, fastest first", []pt{{3, 1, false}, {1, 3, false}, {2, 2, false}, {4, 4, false}}, []int{1, 2, 0}},
		{"a tie in time keeps the smaller", []pt{{1, 2, false}, {1, 1, false}}, []int{1}},
		{"left out neither stands nor pushes", []pt{{1, 1, true}, {2, 2, false}}, []int{1}},
		{"none", nil, []int{}},
	} {
		got := ParetoFront(len(tt.pts), func(i int) float64 { return tt.pts[i].time }, func(i int) float64 { return tt.pts[i].size },
			func(i int) bool { return tt.pts[i].out })
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: front %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestTradeoffs checks a category's tradeoffs: a cell measured on both
// ops gives its encoding and each compressed one, with the compressor's
// times added to the round trip; a cell missing an op gives none; an
// implausible figure marks every tradeoff of its cell.
func TestTradeoffs(t *testing.T) {
	ok := func(op Op, ns float64, implausible string) *Result {
		return &Result{Op: op, Status: OK, Bytes: 100, NsPerOp: Stat{Median: ns}, Implausible: implausible,
			Compressed: []Compressed{{Algo: "zstd-3", Bytes: 40, CompressNs: 5, DecompressNs: 2}}}
	}
	cells := []*Cell{
		{Codec: "json", Encode: ok(Encode, 10, ""), Decode: ok(Decode, 20, "")},
		{Codec: "half", Encode: ok(Encode, 10, "")},
		{Codec: "cheat", Encode: ok(Encode, 1, "too fast"), Decode: ok(Decode, 1, "")},
	}
	got := Tradeoffs(cells)
	want := []Tradeoff{
		{Codec: "json", Time: 30, Size: 100},
		{Codec: "json", Compressor: "zstd-3", Time: 37, Size: 40},
		{Codec: "cheat", Time: 2, Size: 100, Implausible: "encode: too fast"},
		{Codec: "cheat", Compressor: "zstd-3", Time: 9, Size: 40, Implausible: "encode: too fast"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Tradeoffs:\n got %+v\nwant %+v", got, want)
	}
	if got[1].Name() != "json+zstd-3" || got[0].Name() != "json" {
		t.Errorf("names %q, %q", got[0].Name(), got[1].Name())
	}
}

// TestIndexMoreOps checks that the ops of MoreOps keep their own slot in
// a cell: a stream decode is not the cell's decode.
func TestIndexMoreOps(t *testing.T) {
	rs := []Result{
		{Op: Decode, Codec: "json", Dataset: "user", Shape: "single", Status: OK},
		{Op: StreamDecode, Codec: "json", Dataset: "user", Shape: "single", Status: OK, StreamBytes: 50, NsPerOp: Stat{Median: 100}},
	}
	c := NewIndex(rs).Cell("json", Category{"user", "single", 0})
	if c.Decode != &rs[0] || c.Result(StreamDecode) != &rs[1] || c.Result(StreamEncode) != nil {
		t.Fatalf("cell %+v", c)
	}
	if got := rs[1].MBPerSec(); got != 500 {
		t.Errorf("MBPerSec = %v, want 500 (50 bytes in 100ns)", got)
	}
	if rs[0].MBPerSec() != 0 {
		t.Error("a decode has a stream throughput")
	}
	for _, tt := range []struct {
		growth int64
		want   bool
	}{{-4096, true}, {StreamLimit - 1, true}, {StreamLimit, false}} {
		if got := (&StreamCheck{HeapGrowth: tt.growth}).Truly(); got != tt.want {
			t.Errorf("growth %d: truly %v, want %v", tt.growth, got, tt.want)
		}
	}
}
