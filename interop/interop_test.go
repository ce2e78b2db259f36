package interop

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/verify"
	"github.com/serbench/serbench/worker"
)

// TestMain pins the local zone as a child does, and makes the test binary
// a study's child when the test starts it so.
func TestMain(m *testing.M) {
	fidelity.PinZone()
	if os.Getenv("SERBENCH_INTEROP_CHILD") == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, nil, Handler); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func childCommand() *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SERBENCH_INTEROP_CHILD=1")
	return cmd
}

// TestValueJSON writes a neutral value of every kind as JSON and reads it
// back.
func TestValueJSON(t *testing.T) {
	off := 19800
	v := Value{Kind: Array, Elems: []Value{
		{Kind: Nil}, {Kind: Bool, Bool: true}, {Kind: Int, Int: new(big.Int).Lsh(big.NewInt(1), 70)},
		{Kind: Float, Bits: math.Float64bits(math.Copysign(0, -1))}, {Kind: Float32, Bits: uint64(math.Float32bits(0.1))},
		{Kind: Num, Bits: math.Float64bits(1 << 53)}, {Kind: Str, Bytes: []byte("a\xffb")}, {Kind: Bytes, Bytes: []byte{}},
		{Kind: Map, Pairs: []Pair{{Value{Kind: Int, Int: big.NewInt(-2)}, Value{Kind: Str, Bytes: []byte{}}}}},
		{Kind: Time, Sec: -62132730894, Nsec: 5, Offset: &off}, {Kind: Time, Sec: 1},
		{Kind: Ext, Type: -1, Bytes: []byte{1}}, {Kind: Tag, TagNum: "1", Elems: []Value{{Kind: Int, Int: big.NewInt(3)}}},
		{Kind: Other, Text: "Decimal('1')"},
	}}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got Value
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if err := verify.Equal(v, got, nil); err != nil {
		t.Errorf("%s read back differs: %v", b, err)
	}
	for _, bad := range []string{`{}`, `{"int":"x"}`, `{"float":"00"}`, `{"nil":true,"bool":true}`, `{"what":1}`} {
		if err := json.Unmarshal([]byte(bad), &got); err == nil {
			t.Errorf("%s read as a neutral value", bad)
		}
	}
}

// TestNeutralInto checks that every case's value comes back from its
// neutral form, through JSON, in every model that can hold it: what Go
// reads of an exact peer is the value itself.
func TestNeutralInto(t *testing.T) {
	for family, m := range Models {
		if m.Schema != "" {
			continue // TestSchemaInto
		}
		for _, p := range Cases() {
			v := p.Value()
			n, err := Neutral(v, m)
			if err != nil {
				var ne notExpressible
				if !errorsAs(err, &ne) {
					t.Errorf("%s %s: %v", family, p.Name, err)
				}
				continue
			}
			b, err := json.Marshal(n)
			if err != nil {
				t.Fatalf("%s %s: %v", family, p.Name, err)
			}
			var back Value
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("%s %s: %v", family, p.Name, err)
			}
			got, err := Into(back, reflect.TypeOf(v).Elem(), m)
			if p.Name == "any-struct" {
				continue // a struct in an any reads back as a map, in Go too
			}
			if err != nil {
				t.Errorf("%s %s: %v", family, p.Name, err)
				continue
			}
			want := reflect.ValueOf(v).Elem().Interface()
			// A value held in an any comes back as the type a decoder
			// into any gives.
			if err := verify.Equal(want, got, []codec.Loss{{Kind: codec.InterfaceTypes}}); err != nil {
				t.Errorf("%s %s: %v", family, p.Name, err)
			}
		}
	}
}

