package schema

import (
	"time"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/dataset"
)

// Notes says, for a report, how the dataset values travel as structs.
const Notes = "Dataset values are converted to the generated structs when the case is prepared, outside the timer. " +
	"Go ints travel as i64, a uint64 as the i64 of the same bits, pointers, lists, maps and binary as optional fields " +
	"(a nil one is not written, so nil and empty stay apart), times as a Timestamp struct of Unix seconds and " +
	"nanoseconds (the UTC instant), a top-level slice as a list struct."

// A Binding is a dataset value converted to its struct.
type Binding = shapes.Binding[thrift.TStruct]

// Bind converts v, a *T, *[]T or *[]*T of a dataset type T, to its struct.
// A top-level slice becomes the TList struct of T. Bind returns a
// *codec.UnsupportedError when serbench.thrift has no struct for T.
func Bind(v any) (Binding, error) { return structs.Build(v) }

var structs = shapes.Table[Binding]{
	Types: []shapes.Type[Binding]{
		shapes.Bind[thrift.TStruct](tinyTo, tinyFrom, func(s []*Tiny) *TinyList { return &TinyList{Items: s} }, (*TinyList).GetItems),
		shapes.Bind[thrift.TStruct](mediumTo, mediumFrom, func(s []*Medium) *MediumList { return &MediumList{Items: s} }, (*MediumList).GetItems),
		shapes.Bind[thrift.TStruct](bigTo, bigFrom, func(s []*Big) *BigList { return &BigList{Items: s} }, (*BigList).GetItems),
		shapes.Bind[thrift.TStruct](hugeTo, hugeFrom, func(s []*Huge) *HugeList { return &HugeList{Items: s} }, (*HugeList).GetItems),
		shapes.Bind[thrift.TStruct](complexMapTo, complexMapFrom, func(s []*ComplexMap) *ComplexMapList { return &ComplexMapList{Items: s} }, (*ComplexMapList).GetItems),
		shapes.Bind[thrift.TStruct](userTo, userFrom, func(s []*User) *UserList { return &UserList{Items: s} }, (*UserList).GetItems),
		shapes.Bind[thrift.TStruct](metricTo, metricFrom, func(s []*Metric) *MetricList { return &MetricList{Items: s} }, (*MetricList).GetItems),
		shapes.Single(shapes.BindSingle[thrift.TStruct](complexDataTo, complexDataFrom)),
		shapes.Bind[thrift.TStruct](aTo, aFrom, func(s []*A) *AList { return &AList{Items: s} }, (*AList).GetItems),
		shapes.Single(shapes.BindSingle[thrift.TStruct](edgeTo, edgeFrom)),
		shapes.Single(shapes.BindSingle[thrift.TStruct](edgeMapsTo, edgeMapsFrom)),
	},
	Missing: "serbench.thrift has no struct for it",
}

func timeTo(t time.Time) *Timestamp {
	return &Timestamp{Seconds: t.Unix(), Nanos: int32(t.Nanosecond())}
}

// timeFrom converts a Timestamp back to the UTC instant; an absent one is
// the zero time.
func timeFrom(ts *Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return time.Unix(ts.Seconds, int64(ts.Nanos)).UTC()
}

// val converts a struct field that holds a Go value (not a pointer): an
// absent one is the zero value.
func val[T, M any](m *M, from func(*M) T) T {
	if m == nil {
		var zero T
		return zero
	}
	return from(m)
}

func tinyTo(v *dataset.Tiny) *Tiny { return &Tiny{TinyID: v.ID, SomeStr: v.SomeStr} }

func tinyFrom(m *Tiny) dataset.Tiny { return dataset.Tiny{ID: m.TinyID, SomeStr: m.SomeStr} }

func mediumTo(v *dataset.Medium) *Medium {
	return &Medium{
		MediumID: v.ID, FirstName: v.FirstName, LastName: v.LastName, MoneyBalance: v.MoneyBalance,
		CreatedAt: timeTo(v.CreatedAt), Tiny: tinyTo(&v.Tiny),
	}
}

func mediumFrom(m *Medium) dataset.Medium {
	return dataset.Medium{
		ID: m.MediumID, FirstName: m.FirstName, LastName: m.LastName, MoneyBalance: m.MoneyBalance,
		CreatedAt: timeFrom(m.CreatedAt), Tiny: val(m.Tiny, tinyFrom),
	}
}

func bigTo(v *dataset.Big) *Big {
	return &Big{
		BigID: v.ID, Age: int64(v.Age), Country: v.Country, CountryBytes: v.CountryBytes,
		CreatedAt: timeTo(v.CreatedAt), UpdatedAt: timeTo(v.UpdatedAt), DeletedAt: timeTo(v.DeletedAt),
		Tiny: tinyTo(&v.Tiny), Medium: mediumTo(&v.Medium), MediumPtr: shapes.PtrTo(v.MediumPtr, mediumTo),
	}
}

func bigFrom(m *Big) dataset.Big {
	return dataset.Big{
		ID: m.BigID, Age: uint64(m.Age), Country: m.Country, CountryBytes: m.CountryBytes,
		CreatedAt: timeFrom(m.CreatedAt), UpdatedAt: timeFrom(m.UpdatedAt), DeletedAt: timeFrom(m.DeletedAt),
		Tiny: val(m.Tiny, tinyFrom), Medium: val(m.Medium, mediumFrom), MediumPtr: shapes.PtrFrom(m.MediumPtr, mediumFrom),
	}
}

