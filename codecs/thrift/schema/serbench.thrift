// serbench's datasets as Apache Thrift structs, shared by the thrift-binary
// and thrift-compact codecs.
//
// Go pointers to scalars and to structs become optional fields, so a nil
// pointer stays nil and a set one stays set; lists, maps and binary fields
// are optional too, so a nil one (not written) stays apart from an empty
// one (written with no elements). Thrift has no unsigned integers: a uint64
// travels as the i64 of the same bits. Go ints are i64. Times are a
// Timestamp struct (Unix seconds and nanoseconds: the UTC instant). A
// top-level slice is a List struct with one list field.

namespace go schema

struct Timestamp {
  1: i64 seconds
  2: i32 nanos
}

// The size ladder (seeds 000 and 002).

struct Tiny {
  1: i64 tiny_id
  2: string some_str
}

struct Medium {
  1: i64 medium_id
  2: string first_name
  3: optional string last_name
  4: optional double money_balance
  5: Timestamp created_at
  6: Tiny tiny
}

struct Big {
  1: i64 big_id
  2: i64 age
  3: optional string country
  4: optional binary country_bytes
  5: Timestamp created_at
  6: Timestamp updated_at
  7: Timestamp deleted_at
  8: Tiny tiny
  9: Medium medium
  10: optional Medium medium_ptr
}

struct Huge {
  1: optional list<Big> big_slice
  2: optional list<Big> big_ptr_slice
  3: optional list<Big> bigger_slice
  4: optional list<Big> the_biggest_slice
}

struct ComplexMap {
  1: optional map<string, Huge> items
}

// The web-service shapes (seed 001).

struct User {
  1: i64 id
  2: string name
  3: string email
}

struct Metric {
  1: double timestamp
  2: i64 name_hash
  3: double value
}

struct ComplexData {
  1: optional list<User> users
  2: optional map<string, string> metadata
  3: i64 count
  4: bool active
}

// The game-server message (seed 003).

struct B {
  1: i64 i2
  2: string str2
}

struct A {
  1: i64 i1
  2: i64 i2
  3: i64 i3
  4: i64 i4
  5: i64 i5
  6: i64 i6
  7: i64 i7
  8: i64 i8_ // i8 is a Thrift type name
  9: i64 i9
  10: i64 i10
  11: i64 i11
  12: i64 i12
  13: i64 i13
  14: i64 i14
  15: i64 i15
  16: string str1
  17: optional B b1
  18: optional list<B> barr
  19: optional map<string, B> bmap1
  20: optional map<string, B> bmap2
}

// The verification shapes (serbench's edge cases).

struct Edge {
  1: optional list<i32> nil_slice
  2: optional list<i32> empty_slice
  3: optional i64 nil_ptr
  4: optional i64 zero_ptr
  5: Timestamp zoned
  6: i64 zero
  7: i64 min_int
  8: i64 max_uint
  9: double float_ // float is reserved
  10: string text
  11: optional binary bytes
}

struct EdgeMaps {
  1: optional map<string, i32> nil_map
  2: optional map<string, i32> empty_map
  3: optional map<string, i32> full
}

// Top-level slices: the slice and pointer-slice shapes of each dataset.

struct TinyList { 1: list<Tiny> items }
struct MediumList { 1: list<Medium> items }
struct BigList { 1: list<Big> items }
struct HugeList { 1: list<Huge> items }
struct ComplexMapList { 1: list<ComplexMap> items }
struct UserList { 1: list<User> items }
struct MetricList { 1: list<Metric> items }
struct AList { 1: list<A> items }
