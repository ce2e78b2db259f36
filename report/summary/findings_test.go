package summary

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/results"
)

// A m is one measured codec on one category, for hand-built runs: the
// median times of both ops with a ±ci interval (ci 0: no interval) and
// the encoded size.
type m struct {
	codec, cat string // cat: "dataset/shape"
	enc, dec   float64
	ci         float64
	size       int
}

// runOf builds a run of verified results from ms, with items 10 for the
// slice shapes.
func runOf(ms ...m) *results.Run {
	run := &results.Run{Options: results.Options{Target: 0.03, Confidence: 0.95}}
	for _, x := range ms {
		d, sh, _ := strings.Cut(x.cat, "/")
		items := 1
		if sh != "single" {
			items = 10
		}
		for _, op := range results.Ops {
			ns := x.enc
			if op == results.Decode {
				ns = x.dec
			}
			st := results.Stat{Median: ns}
			if x.ci > 0 {
				st.Lo, st.Hi = ns*(1-x.ci), ns*(1+x.ci)
			}
			run.Results = append(run.Results, results.Result{
				Op: op, Codec: x.codec, Dataset: d, Shape: sh, Status: results.OK,
				Bytes: x.size, Items: items, NsPerOp: st, TargetMet: x.ci > 0 && x.ci <= 0.03,
			})
		}
	}
	return run
}