// TestSchemaInto checks that every case a format's schema has a type for
// comes back from its neutral form, through JSON, as the value (but for
// the format's declared losses): what Go gets of an exact peer's reading.
func TestSchemaInto(t *testing.T) {
	losses := []codec.Loss{{Kind: codec.NilEmpty}, {Kind: codec.TimeZone}, {Kind: codec.TimePrecision, Precision: time.Microsecond}}
	for family, m := range Models {
		if m.Schema == "" {
			continue
		}
		bound := 0
		for _, p := range Cases() {
			v := p.Value()
			b, err := m.bind(v)
			if err != nil {
				if !codec.IsUnsupported(err) {
					t.Errorf("%s %s: %v", family, p.Name, err)
				}
				continue
			}
			bound++
			raw, err := json.Marshal(b.want)
			if err != nil {
				t.Fatalf("%s %s: %v", family, p.Name, err)
			}
			var back Value
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatalf("%s %s: %v", family, p.Name, err)
			}
			got, err := b.into(back)
			if err != nil {
				t.Errorf("%s %s: %v", family, p.Name, err)
				continue
			}
			if err := verify.Equal(reflect.ValueOf(v).Elem().Interface(), got, losses); err != nil {
				t.Errorf("%s %s: %v", family, p.Name, err)
			}
		}
		// Every dataset case of the schema's: tiny to edgemaps.
		if bound < 8 {
			t.Errorf("%s: %d cases bound to %s, want the datasets' (8 or more)", family, bound, m.Schema)
		}
	}
}

// TestSameNeutral checks how a peer's reading is compared with the datum
// written where the schema decides the types (Avro).
func TestSameNeutral(t *testing.T) {
	i := func(n int64) Value { return Value{Kind: Int, Int: big.NewInt(n)} }
	s := func(x string) Value { return Value{Kind: Str, Bytes: []byte(x)} }
	num := func(f float64) Value { return Value{Kind: Num, Bits: math.Float64bits(f)} }
	off := 3600
	for _, tc := range []struct {
		want, got Value
		error     string // "" for the same datum; "mismatch" for another kind
	}{
		{i(5), num(5), ""},
		{i(1<<53 + 1), num(1 << 53), "where 9007199254740993 was written"},
		{Value{Kind: Float, Bits: math.Float64bits(0.1)}, num(0.1), ""},
		{Value{Kind: Time, Sec: 10}, Value{Kind: Time, Sec: 10, Offset: &off}, ""},
		{Value{Kind: Time, Sec: 10, Nsec: 1000}, Value{Kind: Time, Sec: 10}, "was written"},
		{Value{Kind: Map, Pairs: []Pair{{s("a"), i(1)}, {s("b"), i(2)}}}, Value{Kind: Map, Pairs: []Pair{{s("b"), i(2)}, {s("a"), i(1)}}}, ""},
		{Value{Kind: Map, Pairs: []Pair{{s("a"), i(1)}}}, Value{Kind: Map, Pairs: []Pair{{s("a"), s("1")}}}, "mismatch"},
		{Value{Kind: Array, Elems: []Value{i(1)}}, Value{Kind: Array, Elems: []Value{}}, "read 0 elements where 1 were written"},
	} {
		err := sameNeutral(tc.want, tc.got, "")
		var mm *mismatch
		switch {
		case tc.error == "" && err != nil:
			t.Errorf("%s read as %s: %v", tc.want, tc.got, err)
		case tc.error == "mismatch" && !errors.As(err, &mm):
			t.Errorf("%s read as %s: %v, want a mismatch", tc.want, tc.got, err)
		case tc.error != "" && tc.error != "mismatch" && (err == nil || !strings.Contains(err.Error(), tc.error)):
			t.Errorf("%s read as %s: %v, want an error with %q", tc.want, tc.got, err, tc.error)
		}
	}
}

func errorsAs(err error, target *notExpressible) bool {
	ne, ok := err.(notExpressible)
	if ok {
		*target = ne
	}
	return ok
}

