package change

// id is the field every case shares, unchanged: a case's shared field.
var id = Field{Name: "id", Num: 1, Kind: Int64}

// mk returns a case whose versions have id and the fields given, and write
// id 1 and the values given, with what opts add: the whole case, stated in
// one place.
func mk(name, doc string, old, new []Field, oldData, newData Record, opts ...func(*Case)) Case {
	with := func(fs []Field, d Record) ([]Field, Record) {
		r := Record{"id": int64(1)}
		for k, v := range d {
			r[k] = v
		}
		return append([]Field{id}, fs...), r
	}
	c := Case{Name: name, Doc: doc}
	c.Old.Name, c.New.Name = "v1", "v2"
	c.Old.Fields, c.Old.Data = with(old, oldData)
	c.New.Fields, c.New.Data = with(new, newData)
	for _, o := range opts {
		o(&c)
	}
	return c
}

// na says that family cannot express the case, and why.
func na(family, why string) func(*Case) {
	return func(c *Case) {
		if c.NA == nil {
			c.NA = map[string]string{}
		}
		c.NA[family] = why
	}
}

// proto2 makes both versions' Protobuf schemas proto2 (required fields,
// defaults, closed enums).
func proto2(c *Case) { c.Old.Proto2, c.New.Proto2 = true, true }

// reencode makes the reader re-encode what it read, for the writer's
// version to read back.
func reencode(c *Case) { c.Reencode = true }

// buf names the buf breaking-change rules (buf's names, FILE and WIRE
// categories) that flag the change; a change without passes buf.
func buf(rules ...string) func(*Case) { return func(c *Case) { c.Buf = rules } }

// The reasons a family cannot express a case.
const (
	goNoDefault  = "a Go type has no field defaults"
	goNoRequired = "a Go type has no required fields"
	goNoNumbers  = "a Go type has no field numbers"
	goNoZigzag   = "a Go type has no choice of integer encoding"
	goNoEnum     = "a Go type has no enums"
	goNoOneof    = "a Go type has no oneof or union"
	avroNoNumber = "Avro has no field numbers"
	avroNoUint   = "Avro has no unsigned integers"
	avroNoZigzag = "Avro has one integer encoding (zigzag)"
)