func hugeTo(v *dataset.Huge) *Huge {
	return &Huge{
		BigSlice: shapes.SliceTo(v.BigSlice, bigTo), BigPtrSlice: shapes.PtrSliceTo(v.BigPtrSlice, bigTo),
		BiggerSlice: shapes.SliceTo(v.BiggerSlice, bigTo), TheBiggestSlice: shapes.SliceTo(v.TheBiggestSlice, bigTo),
	}
}

func hugeFrom(m *Huge) dataset.Huge {
	return dataset.Huge{
		BigSlice: shapes.SliceFrom(m.BigSlice, bigFrom), BigPtrSlice: shapes.PtrSliceFrom(m.BigPtrSlice, bigFrom),
		BiggerSlice: shapes.SliceFrom(m.BiggerSlice, bigFrom), TheBiggestSlice: shapes.SliceFrom(m.TheBiggestSlice, bigFrom),
	}
}

func complexMapTo(v *dataset.ComplexMap) *ComplexMap {
	return &ComplexMap{Items: shapes.MapTo(*v, func(h dataset.Huge) *Huge { return hugeTo(&h) })}
}

func complexMapFrom(m *ComplexMap) dataset.ComplexMap {
	return shapes.MapTo(m.Items, func(h *Huge) dataset.Huge { return val(h, hugeFrom) })
}

func userTo(v *dataset.User) *User { return &User{ID: int64(v.ID), Name: v.Name, Email: v.Email} }

func userFrom(m *User) dataset.User { return dataset.User{ID: int(m.ID), Name: m.Name, Email: m.Email} }

func metricTo(v *dataset.Metric) *Metric {
	return &Metric{Timestamp: v.Timestamp, NameHash: int64(v.NameHash), Value: v.Value}
}

func metricFrom(m *Metric) dataset.Metric {
	return dataset.Metric{Timestamp: m.Timestamp, NameHash: uint64(m.NameHash), Value: m.Value}
}

func complexDataTo(v *dataset.ComplexData) *ComplexData {
	return &ComplexData{Users: shapes.SliceTo(v.Users, userTo), Metadata: v.Metadata, Count: int64(v.Count), Active: v.Active}
}

func complexDataFrom(m *ComplexData) dataset.ComplexData {
	return dataset.ComplexData{Users: shapes.SliceFrom(m.Users, userFrom), Metadata: m.Metadata, Count: int(m.Count), Active: m.Active}
}

func bTo(v *dataset.B) *B { return &B{I2: int64(v.I2), Str2: v.Str2} }

func bFrom(m *B) dataset.B { return dataset.B{I2: int(m.I2), Str2: m.Str2} }

func aTo(v *dataset.A) *A {
	return &A{
		I1: int64(v.I1), I2: int64(v.I2), I3: int64(v.I3), I4: int64(v.I4), I5: int64(v.I5),
		I6: int64(v.I6), I7: int64(v.I7), I8_: int64(v.I8), I9: int64(v.I9), I10: int64(v.I10),
		I11: int64(v.I11), I12: int64(v.I12), I13: int64(v.I13), I14: int64(v.I14), I15: int64(v.I15),
		Str1: v.Str1, B1: shapes.PtrTo(v.B1, bTo), Barr: shapes.PtrSliceTo(v.Barr, bTo),
		Bmap1: shapes.MapTo(v.Bmap1, func(b *dataset.B) *B { return shapes.PtrTo(b, bTo) }),
		Bmap2: shapes.MapTo(v.Bmap2, func(b dataset.B) *B { return bTo(&b) }),
	}
}

func aFrom(m *A) dataset.A {
	return dataset.A{
		I1: int(m.I1), I2: int(m.I2), I3: int(m.I3), I4: int(m.I4), I5: int(m.I5),
		I6: int(m.I6), I7: int(m.I7), I8: int(m.I8_), I9: int(m.I9), I10: int(m.I10),
		I11: int(m.I11), I12: int(m.I12), I13: int(m.I13), I14: int(m.I14), I15: int(m.I15),
		Str1: m.Str1, B1: shapes.PtrFrom(m.B1, bFrom), Barr: shapes.PtrSliceFrom(m.Barr, bFrom),
		Bmap1: shapes.MapTo(m.Bmap1, func(b *B) *dataset.B { return shapes.PtrFrom(b, bFrom) }),
		Bmap2: shapes.MapTo(m.Bmap2, func(b *B) dataset.B { return val(b, bFrom) }),
	}
}

func edgeTo(v *dataset.Edge) *Edge {
	return &Edge{
		NilSlice: v.NilSlice, EmptySlice: v.EmptySlice, NilPtr: v.NilPtr, ZeroPtr: v.ZeroPtr,
		Zoned: timeTo(v.Zoned), Zero: v.Zero, MinInt: v.MinInt, MaxUint: int64(v.MaxUint),
		Float_: v.Float, Text: v.Text, Bytes: v.Bytes,
	}
}

func edgeFrom(m *Edge) dataset.Edge {
	return dataset.Edge{
		NilSlice: m.NilSlice, EmptySlice: m.EmptySlice, NilPtr: m.NilPtr, ZeroPtr: m.ZeroPtr,
		Zoned: timeFrom(m.Zoned), Zero: m.Zero, MinInt: m.MinInt, MaxUint: uint64(m.MaxUint),
		Float: m.Float_, Text: m.Text, Bytes: m.Bytes,
	}
}

func edgeMapsTo(v *dataset.EdgeMaps) *EdgeMaps {
	return &EdgeMaps{NilMap: v.NilMap, EmptyMap: v.EmptyMap, Full: v.Full}
}

func edgeMapsFrom(m *EdgeMaps) dataset.EdgeMaps {
	return dataset.EdgeMaps{NilMap: m.NilMap, EmptyMap: m.EmptyMap, Full: m.Full}
}