// TestInto checks what a reading that is not the value written says.
func TestInto(t *testing.T) {
	type I64 struct{ I int64 }
	for _, tc := range []struct {
		read  string
		typ   reflect.Type
		m     Model
		error string // a part of the error; "" for none
		want  any
	}{
		{`{"map":[[{"str":"SQ=="},{"num":"4340000000000000"}]]}`, reflect.TypeFor[I64](), Model{}, "", I64{1 << 53}},
		{`{"map":[[{"str":"SQ=="},{"num":"3ff8000000000000"}]]}`, reflect.TypeFor[I64](), Model{}, "read 1.5 (a JavaScript number) (num) where an integer was written", nil},
		{`{"map":[[{"str":"SQ=="},{"int":"9223372036854775808"}]]}`, reflect.TypeFor[I64](), Model{}, "past a int64", nil},
		{`{"map":[[{"str":"Sg=="},{"int":"1"}]]}`, reflect.TypeFor[I64](), Model{}, "a field \"J\" that was not written", nil},
		{`{"str":"MjAyNC0wNS0wNlQwNzowODowOVo="}`, reflect.TypeFor[time.Time](), Model{TimeText: true}, "", time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)},
		{`{"str":"MjAyNC0wNS0wNlQwNzowODowOVo="}`, reflect.TypeFor[time.Time](), Model{}, "where a time was written", nil},
		{`{"map":[[{"str":"MQ=="},{"str":"YQ=="}]]}`, reflect.TypeFor[map[int]string](), Model{}, `read "1" (str) where an integer was written`, nil},
		{`{"map":[[{"str":"MQ=="},{"str":"YQ=="}]]}`, reflect.TypeFor[map[int]string](), Model{KeysText: true}, "", map[int]string{1: "a"}},
		{`{"str":"AQI="}`, reflect.TypeFor[[]byte](), Model{}, "where bytes was written", nil},
	} {
		var n Value
		if err := json.Unmarshal([]byte(tc.read), &n); err != nil {
			t.Fatal(err)
		}
		got, err := Into(n, tc.typ, tc.m)
		switch {
		case tc.error == "" && err != nil:
			t.Errorf("%s into %s: %v", tc.read, tc.typ, err)
		case tc.error != "" && (err == nil || !strings.Contains(err.Error(), tc.error)):
			t.Errorf("%s into %s: error %v, want one with %q", tc.read, tc.typ, err, tc.error)
		case tc.error == "":
			if err := verify.Equal(tc.want, got, nil); err != nil {
				t.Errorf("%s into %s: %v", tc.read, tc.typ, err)
			}
		}
	}
}

// TestCases checks that the cases are the probes other languages can
// express, chosen by their values, not by name.
func TestCases(t *testing.T) {
	names := fidelity.Names(Cases())
	for _, n := range []string{"uint64-max", "any-2^53+1", "neg-zero", "float32", "nan", "time-offset", "map-int-key", "string-invalid-utf8", "bytes-nil", "bytes-empty", "deep-nesting", "bytes-binary"} {
		if !slices.Contains(names, n) {
			t.Errorf("case %s is missing from %v", n, names)
		}
	}
	// The datasets, but for those of thousands of records and the corpora.
	for _, n := range []string{"dataset-tiny", "dataset-edge", "dataset-edgemaps", "dataset-complexdata"} {
		if !slices.Contains(names, n) {
			t.Errorf("case %s is missing from %v", n, names)
		}
	}
	for _, n := range []string{"cycle", "map-struct-key", "big-int", "json-number", "marshaler", "iface-method", "embedded", "unexported", "reuse", "forward-unknown", "aliasing", "dataset-huge", "dataset-complexmap", "dataset-twitter"} {
		if slices.Contains(names, n) {
			t.Errorf("%s is Go's alone, but is a case", n)
		}
	}
}

// TestColumns checks that the codecs are chosen by what they declare:
// reflection codecs of a format with peers, or any codec of a format
// whose cases cross as its schema's types, never an in-place reader.
func TestColumns(t *testing.T) {
	cols := Columns(registry.Codecs)
	var names []string
	for _, c := range cols {
		names = append(names, c.Name())
		if c.Codec.API != codec.Reflection && Models[c.Codec.Family].Schema == "" || c.Codec.ReadsOnly != "" || c.Peer.Family != c.Codec.Family {
			t.Errorf("column %s: a %s codec of %s with a peer of %s", c.Name(), c.Codec.API, c.Codec.Family, c.Peer.Family)
		}
	}
	for _, n := range []string{"msgpack@python-msgpack", "msgpack@python-msgpack+careful", "msgpack@node-msgpack+careful", "cbor@python-cbor2", "json@node-json",
		"proto@python-protobuf", "vtproto@node-protobufjs", "gogoproto@python-protobuf", "avro@python-fastavro", "goavro@node-avsc+careful",
		"json@java-jackson+careful", "cbor@java-jackson-cbor", "proto@java-protobuf", "goavro@java-avro",
		"thrift-binary@python-thrift", "thrift-compact@python-thrift", "thrift-binary@node-thrift+careful"} {
		if !slices.Contains(names, n) {
			t.Errorf("no column %s", n)
		}
	}
	for _, n := range names {
		if c, p, v := ParseColumn(n); c+"@"+p+map[bool]string{true: "+" + v}[v != ""] != n {
			t.Errorf("ParseColumn(%q) = %q, %q, %q", n, c, p, v)
		}
	}
	if err := Study.Validate(); err != nil {
		t.Error(err)
	}
}

