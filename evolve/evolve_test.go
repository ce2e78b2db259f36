package evolve

import (
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mailru/easyjson"
	"github.com/tinylib/msgp/msgp"

	"github.com/serbench/serbench/evolve/change"
	gov1 "github.com/serbench/serbench/evolve/gotypes/v1"
	gov2 "github.com/serbench/serbench/evolve/gotypes/v2"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// cell runs one cell in this process.
func cell(t *testing.T, codec, kase string, d change.Direction) results.MatrixCell {
	t.Helper()
	p, err := Lookup(codec)
	if err != nil {
		t.Fatal(err)
	}
	c, err := change.Lookup(kase)
	if err != nil {
		t.Fatal(err)
	}
	return RunCell(p, c, d, func(string) {})
}

const (
	oldNew = change.OldReadsNew
	newOld = change.NewReadsOld
)

// TestKnownFacts asserts, as cells, what the formats' own documents say
// of their evolution rules.
func TestKnownFacts(t *testing.T) {
	for _, tc := range []struct {
		fact   string
		codec  string
		kase   string
		dir    change.Direction
		want   results.Outcome
		detail string // a part of the cell's detail, if set
	}{
		{"Protobuf reads an added field's data with the old schema", "proto", "add-optional", oldNew, AsRules, ""},
		{"Protobuf reads old data with an added field", "proto", "add-optional", newOld, AsRules, ""},
		{"Protobuf reads data with a removed field", "proto", "remove-optional", newOld, AsRules, ""},
		{"Protobuf keeps unknown fields through decode and re-encode", "proto", "unknown-kept", oldNew, AsRules, ""},
		{"vtprotobuf keeps unknown fields through decode and re-encode", "vtproto", "unknown-kept", oldNew, AsRules, ""},
		{"Protobuf truncates int64 to int32 silently", "proto", "int32-int64-big", oldNew, Changed, "count: wrote 8589934599, read 7"},
		{"Protobuf matches by number: a rename keeps the value", "proto", "rename", oldNew, AsRules, ""},
		{"Protobuf matches by number: a renumbered field is lost", "proto", "renumber", newOld, Loss, `name: wrote "Ada", read ""`},
		{"Protobuf zigzag and varint disagree", "proto", "int32-sint32", newOld, Changed, "wrote 150, read 75"},
		// protobuf.dev's "Updating a message type": int32, uint32, int64,
		// uint64 and bool are all compatible on the wire.
		{"Protobuf reads a bool as the int32 1", "proto", "bool-int32", newOld, Changed, "verbose: wrote true, read 1"},
		{"Protobuf reads an int32 of 2 as the bool true", "proto", "bool-int32", oldNew, Changed, "verbose: wrote 2, read true"},
		{"Avro has no promotion between boolean and int", "avro", "bool-int32", newOld, Error, "not compatible"},
		{"Protobuf reads a map's entries as repeated pairs", "proto", "map-pairs", newOld, AsRules, ""},
		{"Protobuf reads repeated pairs as a map", "proto", "map-pairs", oldNew, AsRules, ""},
		{"Protobuf 3 refuses a string that is not UTF-8", "proto", "string-bytes-invalid", oldNew, Error, "invalid UTF-8"},
		{"vtprotobuf does not check a string's UTF-8", "vtproto", "string-bytes-invalid", oldNew, Changed, ""},
		{"Protobuf 3 keeps an enum number the reader does not name", "proto", "enum-added", oldNew, AsRules, ""},
		// protobuf.dev's "Enum behavior": Go's implementation reads a
		// closed enum as an open one, against the spec.
		{"Go's Protobuf keeps a proto2 enum value the reader does not name, as if open", "proto", "enum-added-closed", oldNew, AsRules, ""},
		{"Protobuf 2 fails on a missing required field", "proto", "add-required", newOld, Error, "required field"},
		{"Protobuf reads a changed default as the reader's", "proto", "default-changed", newOld, Changed, "level: wrote 7, read 9"},
		{"Avro fails on an enum symbol the reader lacks", "avro", "enum-added", oldNew, Error, "missing symbol"},
		{"gob refuses int64 to int32 out of range", "gob", "int32-int64-big", oldNew, Error, "out of range"},
		{"JSON refuses int64 to int32 out of range", "json", "int32-int64-big", oldNew, Error, ""},
		{"gob matches by name: order does not matter", "gob", "reorder", oldNew, AsRules, ""},
		{"gob matches by name: a renamed field is lost", "gob", "rename", newOld, Loss, `full_name: wrote "Ada", read ""`},
		{"gob ignores unknown fields", "gob", "add-optional", oldNew, AsRules, ""},
		{"JSON ignores unknown fields", "json", "add-optional", oldNew, AsRules, ""},
		{"JSON loses a renamed field", "json", "rename", oldNew, Loss, `name: wrote "Ada L.", read ""`},
		{"a reflection codec drops unknown fields when it re-encodes", "json", "unknown-kept", oldNew, Loss, ""},
		{"Avro resolution promotes int to long", "avro", "int32-int64", newOld, AsRules, ""},
		{"Avro resolution fails on a reader field without a default", "avro", "add-required", newOld, Error, "has no default"},
		{"Avro resolution fills a reader field's default", "avro", "add-default", newOld, AsRules, ""},
		{"Avro resolution matches by name, not position", "avro", "reorder", newOld, AsRules, ""},
		{"Avro resolution reads a renamed field through its alias", "avro", "rename", newOld, AsRules, ""},
		{"Avro without the writer's schema misreads reordered fields", "avro-reader-only", "reorder", newOld, Changed, `name: wrote "Ada", read "London"`},
		{"Avro without the writer's schema fails on a changed layout", "avro-reader-only", "int64-double", newOld, Error, ""},
		{"FlatBuffers reads a newer table", "flatbuffers", "add-optional", oldNew, AsRules, ""},
		{"FlatBuffers reads an older table", "flatbuffers", "add-optional", newOld, AsRules, ""},
		{"FlatBuffers reads a table with a field removed", "flatbuffers", "remove-optional", newOld, AsRules, ""},
		{"FlatBuffers matches by position: reordered fields misread", "flatbuffers", "reorder", newOld, Changed, `name: wrote "Ada", read "London"`},
		{"FlatBuffers does not store a default: a changed default changes the value", "flatbuffers", "default-changed", newOld, Changed, "level: wrote 7, read 9"},
		{"Cap'n Proto reads a newer struct", "capnp", "add-optional", oldNew, AsRules, ""},
		{"Cap'n Proto reads an older struct", "capnp", "add-optional", newOld, AsRules, ""},
		{"Cap'n Proto matches by ordinal: a rename keeps the value", "capnp", "rename", oldNew, AsRules, ""},
		{"Cap'n Proto keeps unknown fields when it copies a struct", "capnp", "unknown-kept", oldNew, AsRules, ""},
		{"Cap'n Proto's Text read as Data keeps its NUL", "capnp", "string-bytes", newOld, Changed, `read bytes "héllo\x00"`},
		{"a positional msgpack misreads reordered fields", "shamaton-msgpack-array", "reorder", newOld, Changed, ""},
	} {
		t.Run(tc.fact, func(t *testing.T) {
			c := cell(t, tc.codec, tc.kase, tc.dir)
			if c.Outcome != tc.want || !strings.Contains(c.Detail, tc.detail) {
				t.Errorf("%s %s/%s: %s (%s); want %s with %q", tc.codec, tc.kase, tc.dir, c.Outcome, c.Detail, tc.want, tc.detail)
			}
		})
	}
}

// TestBufAndAvroFacts checks the facts a Protobuf and an Avro cell carry.
func TestBufAndAvroFacts(t *testing.T) {
	if got := cell(t, "proto", "remove-optional", oldNew).Facts[FactBuf]; got != "FIELD_NO_DELETE" {
		t.Errorf("proto remove-optional: buf rule %q; want FIELD_NO_DELETE", got)
	}
	if got := cell(t, "proto", "add-optional", oldNew).Facts[FactBuf]; got != "none" {
		t.Errorf("proto add-optional: buf rule %q; want none", got)
	}
	for kase, want := range map[string]string{
		"add-optional":    "FULL",     // a union with null, null by default
		"add-required":    "FORWARD",  // the new reader has no default for it
		"remove-required": "BACKWARD", // the old reader has no default for it
		"int32-int64":     "BACKWARD", // int promotes to long, not back
		"string-int":      "NONE",
	} {
		if got := cell(t, "avro", kase, newOld).Facts[FactAvro]; got != want {
			t.Errorf("avro %s: compatibility %q; want %s", kase, got, want)
		}
	}
}

// TestMatrix runs every cell in this process and checks its structure: an
// outcome of the study for every cell, a reason for every n/a, no crash,
// and every case applying to Protobuf.
func TestMatrix(t *testing.T) {
	if err := Study.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(change.Cases) < 25 {
		t.Errorf("%d cases; the study promises at least 25", len(change.Cases))
	}
	ps := Participants()
	m := NewMatrix(ps, change.Names())
	for _, p := range ps {
		for i := range change.Cases {
			for _, d := range change.Directions {
				c := RunCell(p, &change.Cases[i], d, func(string) {})
				if Study.Severity(c.Outcome) < 0 {
					t.Errorf("%s %s: outcome %q is not the study's", c.Codec, c.Case, c.Outcome)
				}
				if c.Outcome == NA && c.Detail == "" {
					t.Errorf("%s %s: n/a without a reason", c.Codec, c.Case)
				}
				if (p.Name == "proto" || p.Name == "json") && c.Outcome == Crash {
					t.Errorf("%s %s: %s", c.Codec, c.Case, c.Detail)
				}
				if p.Name == "proto" && c.Outcome == NA {
					t.Errorf("proto %s: n/a (%s); every case has a Protobuf schema", c.Case, c.Detail)
				}
				m.Add(c)
			}
		}
	}
	if got, want := len(m.Cells), len(ps)*len(change.Cases)*2; got != want {
		t.Errorf("%d cells; want %d", got, want)
	}
	if p := m.Profile("gob"); !strings.Contains(p, "safe: add-optional") || !strings.Contains(p, "lost silently: rename") {
		t.Errorf("gob's profile: %q; want add-optional safe and rename lost", p)
	}
}

// TestCaseData checks the cases as data: names unique, every value of a
// version for a field of it, in the canonical form of its kind.
func TestCaseData(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range change.Cases {
		if seen[c.Name] {
			t.Errorf("case %s is listed twice", c.Name)
		}
		seen[c.Name] = true
		for _, v := range []change.Version{c.Old, c.New} {
			for k, val := range v.Data {
				f, ok := v.Field(k)
				if !ok {
					t.Errorf("%s %s: a value for %s, which the version has no field for", c.Name, v.Name, k)
					continue
				}
				if got, want := fmt.Sprintf("%T", val), fmt.Sprintf("%T", change.Zero(f.Kind)); got != want {
					t.Errorf("%s %s: %s holds a %s; want the canonical %s", c.Name, v.Name, k, got, want)
				}
			}
		}
	}
}

// TestCellOf checks how a task's end becomes a cell: a child that died is
// a crash of the kind the supervisor names, in the step it was in; a
// handler's error is a crash too; a cell the child returned is taken as
// it is, under the parent's codec and case.
func TestCellOf(t *testing.T) {
	base := results.MatrixCell{Codec: "json", Case: "rename/old-reads-new", Outcome: NA}
	out, _ := json.Marshal(results.MatrixCell{Codec: "x", Case: "y", Outcome: Loss, Detail: "name: lost"})
	for _, tc := range []struct {
		name   string
		r      worker.TaskResult
		want   results.Outcome
		note   string
		detail string
	}{
		{"died", worker.TaskResult{Exit: &worker.Exit{Kind: "stack overflow", Detail: "goroutine stack exceeds"}, Step: "decode"}, Crash, "stack overflow", `step "decode"`},
		{"failed", worker.TaskResult{Err: "evolve: unknown case"}, Crash, "", "the task failed: evolve: unknown case"},
		{"unreadable", worker.TaskResult{Output: []byte("{")}, Crash, "", "unreadable task output"},
		{"returned", worker.TaskResult{Output: out}, Loss, "", "name: lost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cellOf(base, tc.r)
			if c.Codec != base.Codec || c.Case != base.Case || c.Outcome != tc.want || c.Note != tc.note || !strings.Contains(c.Detail, tc.detail) {
				t.Errorf("cellOf = %+v; want %s %s, outcome %s, note %q, detail with %q", c, base.Codec, base.Case, tc.want, tc.note, tc.detail)
			}
		})
	}
}