func render(t *testing.T, run *results.Run) string {
	t.Helper()
	var buf strings.Builder
	if err := Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestWording(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"ratio above 100", ratio(1250.4), "1,250×"},
		{"ratio above 10", ratio(13.4), "13×"},
		{"ratio with a tenth", ratio(1.84), "1.8×"},
		{"ratio near 1", ratio(1.034), "1.03×"},
		{"ratio below 0.95", ratio(0.4), "0.4×"},
		{"change up", change(2.7), "2.7×"},
		{"change down", change(0.4), "falls to 0.4×"},
		{"group", group("1421842"), "1,421,842"},
		{"group short", group("999"), "999"},
		{"group negative", group("-1234"), "-1,234"},
		{"group fraction", group("12345.5"), "12,345.5"},
		{"bytes", bytes(1421842), "1,421,842 B"},
		{"bytesF whole", bytesF(52), "52 B"},
		{"bytesF fraction", bytesF(23.25), "23.2 B"},
		{"bytesF large", bytesF(201.3), "201 B"},
		{"or empty", or(""), "–"},
		{"or text", or("x"), "x"},
		{"text markup", text("a_b*c`d<e>"), "a\\_b\\*c\\`d\\<e\\>"},
		{"text cell", text("a|b\nc"), "a\\|b c"},
		{"text backslash", text(`a\|`), `a\\\|`},
		{"durCI", durCI(&results.Result{NsPerOp: results.Stat{Median: 1500, Lo: 1455, Hi: 1545}}), "1.50µs ±3%"},
		{"durCI without interval", durCI(&results.Result{NsPerOp: results.Stat{Median: 97.8}}), "97.8ns ±?"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

func TestGrowthOf(t *testing.T) {
	for _, tc := range []struct {
		vals        []float64
		f           float64
		first, last int
		known       bool
	}{
		{[]float64{10, 20, 40}, 4, 0, 2, true},
		{[]float64{0, 20, 10}, 0.5, 1, 2, true},
		{[]float64{10, 0, 0}, 0, 0, 0, false},
		{[]float64{0, 0}, 0, -1, -1, false},
		{[]float64{5, 0, 15}, 3, 0, 2, true},
	} {
		g := growthOf(tc.vals)
		if g.known() != tc.known || g.first != tc.first || g.last != tc.last || g.f != tc.f {
			t.Errorf("growthOf(%v) = %+v (known %v); want f %v, %d→%d, known %v", tc.vals, g, g.known(), tc.f, tc.first, tc.last, tc.known)
		}
	}
}

func TestLadder(t *testing.T) {
	run := runOf(
		m{"a", "tiny/single", 100, 200, 0.01, 10},
		m{"b", "tiny/single", 100, 100, 0.01, 20},
		m{"c", "tiny/single", 50, 50, 0.01, 30},
		m{"a", "medium/single", 200, 300, 0.01, 20},
		m{"b", "medium/single", 400, 50, 0.01, 40},
		m{"a", "big/single", 400, 400, 0.01, 40},
		m{"b", "big/single", 1600, 80, 0.01, 70},
		m{"c", "big/single", 100, 25, 0.01, 90},
		m{"a", "tiny/slice", 1000, 1000, 0.01, 100},
		m{"a", "big/slice", 3000, 500, 0.01, 300},
		m{"a", "game/single", 5, 5, 0.01, 5},   // not on the ladder
		m{"a", "huge/ptrslice", 5, 5, 0.01, 5}, // one rung only
	)
	ls := newIndex(run).ladders()
	if len(ls) != 2 || ls[0].shape != "single" || ls[1].shape != "slice" {
		t.Fatalf("ladders of shapes %v; want single and slice", shapesOf(ls))
	}
	single := ls[0]
	if got := datasetsOf(single.rungs); got != "tiny medium big" {
		t.Errorf("single rungs %q, want tiny medium big", got)
	}
	if len(single.lines) != 3 {
		t.Fatalf("single has %d lines, want a, b and c", len(single.lines))
	}
	c := single.lines[2]
	if c.codec != "c" || c.values[0][1] != 0 || c.growth[0].f != 2 || c.growth[2].f != 3 {
		t.Errorf("line c = %+v; want a gap on medium, encode ×2, bytes ×3", c)
	}
	slice := ls[1]
	if a := slice.lines[0]; a.values[0][0] != 100 || a.values[2][1] != 30 || a.growth[1].f != 0.5 {
		t.Errorf("slice line a = %+v; want figures per item (100ns, 30 B) and decode falling to 0.5", a)
	}
	for _, tc := range []struct {
		l    ladder
		m    int
		want string
	}{
		{single, 0, "Encode per message from tiny→big grows least for c (2.0×) and most for b (16×)."},
		{single, 1, "Decode per message from tiny→big shrinks most for c (falls to 0.5×) and grows most for a (2.0×)."},
		{single, 2, "Bytes per message from tiny→big grows least for c (3.0×) and most for a (4.0×)."},
		{slice, 1, ""}, // one codec only
	} {
		if got := tc.l.growthWords(tc.m); got != tc.want {
			t.Errorf("%s %s: %q\nwant %q", tc.l.shape, ladderMetrics[tc.m], got, tc.want)
		}
	}
	// One codec shrinks, the other grows: "shrinks" without "most".
	one := ladder{rungs: single.rungs, lines: []ladderLine{
		{codec: "x", growth: [3]growth{1: {0.5, 0, 2}}},
		{codec: "y", growth: [3]growth{1: {3, 0, 2}}},
	}}
	if got, want := one.growthWords(1), "Decode per message from tiny→big shrinks for x (falls to 0.5×) and grows most for y (3.0×)."; got != want {
		t.Errorf("one shrinking: %q\nwant %q", got, want)
	}
	all := ladder{rungs: single.rungs, perItem: true, lines: []ladderLine{
		{codec: "x", growth: [3]growth{{0.5, 0, 2}}},
		{codec: "y", growth: [3]growth{{0.8, 0, 2}}},
		{codec: "z", growth: [3]growth{{0.9, 1, 2}}}, // not the whole ladder
	}}
	if got, want := all.growthWords(0), "Encode per item from tiny→big shrinks for every codec: most for x (falls to 0.5×), least for y (falls to 0.8×)."; got != want {
		t.Errorf("all shrinking: %q\nwant %q", got, want)
	}

	out := render(t, run)
	for _, want := range []string{
		"### shape single, per message",
		"| c | encode | 50.0ns | – | 100ns | 2.0× tiny→big |",
		"| | bytes | 10 B | 20 B | 40 B | 4.0× tiny→big |",
		"| | decode | 100ns | 50.0ns | falls to 0.5× tiny→big |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	if strings.Contains(out, "shape ptrslice") {
		t.Error("a shape with one rung has a ladder")
	}
}

func shapesOf(ls []ladder) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.shape)
	}
	return out
}

func datasetsOf(cs []category) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Dataset)
	}
	return strings.Join(out, " ")
}

