package summary_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/report/internal/fixture"
	"github.com/serbench/serbench/report/summary"
	"github.com/serbench/serbench/results"
)

func TestGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := summary.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "summary.golden", buf.Bytes())
}

// TestShrinkWording checks that a figure that falls along the size
// ladder is said to fall, not to grow by a factor below 1.
func TestShrinkWording(t *testing.T) {
	var buf bytes.Buffer
	if err := summary.Write(&buf, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if m := regexp.MustCompile(`(grows|growth)[^.|]*\(0\.[0-9]+×\)|\| 0\.[0-9]+× [a-z0-9]+→`).FindString(out); m != "" {
		t.Errorf("a ratio below 1 is worded as growth: %q", m)
	}
	for _, want := range []string{"| falls to 0.4× tiny→big |", "Decode per item from tiny→big shrinks for gob (falls to 0.4×) and grows most for yaml (13×)."} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
}

// TestDeterministic renders the same run twice, the second time with its
// maps and slices freshly built, and expects the same bytes.
func TestDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := summary.Write(&a, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	if err := summary.Write(&b, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("two renderings of the same run differ")
	}
}

// TestMissingData checks that findings without data are left out rather
// than written with invented or empty figures.
func TestMissingData(t *testing.T) {
	run := fixture.Run()
	var keep []results.Result
	for _, r := range run.Results {
		if r.Codec == "json" && r.Status == results.OK {
			continue // no JSON: no crossover, no JSON claims
		}
		if r.Codec == "gob-stream" {
			continue
		}
		keep = append(keep, r)
	}
	run.Results = keep
	var buf bytes.Buffer
	if err := summary.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, absent := range []string{"Where gob overtakes JSON", "What gob stream buys", "Seed 003", "s000-decode-tiny", "s000-json-small"} {
		if bytes.Contains([]byte(out), []byte(absent)) {
			t.Errorf("summary without json and gob-stream results still has %q", absent)
		}
	}
	for _, present := range []string{"Fastest and smallest", "Scaling along the size ladder", "Failures and skips"} {
		if !bytes.Contains([]byte(out), []byte(present)) {
			t.Errorf("summary lacks %q", present)
		}
	}

	var empty bytes.Buffer
	if err := summary.Write(&empty, &results.Run{}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(empty.Bytes(), []byte("##")) {
		t.Errorf("summary of an empty run has sections:\n%s", empty.String())
	}
}

// TestMatrices: a run with study matrices beside it gets a section per
// matrix, each codec's verdict with why.
func TestMatrices(t *testing.T) {
	run := fixture.Run()
	run.Matrices = []*results.Matrix{fixture.Hostile(), fixture.Fidelity()}
	var buf bytes.Buffer
	if err := summary.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	i := strings.Index(out, "## Safe to decode untrusted input?")
	j := strings.Index(out, "## Does what goes in come back?")
	if i < 0 || j < i {
		t.Fatalf("no hostile section followed by a fidelity one:\n%s", out)
	}
	golden.Check(t, "matrices.golden", []byte(out[i:]))
}

// TestCorpora renders a run over corpora: each gets its answers against
// encoding/json, beyond noise, within it, without an interval, and where
// encoding/json was not measured.
func TestCorpora(t *testing.T) {
	var buf bytes.Buffer
	if err := summary.Write(&buf, fixture.Corpus()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "corpora.golden", buf.Bytes())
	out := buf.String()
	for _, want := range []string{
		"On **twitter\\_status**, **sonic** decodes 3.1× faster than encoding/json (2.39ms ±2% against 7.40ms ±2%)",
		"no codec encodes faster than encoding/json (1.90ms ±2%)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	var plain bytes.Buffer
	if err := summary.Write(&plain, fixture.Run()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "## On the real documents") {
		t.Error("a run without corpora has a section on them")
	}
}

// TestProductionGolden renders a run -cpu 1,2 -cold run: the scaling
// table with its intervals and worst scalers, the memory table and the
// first calls.
func TestProductionGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := summary.Write(&buf, fixture.Production()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"## Throughput on more cores (-cpu)", "## Memory kept and garbage made", "## First call in a fresh process", "Worst scalers: gob-stream"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	golden.Check(t, "production.golden", buf.Bytes())
}

// TestAdoptCosts: with a cost matrix beside the run, the answer gains a
// "cost to adopt" line for each codec it names, once, with its figures.
func TestAdoptCosts(t *testing.T) {
	run := fixture.Run()
	answers, _ := summary.Answers(run)
	var winner string
	for _, a := range answers {
		if a.Winner != "" {
			winner = a.Winner
			break
		}
	}
	if winner == "" {
		t.Skip("the fixture names no winner")
	}
	s := results.Study{Name: "cost", Outcomes: []results.OutcomeKind{{Name: "light", Code: ".", Label: "light", Tone: results.ToneGood, ShowNote: true}},
		Rules: []results.Rule{{Verdict: "light", Why: "light"}}}
	m := results.NewMatrix(s, []results.MatrixCodec{{Name: winner}}, []results.MatrixCase{{Name: "binary"}, {Name: "upkeep"}})
	m.Add(results.MatrixCell{Codec: winner, Case: "binary", Outcome: "light", Note: "+12 kB"})
	m.Add(results.MatrixCell{Codec: winner, Case: "upkeep", Outcome: "light"})
	run.Matrices = []*results.Matrix{m}
	var buf bytes.Buffer
	if err := summary.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	want := "- **Cost to adopt " + winner + "**: binary +12 kB, upkeep light."
	if out := buf.String(); strings.Count(out, want) != 1 || strings.Index(out, want) > strings.Index(out, "## Fastest") && strings.Contains(out, "## Fastest") {
		t.Errorf("want %q once, in the answer:\n%s", want, out)
	}
}