// TestGoTypesPlain checks that the generated Go types carry no method a
// reflection codec would call instead of its own code (easyjson's
// MarshalJSON, a text or binary marshaler): the reflection codecs are
// measured, not the generators.
func TestGoTypesPlain(t *testing.T) {
	for _, types := range []map[string]reflect.Type{gov1.Types, gov2.Types} {
		for name, typ := range types {
			p := reflect.PointerTo(typ)
			for _, iface := range []reflect.Type{
				reflect.TypeFor[json.Marshaler](), reflect.TypeFor[json.Unmarshaler](),
				reflect.TypeFor[encoding.TextMarshaler](), reflect.TypeFor[encoding.TextUnmarshaler](),
				reflect.TypeFor[encoding.BinaryMarshaler](), reflect.TypeFor[encoding.BinaryUnmarshaler](),
			} {
				if p.Implements(iface) {
					t.Errorf("%s implements %s: a reflection codec would call it", name, iface)
				}
			}
		}
	}
}

var update = flag.Bool("update", false, "rewrite the participants section of docs/evolution.md")

// TestParticipantsDocumented: docs/evolution.md says which codecs take
// part and why each other one takes none, as WriteParticipants does.
func TestParticipantsDocumented(t *testing.T) {
	const path, begin, end = "../docs/evolution.md", "<!-- participants: go test ./evolve -run TestParticipantsDocumented -update -->\n", "<!-- end participants -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteParticipants(&b); err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(doc), begin), strings.Index(string(doc), end)
	if i < 0 || j < i {
		t.Fatalf("%s has no section between %q and %q", path, begin, end)
	}
	want := string(doc[:i+len(begin)]) + "\n" + b.String() + "\n" + string(doc[j:])
	if want == string(doc) {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's participants are not the study's; run: go test ./evolve -run TestParticipantsDocumented -update", path)
}

// TestGenerated: every case has, for each family that can express it and
// each version, its generated artefact, current with the case's fields; a
// missing or stale one fails naming the command that writes it again.
func TestGenerated(t *testing.T) {
	fieldsOf := func(v change.Version, name func(change.Field) string) []string {
		var out []string
		for _, f := range v.Fields {
			out = append(out, name(f))
		}
		slices.Sort(out)
		return out
	}
	for i := range change.Cases {
		c := &change.Cases[i]
		for _, v := range []change.Version{c.Old, c.New} {
			at := c.Name + " " + v.Name
			if _, na := c.NA[change.GoTypes]; !na {
				typ, err := genType(c, v)
				switch {
				case err != nil:
					t.Errorf("%s: %v", at, err)
				default:
					var got []string
					for k := range typ.NumField() {
						got = append(got, typ.Field(k).Name)
					}
					slices.Sort(got)
					if want := fieldsOf(v, func(f change.Field) string { return change.GoName(f.Name) }); !slices.Equal(got, want) {
						t.Errorf("%s: Go type %s has fields %v, the case %v: stale; run go generate ./evolve/gotypes", at, typ, got, want)
					}
					p := reflect.New(typ).Interface()
					_, m := p.(msgp.Unmarshaler)
					_, e := p.(easyjson.Unmarshaler)
					if !m || !e {
						t.Errorf("%s: %s lacks msgp's or easyjson's methods (msgp %v, easyjson %v); run go generate ./evolve/gotypes", at, typ, m, e)
					}
				}
			}
			if _, na := c.NA[change.Proto]; !na {
				m, err := newMessage(c, v)
				if err != nil {
					t.Errorf("%s: %v", at, err)
				} else {
					var got []string
					fs := m.Descriptor().Fields()
					for k := range fs.Len() {
						got = append(got, string(fs.Get(k).Name()))
					}
					slices.Sort(got)
					if want := fieldsOf(v, func(f change.Field) string { return f.Name }); !slices.Equal(got, want) {
						t.Errorf("%s: message %s has fields %v, the case %v: stale; run go generate ./evolve/pb", at, m.Descriptor().FullName(), got, want)
					}
				}
			}
			if _, na := c.NA[change.FlatBuffers]; !na {
				if _, ok := fbTables(v)[change.TypeName(c.Name)]; !ok {
					t.Errorf("%s: no FlatBuffers table %s; run go generate ./evolve/fb", at, change.TypeName(c.Name))
				}
			}
			if _, na := c.NA[change.CapnProto]; !na {
				if _, ok := capnpStructs(v)[change.TypeName(c.Name)]; !ok {
					t.Errorf("%s: no Cap'n Proto struct %s; run go generate ./evolve/capnproto", at, change.TypeName(c.Name))
				}
			}
		}
	}
}