// TestCrossing checks where gob is said to overtake JSON, on runs where it
// does at one size, never does, is tied everywhere, interleaves, or has
// too few cases.
func TestCrossing(t *testing.T) {
	// json's size grows with the dataset; times are chosen per case.
	cats := []string{"tiny/single", "medium/single", "big/single", "huge/single"}
	build := func(jsonNs, gobNs []float64, ci float64) *results.Run {
		var ms []m
		for i, c := range cats[:len(jsonNs)] {
			ms = append(ms, m{"json", c, jsonNs[i], jsonNs[i], ci, 10 * (i + 1)}, m{"gob", c, gobNs[i], gobNs[i], ci, 10*(i+1) + 5})
		}
		return runOf(ms...)
	}
	for _, tc := range []struct {
		name          string
		json, gob     []float64
		ci            float64
		nJSON, nGob   int
		nTie          int
		words         string
		lastJ, firstG int
	}{
		{"overtakes", []float64{100, 200, 400, 800}, []float64{300, 300, 200, 100}, 0.01, 2, 2, 0,
			"gob overtakes json between medium/single (20 B of JSON), the largest case where json is faster, and big/single (30 B of JSON), the smallest where gob is. Below it json is faster in every case, above it gob is.", 1, 2},
		{"overtakes past a tie", []float64{100, 200, 400, 800}, []float64{300, 201, 200, 100}, 0.01, 1, 2, 1,
			"gob overtakes json between tiny/single (10 B of JSON), the largest case where json is faster, and big/single (30 B of JSON), the smallest where gob is; 1 tied or undecided case(s) lie between. Below it json is faster in every case, above it gob is.", 0, 2},
		{"never", []float64{100, 200, 300}, []float64{200, 201, 600}, 0.01, 2, 0, 1,
			"gob never beats json here: json is faster in 2 of 3 cases, up to big/single (30 B of JSON), and tied or undecided in 1.", 2, -1},
		{"always", []float64{200, 200}, []float64{100, 100}, 0.01, 0, 2, 0,
			"json never beats gob here: gob is faster in 2 of 2 cases, from tiny/single (10 B of JSON) on, and tied or undecided in 0.", -1, 0},
		{"tied", []float64{100, 200}, []float64{101, 199}, 0.05, 0, 0, 2,
			"gob and json are tied or undecided in all 2 cases.", -1, -1},
		{"no intervals", []float64{100, 200}, []float64{300, 50}, 0, 0, 0, 2,
			"gob and json are tied or undecided in all 2 cases.", -1, -1},
		{"interleaved", []float64{100, 200, 100}, []float64{50, 400, 50}, 0.01, 1, 2, 0,
			"No single crossover by size: json is faster in 1 cases, the largest medium/single (20 B of JSON), and gob in 2, the smallest tiny/single (10 B of JSON); they interleave (0 tied or undecided).", 1, 0},
	} {
		x := newIndex(build(tc.json, tc.gob, tc.ci)).crossing("gob")
		if x == nil {
			t.Errorf("%s: no crossing", tc.name)
			continue
		}
		for i := range results.Ops { // both ops have the same times
			o := x.ops[i]
			if o.nJSON != tc.nJSON || o.nGob != tc.nGob || o.nTie != tc.nTie || o.lastJSON != tc.lastJ || o.firstGob != tc.firstG {
				t.Errorf("%s: %+v; want json %d, gob %d, tie %d, last json %d, first gob %d", tc.name, o, tc.nJSON, tc.nGob, tc.nTie, tc.lastJ, tc.firstG)
			}
			if got := o.words("gob"); got != tc.words {
				t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.words)
			}
		}
	}
	if x := newIndex(build([]float64{100}, []float64{50}, 0.01)).crossing("gob"); x != nil {
		t.Errorf("one case makes a crossing: %+v", x)
	}
	if got := (opCrossing{points: []crossPoint{{}}}).words("gob"); got != "" {
		t.Errorf("one point has words: %q", got)
	}
}

// TestCrossingOrder checks that the cases are ordered by the size of
// JSON's encoding, not by the run's order, and that a case missing one
// op's result keeps its row but no point for that op.
func TestCrossingOrder(t *testing.T) {
	run := runOf(
		m{"json", "big/single", 400, 400, 0.01, 300}, m{"gob", "big/single", 100, 100, 0.01, 200},
		m{"json", "tiny/single", 100, 100, 0.01, 10}, m{"gob", "tiny/single", 300, 300, 0.01, 50},
		m{"json", "medium/single", 200, 200, 0.01, 100}, m{"gob", "medium/single", 300, 300, 0.01, 90},
	)
	// gob's decode on medium did not run (as with -ops): no decode point
	// there.
	run.Results = slices.DeleteFunc(run.Results, func(r results.Result) bool {
		return r.Codec == "gob" && r.Dataset == "medium" && r.Op == results.Decode
	})
	x := newIndex(run).crossing("gob")
	var order []string
	for _, cs := range x.cases {
		order = append(order, cs.c.Dataset)
	}
	if got := strings.Join(order, " "); got != "tiny medium big" {
		t.Errorf("cases in order %q, want by JSON size: tiny medium big", got)
	}
	if len(x.ops[0].points) != 3 || len(x.ops[1].points) != 2 || x.cases[1].json[1] != nil {
		t.Errorf("points %d encode, %d decode; want 3 and 2 (medium's decode missing)", len(x.ops[0].points), len(x.ops[1].points))
	}
	out := render(t, run)
	if !strings.Contains(out, "| medium/single | 100 B | 90 B | 200ns ±1% | 300ns ±1% | gob 1.5× slower | – | – | – |") {
		t.Errorf("summary lacks the medium row with its missing decode:\n%s", out)
	}
	if strings.Count(out, "## Where gob overtakes JSON") != 1 {
		t.Error("the crossover heading is not written once")
	}
}