// Cases lists the schema changes the study runs, each both ways.
var Cases = func() []Case {
	s := func(name string, num int) Field { return Field{Name: name, Num: num, Kind: String} }
	f := func(name string, num int, k Kind) Field { return Field{Name: name, Num: num, Kind: k} }
	cs := []Case{
		mk("add-optional", "add an optional string field",
			nil, []Field{{Name: "email", Num: 3, Kind: String, Optional: true}},
			nil, Record{"email": "ada@example.org"}),
		mk("add-default", "add an int32 field with a default (7)",
			nil, []Field{{Name: "level", Num: 3, Kind: Int32, Default: 7}},
			nil, Record{"level": int64(3)},
			na(GoTypes, goNoDefault), proto2),
		mk("add-required", "add a required string field",
			nil, []Field{{Name: "email", Num: 3, Kind: String, Required: true}},
			nil, Record{"email": "ada@example.org"},
			na(GoTypes, goNoRequired), proto2, na(CapnProto, capnpNoRequired)),
		mk("add-nested", "add a nested message field",
			nil, []Field{f("inner", 3, Nested)},
			nil, Record{"inner": Inner{ID: 9, Tag: "x"}}),
		mk("remove-optional", "remove an optional string field",
			[]Field{{Name: "email", Num: 3, Kind: String, Optional: true}}, nil,
			Record{"email": "ada@example.org"}, nil,
			buf("FIELD_NO_DELETE")),
		mk("remove-required", "remove a required string field",
			[]Field{{Name: "email", Num: 3, Kind: String, Required: true}}, nil,
			Record{"email": "ada@example.org"}, nil,
			na(GoTypes, goNoRequired), proto2, na(CapnProto, capnpNoRequired), buf("FIELD_NO_DELETE")),
		mk("rename", "rename a string field (name to full_name), same number",
			[]Field{s("name", 2)}, []Field{{Name: "full_name", ID: "name", Num: 2, Kind: String}},
			Record{"name": "Ada"}, Record{"name": "Ada L."},
			buf("FIELD_SAME_NAME", "FIELD_SAME_JSON_NAME")),
		mk("reorder", "reverse the order of three fields, numbers kept",
			[]Field{s("name", 2), f("age", 3, Int32), s("city", 4)},
			[]Field{s("city", 4), f("age", 3, Int32), s("name", 2)},
			Record{"name": "Ada", "age": int64(36), "city": "London"},
			Record{"name": "Bob", "age": int64(41), "city": "Paris"}),
		mk("renumber", "change a field's number (2 to 4), name kept",
			[]Field{s("name", 2)}, []Field{s("name", 4)},
			Record{"name": "Ada"}, Record{"name": "Bob"},
			na(GoTypes, goNoNumbers), na(Avro, avroNoNumber), na(FlatBuffers, "a FlatBuffers field's id is its position among the table's fields"), na(CapnProto, "Cap'n Proto's ordinals are contiguous: a field cannot move to a free number"), buf("FIELD_NO_DELETE")),
		mk("reuse-number", "delete an int32 field and reuse its number for a new string field",
			[]Field{f("code", 3, Int32)}, []Field{s("label", 3)},
			Record{"code": int64(150)}, Record{"label": "hello"},
			buf("FIELD_SAME_NAME", "FIELD_SAME_TYPE", "FIELD_WIRE_COMPATIBLE_TYPE")),
		mk("int32-int64", "widen int32 to int64, values in int32's range",
			[]Field{f("count", 3, Int32)}, []Field{f("count", 3, Int64)},
			Record{"count": int64(-42)}, Record{"count": int64(42)},
			buf("FIELD_SAME_TYPE")),
		mk("int32-int64-big", "widen int32 to int64; the new writer writes 2^33+7, out of int32's range",
			[]Field{f("count", 3, Int32)}, []Field{f("count", 3, Int64)},
			Record{"count": int64(42)}, Record{"count": int64(1)<<33 + 7},
			buf("FIELD_SAME_TYPE")),
		mk("int32-uint32", "int32 to uint32; the old writer writes -5",
			[]Field{f("delta", 3, Int32)}, []Field{f("delta", 3, Uint32)},
			Record{"delta": int64(-5)}, Record{"delta": uint64(7)},
			na(Avro, avroNoUint), buf("FIELD_SAME_TYPE")),
		mk("int32-sint32", "int32 to sint32 (zigzag): the same numbers, another encoding",
			[]Field{f("n", 3, Int32)}, []Field{f("n", 3, Sint32)},
			Record{"n": int64(150)}, Record{"n": int64(150)},
			na(GoTypes, goNoZigzag), na(Avro, avroNoZigzag), na(FlatBuffers, "FlatBuffers has one encoding of an int"), na(CapnProto, "Cap'n Proto has one encoding of an Int32"), buf("FIELD_SAME_TYPE", "FIELD_WIRE_COMPATIBLE_TYPE")),
		mk("int64-double", "int64 to double; the new writer writes 12.5",
			[]Field{f("amount", 3, Int64)}, []Field{f("amount", 3, Double)},
			Record{"amount": int64(12)}, Record{"amount": 12.5},
			buf("FIELD_SAME_TYPE", "FIELD_WIRE_COMPATIBLE_TYPE")),
		mk("bool-int32", "a bool flag to an int32 level (verbose to a verbosity); the new writer writes 2",
			[]Field{f("verbose", 3, Bool)}, []Field{f("verbose", 3, Int32)},
			Record{"verbose": true}, Record{"verbose": int64(2)},
			buf("FIELD_SAME_TYPE", "FIELD_WIRE_JSON_COMPATIBLE_TYPE")),
		mk("string-bytes", "string to bytes, valid UTF-8 both ways",
			[]Field{s("data", 3)}, []Field{f("data", 3, Bytes)},
			Record{"data": "héllo"}, Record{"data": []byte("wörld")},
			buf("FIELD_SAME_TYPE", "FIELD_WIRE_JSON_COMPATIBLE_TYPE")),
		mk("string-bytes-invalid", "string to bytes; the new writer writes bytes that are not UTF-8",
			[]Field{s("data", 3)}, []Field{f("data", 3, Bytes)},
			Record{"data": "ok"}, Record{"data": []byte{0xff, 0xfe, 'a'}},
			buf("FIELD_SAME_TYPE", "FIELD_WIRE_JSON_COMPATIBLE_TYPE")),
		mk("string-repeated", "a string to a repeated string; the new writer writes two",
			[]Field{s("tag", 3)}, []Field{f("tag", 3, Strings)},
			Record{"tag": "a"}, Record{"tag": []string{"b", "c"}},
			buf("FIELD_SAME_CARDINALITY")),
		mk("int32-packed", "an int32 to a packed repeated int32; the new writer writes two",
			[]Field{f("n", 3, Int32)}, []Field{f("n", 3, Int32s)},
			Record{"n": int64(5)}, Record{"n": []int64{6, 7}},
			buf("FIELD_SAME_CARDINALITY")),
		mk("optional-required", "make an optional string field required; the old writer leaves it out",
			[]Field{{Name: "email", Num: 3, Kind: String, Optional: true}},
			[]Field{{Name: "email", Num: 3, Kind: String, Required: true}},
			nil, Record{"email": "bob@example.org"},
			na(GoTypes, goNoRequired), proto2, na(CapnProto, capnpNoRequired), buf("FIELD_SAME_CARDINALITY")),
		mk("into-oneof", "move a string field into a oneof (union) with a new member",
			[]Field{s("email", 3)},
			[]Field{{Name: "email", Num: 3, Kind: String, Oneof: "contact"}, {Name: "phone", Num: 4, Kind: String, Oneof: "contact"}},
			Record{"email": "ada@example.org"}, Record{"email": "bob@example.org"},
			na(GoTypes, goNoOneof), na(FlatBuffers, "a FlatBuffers union is a value of one of several tables, not a choice among fields"), na(CapnProto, "a Cap'n Proto union's members share its storage: moving a field into one is a change of layout its rules forbid"), buf("FIELD_SAME_ONEOF")),
		mk("enum-added", "add an enum value; the new writer writes it",
			[]Field{{Name: "color", Num: 3, Kind: Enum, Symbols: []string{"UNKNOWN", "RED"}}},
			[]Field{{Name: "color", Num: 3, Kind: Enum, Symbols: []string{"UNKNOWN", "RED", "GREEN"}}},
			Record{"color": int64(1)}, Record{"color": int64(2)},
			na(GoTypes, goNoEnum)),
		mk("enum-added-closed", "add an enum value; the new writer writes it (Protobuf: proto2's closed enum)",
			[]Field{{Name: "color", Num: 3, Kind: Enum, Symbols: []string{"UNKNOWN", "RED"}}},
			[]Field{{Name: "color", Num: 3, Kind: Enum, Symbols: []string{"UNKNOWN", "RED", "GREEN"}}},
			Record{"color": int64(1)}, Record{"color": int64(2)},
			na(GoTypes, goNoEnum), proto2),
		mk("enum-removed", "remove an enum value the old writer writes",
			[]Field{{Name: "color", Num: 3, Kind: Enum, Symbols: []string{"UNKNOWN", "RED", "GREEN"}}},
			[]Field{{Name: "color", Num: 3, Kind: Enum, Symbols: []string{"UNKNOWN", "RED"}}},
			Record{"color": int64(2)}, Record{"color": int64(1)},
			na(GoTypes, goNoEnum), buf("ENUM_VALUE_NO_DELETE")),
		mk("map-pairs", "a map<string,int64> to a list of key/value pairs",
			[]Field{f("counts", 3, Map)}, []Field{f("counts", 3, Pairs)},
			Record{"counts": map[string]int64{"a": 1, "b": 2}}, Record{"counts": []Pair{{"c", 3}, {"d", 4}}},
			na(FlatBuffers, "FlatBuffers has no map type"), na(CapnProto, "Cap'n Proto has no map type"), buf("FIELD_SAME_TYPE", "FIELD_SAME_CARDINALITY")),
		mk("default-changed", "change a field's default (7 to 9); neither writer sets it",
			[]Field{{Name: "level", Num: 3, Kind: Int32, Default: 7}},
			[]Field{{Name: "level", Num: 3, Kind: Int32, Default: 9}},
			nil, nil,
			na(GoTypes, goNoDefault), proto2, buf("FIELD_SAME_DEFAULT")),
		mk("string-int", "retype a string field to int64, incompatibly",
			[]Field{s("code", 3)}, []Field{f("code", 3, Int64)},
			Record{"code": "x7"}, Record{"code": int64(7)},
			buf("FIELD_SAME_TYPE", "FIELD_WIRE_COMPATIBLE_TYPE")),
		mk("unknown-kept", "add a field; the old reader re-encodes what it read, and the new reader reads that",
			nil, []Field{{Name: "email", Num: 3, Kind: String, Optional: true}},
			nil, Record{"email": "ada@example.org"},
			reencode),
	}
	return cs
}()

// capnpNoRequired is why Cap'n Proto cannot express a required field.
const capnpNoRequired = "Cap'n Proto has no required fields"