// TestNames checks the errors of names the study cannot run, and that a
// Go codec's name selects its columns and a probe's its directions.
func TestNames(t *testing.T) {
	for _, tc := range []struct {
		opts study.Options
		err  string
	}{
		{study.Options{Codecs: []string{"msgpak"}}, "did you mean msgpack"},
		{study.Options{Codecs: []string{"gob"}}, "interop cannot take gob: no peer in another language reads gob"},
		{study.Options{Codecs: []string{"msgp"}}, "interop cannot take msgp: its codegen API reads its own types"},
		{study.Options{Cases: []string{"cycle"}}, `unknown case "cycle"`},
		{study.Options{Codecs: []string{"msgpack", "cbor@python-cbor2"}, Cases: []string{"neg-zero", "nan/go-reads"}}, ""},
	} {
		err := study.Check(Spec(nil), tc.opts)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: %v, want an error with %q", tc.opts, err, tc.err)
		}
	}
	if _, err := ParseLangs([]string{"python", "cobol"}); err == nil || !strings.Contains(err.Error(), `no language "cobol"`) {
		t.Errorf("ParseLangs(cobol): %v", err)
	}
}

// runColumn runs probes through a column in this process, as a child
// does, and returns the cells, three a probe.
func runColumn(t *testing.T, col string, probes []string) []results.MatrixCell {
	t.Helper()
	cs := &columns{m: map[string]*column{}}
	defer func() {
		for _, st := range cs.m {
			if st.conn != nil {
				st.conn.Close()
			}
		}
	}()
	var cells []results.MatrixCell
	for _, p := range probes {
		for _, d := range Directions {
			cells = append(cells, cs.cell(codec.Info{Name: col}, CaseName(p, d)))
		}
	}
	return cells
}

// TestUnavailable checks that a peer whose install is missing is a
// skipped column naming the command that installs it, not a failure.
func TestUnavailable(t *testing.T) {
	t.Setenv("SERBENCH_PEERS", t.TempDir())
	for col, lang := range map[string]string{"msgpack@python-msgpack": "python", "json@java-jackson+careful": "java"} {
		cells := runColumn(t, col, []string{"neg-zero", "uint64-max"})
		if len(cells) != 6 {
			t.Fatalf("%s: %d cells, want 6", col, len(cells))
		}
		for _, c := range cells {
			if c.Outcome != Skipped || !strings.Contains(c.Detail, "scripts/interop-peers "+lang) {
				t.Errorf("%s %s: %s (%s), want skipped naming scripts/interop-peers %s", col, c.Case, c.Outcome, c.Detail, lang)
			}
		}
	}
}

// required says whether the tests require lang's peers:
// SERBENCH_REQUIRE_PEERS lists the languages scripts/test installs
// ("python,node"), or is "all".
func required(lang Lang) bool {
	env := os.Getenv("SERBENCH_REQUIRE_PEERS")
	return env == "all" || slices.Contains(strings.Split(env, ","), string(lang))
}

// needPeers skips t, naming the command, when lang's peers are missing;
// where the tests require them (required), it fails t instead.
func needPeers(t *testing.T, lang Lang) {
	t.Helper()
	why := RuntimeOf(lang).Missing()
	switch {
	case why != "" && required(lang):
		t.Fatal(why)
	case why != "":
		t.Skip(why)
	}
}