func TestStreamGain(t *testing.T) {
	run := runOf(
		m{"gob", "tiny/single", 1000, 1000, 0.01, 60}, m{"gob-stream", "tiny/single", 100, 500, 0.01, 15},
		m{"gob", "big/single", 1000, 1000, 0.01, 500}, m{"gob-stream", "big/single", 990, 400, 0.05, 450},
		m{"gob", "huge/single", 1000, 1000, 0, 1000}, m{"gob-stream", "huge/single", 500, 250, 0.01, 900},
		m{"json", "huge/single", 1000, 1000, 0, 1000},
	)
	g := newIndex(run).streamGain()
	if g == nil || len(g.rows) != 3 {
		t.Fatalf("stream gain %+v; want three rows", g)
	}
	wantStanding := [][2]string{{"", ""}, {"tied", ""}, {"no interval", "no interval"}}
	for k, r := range g.rows {
		if r.standing != wantStanding[k] {
			t.Errorf("%s: standing %q, want %q", r.c, r.standing, wantStanding[k])
		}
	}
	if d, p := g.rows[0].saved(); d != 45 || p != 75 {
		t.Errorf("tiny saves %d B (%.0f%%), want 45 B (75%%)", d, p)
	}
	enc, dec := g.ops[0], g.ops[1]
	if enc.faster != 1 || enc.ties != 2 || dec.faster != 2 || dec.ties != 1 {
		t.Errorf("encode %+v, decode %+v; want 1 faster 2 tied, 2 faster 1 tied", enc, dec)
	}
	for _, tc := range []struct{ got, want string }{
		{enc.words(), "the stream is faster in 1 of 3 cases (2 tied or undecided); one-shot time over stream time ranges from 1.01× (big/single) to 10× (tiny/single), median 2.0×."},
		{dec.words(), "the stream is faster in 2 of 3 cases (1 tied or undecided); one-shot time over stream time ranges from 2.0× (tiny/single) to 4.0× (huge/single), median 2.5×."},
		{g.sizeWords(), "Size: the stream's messages are 45 B to 100 B smaller, 10% to 75% of the one-shot message."},
		{streamOp{}.words(), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %q\nwant %q", tc.got, tc.want)
		}
	}
	if enc.gains[0] != 10 {
		t.Errorf("words sorted the gains in place: %v", enc.gains)
	}
	if g := newIndex(runOf(m{"gob", "tiny/single", 1, 1, 0, 1})).streamGain(); g != nil {
		t.Errorf("a run without gob-stream has a stream gain: %+v", g)
	}
}

// section returns the part of out from the heading to the next one.
func section(out, heading string) string {
	_, rest, _ := strings.Cut(out, heading)
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return heading + rest
}

