package need

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "untrusted", want: "untrusted"},
		{in: "untrusted, evolve", want: "untrusted,evolve"},
		{in: "evolve=add+rename", want: "evolve=add+rename"},
		{in: "evolve=add+remove", want: "evolve"},
		{in: "untrsted", err: `unknown need "untrsted"`},
		{in: "evolve=rname", err: `rename`},
		{in: "exact=3", err: "takes no argument"},
		{in: "exact,exact", err: "named twice"},
		{in: ",", err: "empty name"},
	} {
		ws, err := Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) = %v; want an error containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		var got []string
		for _, w := range ws {
			got = append(got, w.String())
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("Parse(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// matrix returns a small matrix of study s: cells maps "codec/case" to
// an outcome.
func matrix(s results.Study, cases []results.MatrixCase, cells map[[2]string]results.Outcome) *results.Matrix {
	var cs []results.MatrixCodec
	seen := map[string]bool{}
	for k := range cells {
		if !seen[k[0]] {
			seen[k[0]] = true
			cs = append(cs, results.MatrixCodec{Name: k[0]})
		}
	}
	m := results.NewMatrix(s, cs, cases)
	for k, o := range cells {
		m.Add(results.MatrixCell{Codec: k[0], Case: k[1], Outcome: o})
	}
	return m
}

var tones = []results.OutcomeKind{
	{Name: "na", Code: "-", Tone: results.ToneNone, Label: "cannot express it"},
	{Name: "ok", Code: ".", Tone: results.ToneGood, Label: "fine"},
	{Name: "err", Code: "e", Tone: results.ToneWarn, Label: "an error"},
	{Name: "lost", Code: "L", Tone: results.ToneBad, Label: "lost silently"},
}

func TestJudge(t *testing.T) {
	hostile := matrix(results.Study{Name: "hostile", Outcomes: tones, Rules: []results.Rule{
		{Verdict: "no", When: []results.Outcome{"lost"}, Why: "crashes on {cases}."},
		{Verdict: "yes", Why: "fine."},
	}}, []results.MatrixCase{{Name: "long-map"}}, map[[2]string]results.Outcome{
		{"safe", "long-map"}: "ok", {"crashy", "long-map"}: "lost",
	})
	evolution := matrix(results.Study{Name: "evolution", Outcomes: tones, Rules: []results.Rule{{Verdict: "any", Why: "."}}},
		[]results.MatrixCase{{Name: "add-optional/old-reads-new", Group: "add-optional"}, {Name: "rename/old-reads-new", Group: "rename"}},
		map[[2]string]results.Outcome{
			{"safe", "add-optional/old-reads-new"}: "ok", {"safe", "rename/old-reads-new"}: "lost",
			{"crashy", "add-optional/old-reads-new"}: "ok", {"crashy", "rename/old-reads-new"}: "ok",
		})
	interop := matrix(results.Study{Name: "interop", Outcomes: tones, Rules: []results.Rule{{Verdict: "any", Why: "."}}}, nil, nil)
	interop.Rollup = &results.Rollup{Columns: []string{"Python", "JavaScript (Node)", "Java"}, Rows: []results.RollupRow{
		{Name: "safe", Cells: []string{"yes, with careful settings (lib)", "no: neg-zero (at best, lib)", "yes (jackson-json)"}},
	}}
	facts := []Facts{
		{Name: "safe", Family: "json", API: codec.Reflection},
		{Name: "crashy", Family: "protobuf", API: codec.Codegen, Losses: 1},
		{Name: "absent", Family: "msgpack", API: codec.Reflection},
	}
	for _, tc := range []struct {
		needs string
		want  map[string][]results.NeedStatus // per codec, per need
		why   map[string]string               // a codec's first unmet judgement contains it
	}{
		{"untrusted", map[string][]results.NeedStatus{"safe": {"met"}, "crashy": {"failed"}, "absent": {"unknown"}},
			map[string]string{"crashy": `hostile: "no": crashes on long-map.`, "absent": "serbench hostile -codecs absent"}},
		{"evolve=add", map[string][]results.NeedStatus{"safe": {"met"}, "crashy": {"met"}, "absent": {"unknown"}}, nil},
		{"evolve=add+rename", map[string][]results.NeedStatus{"safe": {"failed"}, "crashy": {"met"}, "absent": {"unknown"}},
			map[string]string{"safe": "rename/old-reads-new (lost silently)"}},
		{"exact,no-codegen", map[string][]results.NeedStatus{"safe": {"met", "met"}, "crashy": {"failed", "failed"}, "absent": {"met", "met"}},
			map[string]string{"crashy": "declares 1 loss"}},
		{"human-readable,schemaless", map[string][]results.NeedStatus{"safe": {"met", "met"}, "crashy": {"failed", "failed"}, "absent": {"failed", "met"}}, nil},
		{"python,javascript,java", map[string][]results.NeedStatus{"safe": {"met", "failed", "met"}, "crashy": {"unknown", "unknown", "unknown"}, "absent": {"unknown", "unknown", "unknown"}},
			map[string]string{"safe": "interop: no: neg-zero", "crashy": "serbench interop -codecs crashy"}},
	} {
		ws, err := Parse(tc.needs)
		if err != nil {
			t.Fatal(err)
		}
		n := Judge(ws, facts, []*results.Matrix{hostile, evolution, interop})
		for _, c := range n.Codecs {
			var got []results.NeedStatus
			for _, j := range c.Judgements[:len(ws)] {
				got = append(got, j.Status)
			}
			if len(c.Judgements) != len(Needs) {
				t.Errorf("%s: %s judged on %d needs; want every one (%d)", tc.needs, c.Codec, len(c.Judgements), len(Needs))
			}
			if want := tc.want[c.Codec]; strings.Join(status(got), ",") != strings.Join(status(want), ",") {
				t.Errorf("%s: %s: %v; want %v (%+v)", tc.needs, c.Codec, got, want, c.Judgements)
			}
			if want, ok := tc.why[c.Codec]; ok {
				if l := n.Lacks(c.Codec); len(l) == 0 || !strings.Contains(l[0].Why, want) {
					t.Errorf("%s: %s: lacks %+v; want a reason containing %q", tc.needs, c.Codec, l, want)
				}
			}
			if n.Meets(c.Codec) != !slicesContainsNot(got) {
				t.Errorf("%s: %s: Meets %v with %v", tc.needs, c.Codec, n.Meets(c.Codec), got)
			}
		}
	}
}

func status(s []results.NeedStatus) []string {
	var out []string
	for _, x := range s {
		out = append(out, string(x))
	}
	return out
}

func slicesContainsNot(s []results.NeedStatus) bool {
	for _, x := range s {
		if x != results.NeedMet {
			return true
		}
	}
	return false
}

func TestNearest(t *testing.T) {
	n := &results.Needs{Wanted: []string{"a", "b"}, Codecs: []results.NeedCodec{
		{Codec: "two", Judgements: []results.Judgement{{Need: "a", Status: "failed"}, {Need: "b", Status: "failed"}}},
		{Codec: "one", Judgements: []results.Judgement{{Need: "a", Status: "met"}, {Need: "b", Status: "unknown"}, {Need: "c", Status: "failed"}}},
		{Codec: "all", Judgements: []results.Judgement{{Need: "a", Status: "met"}, {Need: "b", Status: "met"}, {Need: "c", Status: "failed"}}},
	}}
	meet, ex := Split(n)
	if strings.Join(meet, ",") != "all" || strings.Join(ex, ",") != "two,one" {
		t.Errorf("Split = %v, %v", meet, ex)
	}
	if got := Nearest(n, 1); strings.Join(got, ",") != "one" {
		t.Errorf("Nearest = %v; want [one]", got)
	}
}

// TestFormats checks the format table against the registry and against
// what the codecs write: every family is listed, and a text format's
// encoding of a dataset is printable UTF-8 while a binary one's is not.
func TestFormats(t *testing.T) {
	checked := 0
	defer func() {
		if checked < len(registry.Codecs)/2 {
			t.Errorf("only %d codecs encode user: the check of Text stands on too few", checked)
		}
	}()
	for _, info := range registry.Codecs {
		f, ok := FormatOf(info.Name, info.Family)
		if !ok {
			t.Errorf("family %q of %s has no Format in need/format.go", info.Family, info.Name)
			continue
		}
		if info.ReadsOnly != "" {
			continue
		}
		data, ok := encodeUser(info)
		if !ok {
			continue
		}
		checked++
		if got := printable(data); got != f.Text {
			t.Errorf("%s: encoding of user is printable text: %v; its family %s declares Text %v", info.Name, got, info.Family, f.Text)
		}
	}
}

func encodeUser(info codec.Info) ([]byte, bool) {
	d, err := dataset.Lookup("user")
	if err != nil {
		return nil, false
	}
	v, err := d.Value(dataset.Single)
	if err != nil {
		return nil, false
	}
	c, err := info.New().Prepare(v)
	if err != nil {
		return nil, false
	}
	b, err := c.Encode()
	return b, err == nil
}

func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// TestCostNeeds judges the needs the cost study's figures decide, and those
// the codecs' adoption declarations decide.
func TestCostNeeds(t *testing.T) {
	m := results.NewMatrix(results.Study{Name: "cost", Outcomes: tones, Rules: []results.Rule{{Verdict: "any", Why: "."}}},
		[]results.MatrixCodec{{Name: "lean"}, {Name: "fat"}}, []results.MatrixCase{{Name: "binary"}, {Name: "unsafe"}})
	m.Add(results.MatrixCell{Codec: "lean", Case: "binary", Outcome: "ok", Facts: map[string]string{"bytes_added": "12000"}})
	m.Add(results.MatrixCell{Codec: "lean", Case: "unsafe", Outcome: "ok", Facts: map[string]string{"unsafe": "0", "asm": "0", "jit": "0"}})
	m.Add(results.MatrixCell{Codec: "fat", Case: "binary", Outcome: "ok", Facts: map[string]string{"bytes_added": "3743000"}})
	m.Add(results.MatrixCell{Codec: "fat", Case: "unsafe", Outcome: "ok", Facts: map[string]string{"unsafe": "3", "asm": "1", "jit": "1"}})
	facts := []Facts{
		{Name: "lean", Family: "json"},
		{Name: "fat", Family: "json", JIT: "per type on first use", Generator: "protoc, protoc-gen-go (go tool)"},
		{Name: "unmeasured", Family: "json", Generator: "msgp (go tool)"},
	}
	ws, err := Parse("small-binary,no-unsafe,no-jit,no-compiler")
	if err != nil {
		t.Fatal(err)
	}
	n := Judge(ws, facts, []*results.Matrix{m})
	want := map[string]string{"lean": "met met met met", "fat": "failed failed failed failed", "unmeasured": "unknown unknown met met"}
	for _, c := range n.Codecs {
		var got []string
		for _, j := range c.Judgements[:len(ws)] {
			got = append(got, string(j.Status))
		}
		if strings.Join(got, " ") != want[c.Codec] {
			t.Errorf("%s: %v; want %s (%+v)", c.Codec, got, want[c.Codec], c.Judgements[:len(ws)])
		}
	}
	if l := n.Lacks("fat"); len(l) != 4 || !strings.Contains(l[0].Why, "3655 KiB") || !strings.Contains(l[3].Why, "protoc") {
		t.Errorf("fat lacks %+v; want the bytes it adds and the compiler named", l)
	}
}
