# serbench's datasets as Cap'n Proto structs, for the capnp codec.
#
# Pointer fields keep presence: a null Text or struct reads back as a nil Go
# pointer, and an optional Float64 is a union with `none`. Go ints are
# Int64. A time is a Timestamp, the UTC instant in seconds and nanoseconds.
# A map is a list of key-value entries. A top-level slice ([]T or []*T) is
# a TList struct, since a message's root is a struct.

@0xb524ef65605d5be1;

using Go = import "/go.capnp";
$Go.package("schema");
$Go.import("github.com/serbench/serbench/codecs/capnp/schema");

struct Timestamp {
  seconds @0 :Int64;
  nanos @1 :Int32;
}

# The size ladder (seeds 000 and 002).

struct Tiny {
  id @0 :Int64;
  someStr @1 :Text;
}

struct Medium {
  id @0 :Int64;
  firstName @1 :Text;
  lastName @2 :Text;
  moneyBalance :union {
    none @3 :Void;
    value @4 :Float64;
  }
  createdAt @5 :Timestamp;
  tiny @6 :Tiny;
}

struct Big {
  id @0 :Int64;
  age @1 :UInt64;
  country @2 :Text;
  countryData @3 :Data;
  # Big.CountryBytes: capnpc-go already names country's []byte accessor
  # CountryBytes.
  createdAt @4 :Timestamp;
  updatedAt @5 :Timestamp;
  deletedAt @6 :Timestamp;
  tiny @7 :Tiny;
  medium @8 :Medium;
  mediumPtr @9 :Medium;
}

struct Huge {
  bigSlice @0 :List(Big);
  bigPtrSlice @1 :List(Big);
  biggerSlice @2 :List(Big);
  theBiggestSlice @3 :List(Big);
}

struct HugeEntry {
  key @0 :Text;
  value @1 :Huge;
}

struct ComplexMap {
  entries @0 :List(HugeEntry);
}

# The web-service shapes (seed 001).

struct User {
  id @0 :Int64;
  name @1 :Text;
  email @2 :Text;
}

struct Metric {
  timestamp @0 :Float64;
  nameHash @1 :UInt64;
  value @2 :Float64;
}

struct StringEntry {
  key @0 :Text;
  value @1 :Text;
}

struct ComplexData {
  users @0 :List(User);
  metadata @1 :List(StringEntry);
  count @2 :Int64;
  active @3 :Bool;
}

# The game-server message (seed 003).

struct B {
  i2 @0 :Int64;
  str2 @1 :Text;
}

struct BEntry {
  key @0 :Text;
  value @1 :B;
}

struct A {
  i1 @0 :Int64;
  i2 @1 :Int64;
  i3 @2 :Int64;
  i4 @3 :Int64;
  i5 @4 :Int64;
  i6 @5 :Int64;
  i7 @6 :Int64;
  i8 @7 :Int64;
  i9 @8 :Int64;
  i10 @9 :Int64;
  i11 @10 :Int64;
  i12 @11 :Int64;
  i13 @12 :Int64;
  i14 @13 :Int64;
  i15 @14 :Int64;
  str1 @15 :Text;
  b1 @16 :B;
  barr @17 :List(B);
  bmap1 @18 :List(BEntry);
  bmap2 @19 :List(BEntry);
}

# The verification shapes (serbench's edge cases).

struct Edge {
  nilSlice @0 :List(Int32);
  emptySlice @1 :List(Int32);
  nilPtr :union {
    none @2 :Void;
    value @3 :Int64;
  }
  zeroPtr :union {
    none @4 :Void;
    value @5 :Int64;
  }
  zoned @6 :Timestamp;
  zero @7 :Int64;
  minInt @8 :Int64;
  maxUint @9 :UInt64;
  float @10 :Float64;
  text @11 :Text;
  bytes @12 :Data;
}

struct Int32Entry {
  key @0 :Text;
  value @1 :Int32;
}

struct EdgeMaps {
  nilMap @0 :List(Int32Entry);
  emptyMap @1 :List(Int32Entry);
  full @2 :List(Int32Entry);
}

# Top-level slices: the slice and pointer-slice shapes of each dataset.

struct TinyList { items @0 :List(Tiny); }
struct MediumList { items @0 :List(Medium); }
struct BigList { items @0 :List(Big); }
struct HugeList { items @0 :List(Huge); }
struct ComplexMapList { items @0 :List(ComplexMap); }
struct UserList { items @0 :List(User); }
struct MetricList { items @0 :List(Metric); }
struct AList { items @0 :List(A); }