// TestAnswers renders the answer and the per-category winners of one
// hand-built run per case against a golden file (testdata/answer-*.golden):
// a winner is named only with a runner-up whose interval stands apart
// behind it; otherwise the answer says there is no clear winner and why,
// and a ranking says which rivals crashed, errored or were implausible.
func TestAnswers(t *testing.T) {
	flagged := []results.Codec{
		{Name: "a", API: "generated", Notes: "hand | tuned"},
		{Name: "b", API: "reflection"},
		{Name: "c", Variant: "reused buffer", Losses: []string{"time-zone"}},
	}
	errored := func(codec, cat string, op results.Op, reason string) func(*results.Run) {
		return func(run *results.Run) {
			d, sh, _ := strings.Cut(cat, "/")
			run.Results = append(run.Results, results.Result{Op: op, Codec: codec, Dataset: d, Shape: sh, Status: results.Error, Reason: reason})
		}
	}
	for _, tc := range []struct {
		name   string
		ms     []m
		codecs []results.Codec
		edit   []func(*results.Run)
	}{
		{"winner", []m{
			{"a", "x/single", 100, 100, 0.01, 10}, {"b", "x/single", 200, 200, 0.01, 20},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 200, 200, 0.01, 20},
		}, flagged, nil},
		{"within-noise", []m{
			{"a", "x/single", 100, 100, 0.05, 10}, {"b", "x/single", 102, 102, 0.05, 20},
			{"a", "y/single", 100, 100, 0.05, 10}, {"b", "y/single", 200, 200, 0.01, 20},
			{"a", "z/single", 100, 100, 0.05, 10}, {"b", "z/single", 101, 101, 0.05, 10},
		}, nil, nil},
		{"no-runner-up", []m{
			{"a", "w/single", 100, 100, 0.01, 10},
			{"a", "x/single", 100, 100, 0.01, 10},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 10, 10, 0.01, 1},
		}, nil, nil},
		{"no-interval", []m{
			{"a", "x/single", 100, 100, 0.01, 10}, {"b", "x/single", 300, 300, 0, 20},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 300, 300, 0, 20},
		}, nil, nil},
		{"some-without-interval", []m{
			{"a", "x/single", 100, 100, 0.01, 10}, {"b", "x/single", 300, 300, 0.01, 20},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 300, 300, 0, 20},
		}, nil, nil},
		{"rivals-crashed", []m{
			{"a", "x/single", 100, 100, 0.01, 10}, {"b", "x/single", 200, 200, 0.01, 20},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 200, 200, 0.01, 20},
			{"c", "x/single", 50, 50, 0.01, 5},
		}, flagged, []func(*results.Run){
			errored("c", "y/single", results.Encode, "worker killed by SIGKILL, cause unknown"),
			errored("c", "y/single", results.Decode, "worker killed by SIGKILL, cause unknown"),
			errored("d", "x/single", results.Decode, "timed out after 2m0s"),
		}},
		{"implausible", []m{
			{"a", "x/single", 100, 100, 0.01, 10}, {"b", "x/single", 200, 200, 0.01, 20}, {"c", "x/single", 1, 300, 0.01, 5},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 200, 200, 0.01, 20}, {"c", "y/single", 90, 90, 0.01, 5},
		}, nil, []func(*results.Run){func(run *results.Run) { results.MarkImplausible(run.Results, 2) }}},
		{"same-size", []m{
			{"a", "x/single", 100, 100, 0.01, 10}, {"b", "x/single", 200, 200, 0.01, 10},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 200, 200, 0.01, 10},
		}, nil, nil},
		{"needs", []m{
			{"a", "x/single", 100, 100, 0.01, 10}, {"b", "x/single", 200, 200, 0.01, 20},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 200, 200, 0.01, 20},
		}, nil, []func(*results.Run){func(run *results.Run) {
			run.Needs = &results.Needs{Wanted: []string{"untrusted", "evolve=add+rename"}, Codecs: []results.NeedCodec{
				{Codec: "a", Judgements: []results.Judgement{{Need: "untrusted", Status: "met"}, {Need: "evolve=add+rename", Status: "met"}}},
				{Codec: "b", Judgements: []results.Judgement{{Need: "untrusted", Status: "met"}, {Need: "evolve=add+rename", Status: "met"}}},
				{Codec: "msgp", Judgements: []results.Judgement{
					{Need: "untrusted", Status: "failed", Why: `hostile: "no": long-map (out of memory, 5-byte input)`},
					{Need: "evolve=add+rename", Status: "failed", Why: "evolution: rename/old-reads-new (a value lost silently)"}}},
				{Codec: "gob", Judgements: []results.Judgement{
					{Need: "untrusted", Status: "met"},
					{Need: "evolve=add+rename", Status: "unknown", Why: "evolution has not run for gob: serbench evolve -codecs gob"}}},
			}, Displaced: []results.Displaced{{Question: "Fastest decode", Codec: "msgp", Detail: "best in 2 of the 2 dataset shapes it was measured on; next a, 3.0× slower"}}}
		}}},
		{"needs-none", nil, nil, []func(*results.Run){func(run *results.Run) {
			run.Needs = &results.Needs{Wanted: []string{"untrusted", "human-readable"}, Codecs: []results.NeedCodec{
				{Codec: "msgp", Judgements: []results.Judgement{
					{Need: "untrusted", Status: "failed", Why: `hostile: "no": long-map (out of memory, 5-byte input)`},
					{Need: "human-readable", Status: "failed", Why: "its encoding is binary"}}},
				{Codec: "json", Judgements: []results.Judgement{
					{Need: "untrusted", Status: "failed", Why: `hostile: "with care": deep-nesting panics`},
					{Need: "human-readable", Status: "met"}}},
			}}
		}}},
		{"warnings", []m{
			{"a", "x/single", 100, 100, 0.01, 10}, {"b", "x/single", 200, 200, 0.01, 20},
			{"a", "y/single", 100, 100, 0.01, 10}, {"b", "y/single", 200, 200, 0.01, 20},
		}, nil, []func(*results.Run){func(run *results.Run) {
			kinds := []results.OutcomeKind{{Name: "ok", Code: ".", Tone: results.ToneGood}, {Name: "oom", Code: "M", Tone: results.ToneBad, Label: "out of memory"}}
			m := results.NewMatrix(results.Study{Name: "hostile", Outcomes: kinds, Rules: []results.Rule{
				{Verdict: "no", When: []results.Outcome{"oom"}, Detail: true, Why: "Crashes on {cases}."}, {Verdict: "yes", Why: "Fine."}}},
				[]results.MatrixCodec{{Name: "a"}, {Name: "b"}}, []results.MatrixCase{{Name: "long-map"}})
			m.Add(results.MatrixCell{Codec: "a", Case: "long-map", Outcome: "oom"})
			m.Add(results.MatrixCell{Codec: "b", Case: "long-map", Outcome: "ok"})
			run.Matrices = []*results.Matrix{m}
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := runOf(tc.ms...)
			run.Codecs = tc.codecs
			for _, e := range tc.edit {
				e(run)
			}
			out := render(t, run)
			answer, _, _ := strings.Cut(section(out, "## The answer"), "Times are medians")
			golden.Check(t, "answer-"+tc.name+".golden", []byte(answer+section(out, "## Fastest and smallest")))
		})
	}
	run := runOf(m{"a", "x/single", 1, 1, 0, 1})
	run.Results[0].Status, run.Results[1].Status = results.Failed, results.Failed
	if out := render(t, run); strings.Contains(out, "## The answer") {
		t.Error("a run with nothing measured has an answer")
	}
	if answers, _ := Answers(run); answers != nil {
		t.Errorf("Answers of a run with nothing measured = %v, want none", answers)
	}
}

