package interop

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	capnpschema "github.com/serbench/serbench/codecs/capnp/schema"
)

// TestParseSchemas checks what the study reads of a schema file: each
// table's fields in order, their types, optional scalars, and a line it
// cannot read named.
func TestParseSchemas(t *testing.T) {
	fbs, err := parseFBS(`namespace x;
struct Ts { seconds: long; nanos: int; }
table T {
  id: long;            // a comment
  name: string (key);
  ratio: double = null;
  at: Ts;
  kids: [T];
  raw: [ubyte];
}
table L { items: [T]; }`)
	if err != nil {
		t.Fatal(err)
	}
	want := []tableField{
		{Name: "id", Type: fieldType{Base: "long"}},
		{Name: "name", Type: fieldType{Base: "string"}},
		{Name: "ratio", Type: fieldType{Base: "double"}, Optional: true},
		{Name: "at", Type: fieldType{Base: "struct", Ref: "Ts"}},
		{Name: "kids", Type: fieldType{Base: "vector", Elem: &fieldType{Base: "table", Ref: "T"}}},
		{Name: "raw", Type: fieldType{Base: "bytes"}},
	}
	if got := fbs.types["T"].Fields; !reflect.DeepEqual(got, want) {
		t.Errorf("fbs T = %+v, want %+v", got, want)
	}
	if got := len(fbs.types["L"].Fields); got != 1 {
		t.Errorf("fbs L has %d fields, want 1", got)
	}

	cp, err := parseCapnp(`@0xb524ef65605d5be1;
using Go = import "/go.capnp";
$Go.package("schema");
struct Ts { seconds @0 :Int64; nanos @1 :Int32; }
struct T {
  id @0 :Int64;  # a comment
  ratio :union {
    none @1 :Void;
    value @2 :Float64;
  }
  kids @3 :List(T);
  raw @4 :Data;
  at @5 :Ts;
}`)
	if err != nil {
		t.Fatal(err)
	}
	want = []tableField{
		{Name: "id", Type: fieldType{Base: "long"}},
		{Name: "ratio", Type: fieldType{Base: "double"}, Optional: true},
		{Name: "kids", Type: fieldType{Base: "vector", Elem: &fieldType{Base: "table", Ref: "T"}}},
		{Name: "raw", Type: fieldType{Base: "bytes"}},
		{Name: "at", Type: fieldType{Base: "table", Ref: "Ts"}},
	}
	if got := cp.types["T"].Fields; !reflect.DeepEqual(got, want) {
		t.Errorf("capnp T = %+v, want %+v", got, want)
	}

	for _, bad := range []struct {
		parse func(string) (*tableSchema, error)
	}{{parseFBS}, {parseCapnp}} {
		_, err := bad.parse("struct T {\n  enum E { a }\n}")
		if err == nil || !strings.Contains(err.Error(), ":2:") {
			t.Errorf("an unreadable line: %v, want an error naming line 2", err)
		}
	}
}

// TestPeerJSON checks the layout the FlatBuffers peers write structs by:
// serbench.fbs's Timestamp is a long then an int, 16 bytes aligned to 8,
// as flatc lays it out.
func TestPeerJSON(t *testing.T) {
	var got map[string]struct {
		Struct      bool
		Size, Align int
		Fields      []struct {
			Name   string
			Offset int
		}
	}
	if err := json.Unmarshal(flatSchema().peerJSON(), &got); err != nil {
		t.Fatal(err)
	}
	ts := got["Timestamp"]
	if !ts.Struct || ts.Size != 16 || ts.Align != 8 || len(ts.Fields) != 2 || ts.Fields[1].Offset != 8 {
		t.Errorf("Timestamp = %+v, want a struct of 16 bytes aligned to 8, nanos at 8", ts)
	}
	if tiny := got["Tiny"]; tiny.Struct || len(tiny.Fields) != 2 || tiny.Fields[1].Name != "some_str" {
		t.Errorf("Tiny = %+v, want a table of id and some_str", tiny)
	}
}

// TestGeneratedPeerCode checks that the Node Cap'n Proto peer's generated
// classes were generated from the serbench.capnp the Go codec uses: the
// SHA-256 its first line records. CI needs no compiler for this.
func TestGeneratedPeerCode(t *testing.T) {
	b, err := peerFiles.ReadFile("peers/node/serbench.capnp.mjs")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	sum := sha256.Sum256([]byte(capnpschema.Text))
	if !strings.Contains(first, "sha256 "+hex.EncodeToString(sum[:])) {
		t.Errorf("interop/peers/node/serbench.capnp.mjs is stale (%q): codecs/capnp/schema/serbench.capnp changed since; run scripts/gen-peer-code and commit it", first)
	}
}

// TestTableFieldNames checks the order the study maps a dataset type's
// fields to its table's by: each field's schema name is its Go name (case
// and underscores aside), but for the one serbench.capnp renames
// (capnpc-go would name a countryBytes field's accessor as country's
// []byte one).
func TestTableFieldNames(t *testing.T) {
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	var renamed []string
	for _, s := range []*tableSchema{flatSchema(), capnpSchema()} {
		for _, p := range Cases() {
			typ := reflect.TypeOf(p.Value()).Elem()
			tt, ok := s.types[typ.Name()]
			if !ok || typ.Kind() != reflect.Struct {
				continue
			}
			for i, f := range tt.Fields {
				if norm(f.Name) != norm(typ.Field(i).Name) {
					renamed = append(renamed, s.file+" "+tt.Name+"."+f.Name+" for "+typ.Field(i).Name)
				}
			}
		}
	}
	want := []string{"serbench.capnp Big.countryData for CountryBytes"}
	if !reflect.DeepEqual(renamed, want) {
		t.Errorf("fields whose names differ from the Go type's: %q, want %q", renamed, want)
	}
}