// TestKnownFacts asserts, as cells, what the peers are known to do with
// what Go writes, and Go with what they write, against the pinned peers.
func TestKnownFacts(t *testing.T) {
	type fact struct {
		fact               string
		column, probe, dir string
		want               results.Outcome
		detail             string // a part of the cell's detail or note
	}
	facts := []fact{
		// MessagePack
		{"Python msgpack refuses integer map keys by default (strict_map_key)", "msgpack@python-msgpack", "map-int-key", PeerReads, RefusedPeer, "strict_map_key"},
		{"Python msgpack reads integer map keys with strict_map_key=False", "msgpack@python-msgpack+careful", "map-int-key", PeerReads, SameValue, ""},
		{"Python msgpack cannot write a datetime by default", "msgpack@python-msgpack", "time-utc", GoReads, RefusedPeer, "datetime"},
		{"Python's datetime keeps microseconds", "msgpack@python-msgpack+careful", "time-nanos", PeerReads, Loss, "1µs"},
		{"Python msgpack keeps an int64 exactly", "msgpack@python-msgpack", "int64-min", RoundTrip, SameBytes, ""},
		{"Python msgpack refuses a string that is not UTF-8", "msgpack@python-msgpack", "string-invalid-utf8", PeerReads, RefusedPeer, "UnicodeDecodeError"},
		{"vmihailenco/msgpack refuses a float64 into a float32 field, which Python writes", "msgpack@python-msgpack", "float32", GoReads, RefusedGo, "decoding float32"},
		{"ormsgpack refuses MessagePack timestamps without an ext_hook", "msgpack@python-ormsgpack", "time-utc", PeerReads, RefusedPeer, "ext_hook"},
		{"@msgpack/msgpack reads an integer past 2^53 as a rounded number", "msgpack@node-msgpack", "uint64-max", PeerReads, Changed, "past a uint64"},
		{"@msgpack/msgpack reads it exactly with useBigInt64", "msgpack@node-msgpack+careful", "uint64-max", PeerReads, SameValue, ""},
		{"@msgpack/msgpack turns integer map keys into strings", "msgpack@node-msgpack", "map-int-key", PeerReads, Changed, `read "1" (str) where an integer was written`},
		{"@msgpack/msgpack writes a Map as an empty map", "msgpack@node-msgpack+careful", "map-int-key", GoReads, Changed, "missing"},
		{"@msgpack/msgpack writes -0 as the integer 0", "msgpack@node-msgpack", "neg-zero", GoReads, Changed, "-0"},
		{"JavaScript's Date keeps milliseconds", "msgpack@node-msgpack", "time-nanos", PeerReads, Loss, "1ms"},
		{"@msgpack/msgpack reads bytes that are not UTF-8 as other characters", "msgpack@node-msgpack", "string-invalid-utf8", PeerReads, Changed, `"aÿb"`},
		{"msgpackr reads an integer past 2^53 as a BigInt by default", "msgpack@node-msgpackr", "uint64-max", PeerReads, SameValue, ""},
		{"msgpackr keeps integer map keys in a Map when mapsAsObjects is false", "msgpack@node-msgpackr+careful", "map-int-key", PeerReads, SameValue, ""},
		// CBOR
		{"fxamacker/cbor writes a time as Unix seconds, which Python reads as an int", "cbor@python-cbor2", "time-utc", PeerReads, SameValue, "read as int"},
		{"cbor2 writes a tagged time that fxamacker/cbor reads", "cbor@python-cbor2", "time-utc", GoReads, SameValue, ""},
		{"cbor-x reads integer map keys as strings", "cbor@node-cbor-x", "map-int-key", PeerReads, Changed, "where an integer was written"},
		{"ugorji/go's CBOR refuses the tag 64 (a Uint8Array) cbor-x writes for bytes", "ugorji-cbor@node-cbor-x", "dataset-big", RoundTrip, RefusedGo, "unexpected EOF"},
		{"hashicorp/go-msgpack refuses ormsgpack's RFC 3339 time, though it says it takes a string", "go-msgpack@python-ormsgpack", "dataset-medium", GoReads, RefusedGo, "expecting string"},
		// JSON
		{"Python's json reads Go's -0 as the integer 0", "json@python-json", "neg-zero", PeerReads, Changed, "-0"},
		{"Python's json keeps a uint64 exactly", "json@python-json", "uint64-max", RoundTrip, SameValue, ""},
		{"JSON.parse rounds an integer past 2^53", "json@node-json", "uint64-max", PeerReads, Changed, "past a uint64"},
		{"encoding/json refuses JSON.stringify's rounded int64", "json@node-json", "int64-min", RoundTrip, RefusedGo, "cannot unmarshal number"},
		{"JSON carries a time as RFC 3339 text exactly", "json@node-json", "time-offset", PeerReads, SameValue, ""},
		{"Python's json reads a dataset by its json tags", "json@python-json", "dataset-tiny", PeerReads, SameValue, ""},
		{"encoding/json reads what Python's json writes of it", "json@python-json", "dataset-tiny", GoReads, SameValue, ""},
		// BSON, YAML, TOML
		{"pymongo's bson refuses a string that is not UTF-8", "bson@python-bson", "string-invalid-utf8", PeerReads, RefusedPeer, "utf-8"},
		{"the mongo driver writes integer map keys as strings, as BSON's keys are", "bson@python-bson", "map-int-key", GoReads, SameValue, ""},
		{"go.yaml.in/yaml refuses PyYAML's timestamps (a space, not a T)", "yaml@python-pyyaml", "time-utc", GoReads, RefusedGo, "parsing time"},
		{"PyYAML reads Go's -0 as 0", "yaml@python-pyyaml", "neg-zero", PeerReads, Changed, "-0"},
		{"js-yaml refuses the !!binary Go writes for a string that is not UTF-8", "yaml@node-js-yaml", "string-invalid-utf8", PeerReads, RefusedPeer, "binary"},
		{"smol-toml refuses an integer past 2^53", "go-toml@node-smol-toml", "int64-min", PeerReads, RefusedPeer, "losslessly"},
		{"tomllib keeps microseconds", "go-toml@python-toml", "time-nanos", PeerReads, Loss, "1µs"},
		// Protobuf: the messages of serbench.proto, built by each peer from
		// the descriptor Go's generated code holds.
		{"Python protobuf reads protobuf-go's extremes (int64 min, uint64 max) exactly", "proto@python-protobuf", "dataset-edge", PeerReads, SameValue, ""},
		{"protobuf-go reads what Python protobuf writes", "proto@python-protobuf", "dataset-edge", GoReads, SameValue, ""},
		{"protobufjs reads 64-bit integers exactly (as Long)", "proto@node-protobufjs", "dataset-edge", PeerReads, SameValue, ""},
		{"vtprotobuf reads what protobufjs writes back", "vtproto@node-protobufjs", "dataset-big", RoundTrip, SameValue, ""},
		{"gogo/protobuf reads what Python protobuf writes", "gogoproto@python-protobuf", "dataset-game", GoReads, SameValue, ""},
		// Avro: each case by its self-contained schema of dataset.avsc.
		{"fastavro reads hamba/avro's Edge exactly", "avro@python-fastavro", "dataset-edge", PeerReads, SameValue, ""},
		{"goavro reads fastavro's uint64 as an 8-byte fixed", "goavro@python-fastavro", "dataset-metric", GoReads, SameValue, ""},
		{"avsc refuses a long past 2^53 by default", "avro@node-avsc", "dataset-edge", PeerReads, RefusedPeer, "precision loss"},
		{"avsc reads it with a BigInt LongType", "avro@node-avsc+careful", "dataset-edge", PeerReads, SameValue, ""},
		{"avsc reads a timestamp-micros as its long without a logical type", "avro@node-avsc", "dataset-medium", PeerReads, SameValue, "read as num"},
		// Thrift: each case by its structs of serbench.thrift, as the
		// generated Go code has them, in the protocol the Go codec writes.
		{"Python thrift reads thrift-binary's Edge exactly (i64 extremes, a uint64 as the i64 of its bits)", "thrift-binary@python-thrift", "dataset-edge", PeerReads, SameValue, ""},
		{"Apache Thrift's Go library reads what Python thrift writes (binary)", "thrift-binary@python-thrift", "dataset-edge", GoReads, SameValue, ""},
		{"Python thrift writes back thrift-compact's bytes exactly (TCompactProtocol)", "thrift-compact@python-thrift", "dataset-game", RoundTrip, SameBytes, ""},
		{"Node thrift reads i64 extremes exactly (as node-int64's Int64)", "thrift-binary@node-thrift", "dataset-edge", PeerReads, SameValue, ""},
		{"Node thrift writes an i64 past 2^53 from a number rounded", "thrift-binary@node-thrift", "dataset-metric", GoReads, Changed, "+1234567890123456768"},
		{"Node thrift writes it exactly from a BigInt (fromBigInt)", "thrift-compact@node-thrift+careful", "dataset-metric", GoReads, SameValue, ""},
		// FlatBuffers: each case as its table of serbench.fbs, read and
		// written generically by the peers' Builder and Table.
		{"Python flatbuffers reads the Go codec's Edge exactly (a ulong past 2^63, an optional long)", "flatbuffers@python-flatbuffers", "dataset-edge", PeerReads, SameValue, ""},
		{"the Go FlatBuffers codec reads what Python's Builder writes", "flatbuffers@python-flatbuffers", "dataset-edge", GoReads, SameValue, ""},
		{"Python's Builder writes back the Go codec's bytes of a Medium", "flatbuffers@python-flatbuffers", "dataset-medium", RoundTrip, SameBytes, ""},
		{"Node flatbuffers reads a ulong past 2^53 exactly (as a BigInt)", "flatbuffers@node-flatbuffers", "dataset-metric", PeerReads, SameValue, ""},
		{"the Go FlatBuffers codec reads what Node's Builder writes", "flatbuffers@node-flatbuffers", "dataset-edge", GoReads, SameValue, ""},
		// Cap'n Proto: pycapnp on serbench.capnp, capnp-es on its generated classes.
		{"pycapnp reads the Go codec's Edge exactly (unions of none and value)", "capnp@python-pycapnp", "dataset-edge", PeerReads, SameValue, ""},
		{"the Go Cap'n Proto codec reads what pycapnp writes", "capnp@python-pycapnp", "dataset-edge", GoReads, SameValue, ""},
		{"pycapnp writes back the Go codec's bytes of a Medium", "capnp@python-pycapnp", "dataset-medium", RoundTrip, SameBytes, ""},
		{"capnp-es reads the Go codec's Edge exactly (Int64 and UInt64 as BigInt)", "capnp@node-capnp-es", "dataset-edge", PeerReads, SameValue, ""},
		{"the Go Cap'n Proto codec reads what capnp-es writes", "capnp@node-capnp-es", "dataset-game", GoReads, SameValue, ""},
		// Java: Jackson, protobuf-java's DynamicMessage, Avro's generic datums.
		{"Jackson reads Go's -0 as the integer 0", "json@java-jackson", "neg-zero", PeerReads, Changed, "-0"},
		{"jackson-msgpack reads integer map keys as strings", "msgpack@java-msgpack", "map-int-key", PeerReads, Changed, "where an integer was written"},
		{"jackson-msgpack cannot write a java.time.Instant by default", "msgpack@java-msgpack", "time-utc", GoReads, RefusedPeer, "jsr310"},
		{"with TimestampExtensionModule, Go reads jackson-msgpack's timestamp extension", "msgpack@java-msgpack+careful", "time-utc", GoReads, SameValue, ""},
		{"vmihailenco/msgpack refuses the float64 jackson-msgpack writes into a float32 field", "msgpack@java-msgpack+careful", "float32", RoundTrip, RefusedGo, "decoding float32"},
		{"Jackson keeps a uint64 exactly (as a BigInteger)", "json@java-jackson", "uint64-max", RoundTrip, SameValue, ""},
		{"Jackson's CBOR reads integer map keys as strings", "cbor@java-jackson-cbor", "map-int-key", PeerReads, Changed, "where an integer was written"},
		{"Jackson cannot write a java.time.Instant without jackson-datatype-jsr310", "cbor@java-jackson-cbor", "time-utc", GoReads, RefusedPeer, "jsr310"},
		{"with JavaTimeModule, fxamacker/cbor reads Jackson's ISO-8601 time", "cbor@java-jackson-cbor+careful", "time-utc", GoReads, SameValue, ""},
		{"ugorji/go's CBOR reads Jackson's tag-2 bignum of 2^64-1 as 18688, silently", "ugorji-cbor@java-jackson-cbor", "uint64-max", GoReads, Changed, "+18688"},
		{"fxamacker/cbor reads the same bignum exactly", "cbor@java-jackson-cbor", "uint64-max", GoReads, SameValue, ""},
		{"protobuf-java reads protobuf-go's extremes exactly", "proto@java-protobuf", "dataset-edge", PeerReads, SameValue, ""},
		{"protobuf-go reads what protobuf-java writes", "proto@java-protobuf", "dataset-edge", GoReads, SameValue, ""},
		{"Avro's Java library reads hamba/avro's Edge exactly", "avro@java-avro", "dataset-edge", PeerReads, SameValue, ""},
		{"goavro reads what Avro's Java library writes", "goavro@java-avro", "dataset-metric", GoReads, SameValue, ""},
	}
	byCol := map[string][]fact{}
	var cols []string
	for _, f := range facts {
		if _, ok := byCol[f.column]; !ok {
			cols = append(cols, f.column)
		}
		byCol[f.column] = append(byCol[f.column], f)
	}
	for _, col := range cols {
		_, peerName, _ := ParseColumn(col)
		peer, err := LookupPeer(peerName)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(col, func(t *testing.T) {
			needPeers(t, peer.Lang)
			var probes []string
			for _, f := range byCol[col] {
				if !slices.Contains(probes, f.probe) {
					probes = append(probes, f.probe)
				}
			}
			cells := runColumn(t, col, probes)
			for _, f := range byCol[col] {
				i := slices.IndexFunc(cells, func(c results.MatrixCell) bool { return c.Case == CaseName(f.probe, f.dir) })
				if i < 0 {
					t.Errorf("%s: no cell %s", f.fact, CaseName(f.probe, f.dir))
					continue
				}
				c := cells[i]
				// The same bytes are the same value too: a map's bytes
				// follow Go's random order of its keys.
				same := c.Outcome == f.want || f.want == SameValue && c.Outcome == SameBytes
				if !same || !strings.Contains(c.Note+" "+c.Detail, f.detail) {
					t.Errorf("%s: %s is %s (%s %s); want %s with %q", f.fact, c.Case, c.Outcome, c.Note, c.Detail, f.want, f.detail)
				}
			}
		})
	}
}

