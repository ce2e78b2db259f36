package html

import (
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/results"
)

func TestPareto(t *testing.T) {
	pt := func(codec string, time, size float64) scatterPoint {
		return scatterPoint{Codec: codec, Time: time, Size: size}
	}
	excluded := func(p scatterPoint) scatterPoint { p.Excluded, p.Implausible = true, "decode: too fast"; return p }
	for _, tc := range []struct {
		name string
		ps   []scatterPoint
		want []string
	}{
		{"one point", []scatterPoint{pt("a", 10, 10)}, []string{"a"}},
		{"fastest and smallest alone", []scatterPoint{pt("b", 20, 20), pt("a", 10, 10)}, []string{"a"}},
		{"a trade-off", []scatterPoint{pt("small", 30, 5), pt("fast", 10, 50), pt("mid", 20, 20), pt("worse", 25, 25)}, []string{"fast", "mid", "small"}},
		{"equal time: the smaller", []scatterPoint{pt("a", 10, 20), pt("b", 10, 15)}, []string{"b"}},
		{"an implausible point is never on it, nor pushes others off", []scatterPoint{excluded(pt("cheat", 1, 1)), pt("a", 10, 10)}, []string{"a"}},
		{"none may rank", []scatterPoint{excluded(pt("cheat", 1, 1))}, []string{}},
		{"a point over too few shapes", []scatterPoint{{Codec: "int64-only", Time: 1, Size: 1, Few: true}, pt("a", 10, 10)}, []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := slices.Clone(tc.ps)
			got := pareto(ps)
			if !slices.Equal(got, tc.want) {
				t.Errorf("front = %q, want %q", got, tc.want)
			}
			for _, p := range ps {
				if p.Front != slices.Contains(tc.want, p.Codec) {
					t.Errorf("%s: Front = %v", p.Codec, p.Front)
				}
			}
		})
	}
}

// TestOverview checks the overview of the fixture: a heatmap column per
// shape, each relative to the best plausible figure there, the
// implausible cell marked and never the 1×, and scatters whose fronts hold
// no implausible point.
func TestOverview(t *testing.T) {
	run := fixture.Run()
	ov := newOverview(run)
	if len(ov.Columns) != 9 {
		t.Errorf("%d columns, want the fixture's 9 measured shapes: %q", len(ov.Columns), ov.Columns)
	}
	col := slices.Index(ov.Columns, "int64/single")
	row := slices.IndexFunc(ov.Codecs, func(c heatCodec) bool { return c.Name == "strconv" })
	if col < 0 || row < 0 {
		t.Fatalf("no int64/single column (%d) or strconv row (%d)", col, row)
	}
	if ov.Codecs[row].Flags == "" {
		t.Error("strconv, a manual codec, has no † flags in the heatmap")
	}
	for _, op := range []struct {
		name  string
		cells []heatCell
	}{{"encode", ov.Encode}, {"decode", ov.Decode}} {
		ones := map[int]int{}
		for _, c := range op.cells {
			if c.Ratio == 1 {
				ones[c.X]++
				if c.Unranked {
					t.Errorf("%s: the best of column %s may not rank", op.name, ov.Columns[c.X])
				}
			}
			if c.Ratio < 1 && !c.Unranked {
				t.Errorf("%s: a plausible cell below the best: %+v", op.name, c)
			}
			if c.X == col && c.Y == row && (!c.Unranked || (op.name == "decode") != strings.Contains(c.Implausible, "below the timed loop")) {
				t.Errorf("%s: strconv on int64/single: %+v; want both unranked, the decode marked implausible", op.name, c)
			}
		}
		for x := range ov.Columns {
			if ones[x] == 0 {
				t.Errorf("%s: column %s has no 1× cell", op.name, ov.Columns[x])
			}
		}
	}
	if len(ov.Scatter) != 10 || ov.Scatter[0].Title != "all dataset shapes" || !ov.Scatter[0].Relative {
		t.Fatalf("scatters: %d, the first %q; want all shapes then one per shape", len(ov.Scatter), ov.Scatter[0].Title)
	}
	for _, s := range ov.Scatter {
		if len(s.Front) == 0 {
			t.Errorf("%s: no Pareto front", s.Title)
		}
		for _, p := range s.Points {
			if p.Front && p.Excluded {
				t.Errorf("%s: %s is on the front but implausible", s.Title, p.Codec)
			}
		}
	}
	var all = ov.Scatter[0]
	i := slices.IndexFunc(all.Points, func(p scatterPoint) bool { return p.Codec == "strconv" })
	if i < 0 || !strings.Contains(all.Points[i].Implausible, "int64/single") {
		t.Errorf("strconv's overall point does not say which shape was implausible: %+v", all.Points)
	}
}

// TestBinaryScatter: the cost study's bytes added replace each codec's
// size, its round-trip time kept; a codec without the figure, or a
// compressed point, is left out.
func TestBinaryScatter(t *testing.T) {
	all := scatterSet{Relative: true, Points: []scatterPoint{
		{Codec: "json", Time: 2, Size: 3}, {Codec: "cbor", Time: 1, Size: 1}, {Codec: "gob", Time: 1.5, Size: 2},
		{Codec: "json", Compressor: "zstd-1", Time: 3, Size: 1},
	}}
	m := results.NewMatrix(results.Study{Name: "cost"}, nil, []results.MatrixCase{{Name: "binary"}})
	m.Add(results.MatrixCell{Codec: "json", Case: "binary", Facts: map[string]string{"bytes_added": "12000"}})
	m.Add(results.MatrixCell{Codec: "cbor", Case: "binary", Facts: map[string]string{"bytes_added": "500000"}})
	if _, ok := binaryScatter(all, nil); ok {
		t.Error("a scatter without a cost matrix")
	}
	set, ok := binaryScatter(all, []*results.Matrix{m})
	if !ok || len(set.Points) != 2 || set.SizeName == "" {
		t.Fatalf("%+v", set)
	}
	if set.Points[0].Size != 12000 || set.Points[0].Time != 2 || set.Points[1].Size != 500000 {
		t.Errorf("points %+v", set.Points)
	}
	if len(set.Front) != 2 {
		t.Errorf("front %v: json is smaller, cbor faster", set.Front)
	}
}