// TestProblems checks the failures-and-skips section on a run with one
// of each kind of problem.
func TestProblems(t *testing.T) {
	run := runOf(m{"a", "x/single", 100, 100, 0.05, 10}, m{"b", "x/single", 1, 1, 0.01, 10})
	run.Env.Overhead = 2 // b's 1ns is below the loop's own cost
	results.MarkImplausible(run.Results, run.Env.Overhead)
	run.Results = append(run.Results,
		results.Result{Op: results.Encode, Codec: "c", Dataset: "x", Shape: "single", Status: results.Failed, Reason: "round trip: lost a_b\nmore detail"},
		results.Result{Op: results.Decode, Codec: "c", Dataset: "x", Shape: "single", Status: results.Error, Reason: "timed out"},
		results.Result{Op: results.Encode, Codec: "d", Dataset: "x", Shape: "single", Status: results.Skipped, Reason: "codec d: unsupported type *dataset.X: cannot hold maps"},
		results.Result{Op: results.Decode, Codec: "d", Dataset: "x", Shape: "single", Status: results.Skipped, Reason: "codec d: unsupported type *dataset.X: cannot hold maps"},
		results.Result{Op: results.Encode, Codec: "d", Dataset: "y", Shape: "slice", Status: results.Skipped, Reason: "codec d: unsupported type *[]dataset.Y: cannot hold maps"},
	)
	run.Warnings = []string{"CPU <frequency> scaling"}
	pl := newIndex(run).problems()
	equal(t, "counts", []int{pl.total, pl.ok, len(pl.implausible), len(pl.bad), pl.nSkipped, pl.nMissed}, []int{9, 4, 2, 2, 3, 2})
	equal(t, "skips", len(pl.skips), 1) // two Go types, one cause
	equal(t, "skipped cases", pl.skips[0].cats, []string{"x/single", "y/slice"})
	equal(t, "skip reason", pl.skips[0].reason, "cannot hold maps")
	equal(t, "missed by codec", pl.missed, []string{"a 2"})

	_, tail, _ := strings.Cut(render(t, run), "## Failures and skips")
	golden.Check(t, "problems.golden", []byte("## Failures and skips"+tail))
}