// TestRun runs a small study through children of a worker.Pool: a
// column per peer and variant, three cells a probe, a verdict per column,
// each row's language as its facet, and the portability answers in the
// rollup. Without the peers, its columns are skipped.
func TestRun(t *testing.T) {
	pool := &worker.Pool{Command: childCommand, Parallel: 2}
	done := 0
	m, err := study.Run(context.Background(), pool, Spec([]Lang{Python}), study.Options{Codecs: []string{"msgpack"}, Cases: []string{"neg-zero", "map-int-key"},
		Progress: func(int, int, results.MatrixCell) { done++ }})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Codecs) != 4 || len(m.Cases) != 6 || len(m.Cells) != 24 || len(m.Verdicts) != 4 || done != 24 {
		t.Fatalf("%d columns, %d cases, %d cells, %d verdicts, %d progress calls; want 4, 6, 24, 4, 24", len(m.Codecs), len(m.Cases), len(m.Cells), len(m.Verdicts), done)
	}
	for _, c := range m.Codecs {
		if c.Facet != "python" || c.Version == "" {
			t.Errorf("row %s: facet %q, version %q; want python and vmihailenco/msgpack's", c.Name, c.Facet, c.Version)
		}
	}
	answers := Portability(m)
	if len(answers) != 1 || answers[0].Codec != "msgpack" || answers[0].Lang != Python || m.Rollup == nil || len(m.Rollup.Rows) != 1 {
		t.Fatalf("answers %+v, rollup %+v; want one for msgpack and Python", answers, m.Rollup)
	}
	if !required(Python) && RuntimeOf(Python).Missing() != "" {
		if !strings.HasPrefix(answers[0].Answer, "not run: ") {
			t.Errorf("answer %q without the peers, want not run", answers[0].Answer)
		}
		return
	}
	// Python's msgpack refuses int keys by default and reads them when
	// careful.
	if want := "yes, with strict_map_key=False"; !strings.HasPrefix(answers[0].Answer, want) {
		t.Errorf("answer %q, want it to start %q", answers[0].Answer, want)
	}
}