// TestEscapedNames renders a run whose codec and dataset names hold
// Markdown's table and emphasis characters: every table row keeps its
// columns, and each name is escaped once.
func TestEscapedNames(t *testing.T) {
	run := runOf(
		m{"js|on", "ti_ny/single", 100, 100, 0.01, 10}, m{"g*b", "ti_ny/single", 300, 300, 0.01, 20},
		m{"js|on", "medium/single", 200, 200, 0.01, 30}, m{"g*b", "medium/single", 100, 100, 0.01, 40},
	)
	out := render(t, run)
	cellEnd := regexp.MustCompile(`(^|[^\\])(\\\\)*\|`)
	cols := 0
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		n := len(cellEnd.FindAllString(line, -1))
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("row has %d cell borders, its table %d: %s", n, cols, line)
		}
	}
	for _, want := range []string{`js\|on`, `g\*b`, `ti\_ny/single`} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks the escaped name %s", want)
		}
	}
	for _, bad := range []string{`\\|`, `\\*`, `\\_`} {
		if strings.Contains(out, bad) {
			t.Errorf("summary escapes a name twice: %s", bad)
		}
	}
}

// TestSmallRun renders a small hand-built run end to end against a golden
// file: every section but the claims, from figures chosen so that each
// decision is clear.
func TestSmallRun(t *testing.T) {
	run := runOf(
		m{"json", "tiny/single", 300, 1000, 0.02, 30}, m{"gob", "tiny/single", 1500, 9000, 0.02, 50}, m{"gob-stream", "tiny/single", 200, 500, 0.02, 15},
		m{"json", "big/single", 6000, 10000, 0.02, 600}, m{"gob", "big/single", 4000, 8000, 0.02, 400}, m{"gob-stream", "big/single", 2000, 3000, 0.02, 200},
		m{"json", "big/slice", 60000, 100000, 0.02, 6000}, m{"gob", "big/slice", 30000, 90000, 0.02, 4000}, m{"gob-stream", "big/slice", 20000, 30000, 0.02, 3500},
	)
	run.Env = results.Env{Date: "2000-01-02", CPU: "test CPU", GOOS: "linux", GOARCH: "amd64", GoVersion: "go1", GOMAXPROCS: 2, Serbench: "test"}
	run.Options.Preset = "small"
	run.Codecs = []results.Codec{{Name: "gob-stream", Label: "encoding/gob (stream)", Variant: "one Encoder reused"}}
	out := render(t, run)
	if strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
		t.Error("summary prints a NaN or an infinity")
	}
	// The claims section has tests of its own; leaving it out keeps this
	// file to the findings above.
	claims := section(out, "## The seed articles' claims")
	golden.Check(t, "small.golden", []byte(strings.Replace(out, claims, "", 1)))
}

func TestVerdict(t *testing.T) {
	r := func(ns, ci float64) *results.Result {
		st := results.Stat{Median: ns}
		if ci > 0 {
			st.Lo, st.Hi = ns*(1-ci), ns*(1+ci)
		}
		return &results.Result{NsPerOp: st}
	}
	for _, tc := range []struct {
		name string
		a, b *results.Result
		want string
	}{
		{"slower", r(210, 0.01), r(100, 0.01), "gob 2.1× slower"},
		{"faster", r(100, 0.01), r(140, 0.01), "gob 1.4× faster"},
		{"tied", r(103, 0.05), r(100, 0.05), "tied (1.03×)"},
		{"no interval", r(300, 0), r(100, 0.01), "undecided: no interval (3.00× by median)"},
	} {
		if got := verdict("gob", tc.a, tc.b); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHeader checks the opening lines: what was run, where, and the
// method's confidence level (95% when the run does not say).
func TestHeader(t *testing.T) {
	run := runOf(m{"a", "x/single", 100, 100, 0.01, 10})
	run.Env = results.Env{Date: "2000-01-02", CPU: "a_CPU", GOOS: "linux", GOARCH: "arm64", GoVersion: "go1", GOMAXPROCS: 4, Serbench: "v1"}
	run.Options.Preset = "quick (custom: -codecs a)"
	run.Options.Confidence = 0
	run.Machine = &results.Machine{Probes: 10, Busy: 0.5, Slowdown: 2}
	out := render(t, run)
	for _, want := range []string{
		"Run of 2000-01-02 (preset quick (custom: -codecs a), 2 results) on a\\_CPU, linux/arm64, go1, GOMAXPROCS 4, serbench v1.",
		"The machine was ",
		"with their 95% confidence interval",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out[:min(len(out), 600)])
		}
	}
	run.Options.Confidence = 0.99
	run.Machine = nil
	out = render(t, run)
	if !strings.Contains(out, "with their 99% confidence interval") || strings.Contains(out, "The machine was") {
		t.Error("the confidence level or the machine line does not follow the run")
	}
}