// TestKeyTags checks that a codec's key tags are read from what it
// writes: encoding/json keys by json, fxamacker/cbor by cbor then json,
// a codec that ignores tags by none.
func TestKeyTags(t *testing.T) {
	encoder := func(name string) func(any) ([]byte, error) {
		info, err := registry.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return func(v any) ([]byte, error) {
			cs, err := info.New().Prepare(v)
			if err != nil {
				return nil, err
			}
			return cs.Encode()
		}
	}
	for _, tc := range []struct {
		encode func(any) ([]byte, error)
		want   []string
	}{
		{encoder("json"), []string{"json"}},
		{encoder("cbor"), []string{"cbor", "json"}},
		{encoder("gob"), nil},
		{func(any) ([]byte, error) { return nil, errors.New("no") }, nil},
	} {
		if got := KeyTags(tc.encode); !slices.Equal(got, tc.want) {
			t.Errorf("KeyTags = %q, want %q", got, tc.want)
		}
	}
}

// TestThriftProtocol checks that a Thrift column's peer is told the
// protocol its Go codec writes, found by what the codec writes, and that
// a codec that writes neither protocol's bytes is told none.
func TestThriftProtocol(t *testing.T) {
	for name, want := range map[string]string{"thrift-binary": "binary", "thrift-compact": "compact", "json": ""} {
		info, err := registry.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := thriftProtocol(info); got != want {
			t.Errorf("thriftProtocol(%s) = %q, want %q", name, got, want)
		}
	}
}