func TestCatList(t *testing.T) {
	var cs []category
	for _, d := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		cs = append(cs, category{Dataset: d, Shape: "single"})
	}
	if got, want := catList(cs[:2]), "a/single, b/single"; got != want {
		t.Errorf("catList of two = %q, want %q", got, want)
	}
	if got := catList(cs); !strings.HasSuffix(got, "f/single, ...") || strings.Contains(got, "g/") {
		t.Errorf("catList of seven = %q, want six and an ellipsis", got)
	}
}

// TestIndex checks which results may rank: a verified, plausible one; not
// one whose cell holds an implausible or failed result, nor a skip.
func TestIndex(t *testing.T) {
	run := runOf(
		m{"ok", "x/single", 100, 200, 0.01, 10},
		m{"cheat", "x/single", 100, 200, 0.01, 20},
		m{"broken", "x/single", 100, 200, 0.01, 30},
		m{"late", "x/single", 300, 400, 0.01, 40},
	)
	for i := range run.Results {
		r := &run.Results[i]
		switch {
		case r.Codec == "cheat" && r.Op == results.Decode:
			r.Implausible = "faster than copying"
		case r.Codec == "broken" && r.Op == results.Encode:
			r.Status = results.Failed
		}
	}
	run.Results = append(run.Results, results.Result{Op: results.Encode, Codec: "skip", Dataset: "x", Shape: "single", Status: results.Skipped})
	run.Codecs = []results.Codec{{Name: "late", API: "generated"}}
	ix := newIndex(run)
	c := category{Dataset: "x", Shape: "single"}
	equal(t, "results that may rank", ix.ok, 2)
	equal(t, "codecs in run order", ix.codecs, []string{"ok", "cheat", "broken", "late", "skip"})
	for _, tc := range []struct {
		codec string
		size  int
	}{{"ok", 10}, {"cheat", -1}, {"broken", -1}, {"late", 40}, {"skip", -1}, {"absent", -1}} {
		equal(t, tc.codec+" size", ix.size(tc.codec, c), tc.size)
		equal(t, tc.codec+" has an encode", ix.get(results.Encode, tc.codec, c) != nil, tc.size >= 0)
	}
	var names []string
	for _, r := range ix.measured(results.Decode, c) {
		names = append(names, r.Codec)
	}
	equal(t, "measured decodes", names, []string{"ok", "late"})

	var flagged []string
	equal(t, "a plain name", ix.name("ok", &flagged), "ok")
	equal(t, "a flagged name", ix.name("late", &flagged), "late†")
	ix.name("late", &flagged)
	equal(t, "flagged once", flagged, []string{"late"})
	equal(t, "shapes", ix.shapes(), []string{"single"})
}

// equal fails t when got and want print differently.
func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

// TestAnswerCodecs checks that the answer's list of codecs names those
// measured, and the codecs skipped or failed on every shape apart.
func TestAnswerCodecs(t *testing.T) {
	run := runOf(m{"a", "x/single", 100, 100, 0.01, 10}, m{"b", "x/single", 200, 200, 0.01, 20})
	run.Results = append(run.Results,
		results.Result{Op: results.Encode, Codec: "skip", Dataset: "x", Shape: "single", Status: results.Skipped},
		results.Result{Op: results.Decode, Codec: "skip", Dataset: "x", Shape: "single", Status: results.Skipped})
	out := render(t, run)
	want := "Codecs in this run: a, b; 1 dataset shapes (x/single). Not measured (skipped or failed on every shape; see Failures and skips): skip.\n"
	if !strings.Contains(out, want) {
		t.Errorf("summary lacks %q:\n%s", want, out[:min(len(out), 600)])
	}
}
