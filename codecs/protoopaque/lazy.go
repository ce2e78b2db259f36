package protoopaque

import (
	"reflect"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/serbench/serbench/codecs/internal/shapes"
	ls "github.com/serbench/serbench/codecs/protoopaque/lazyschema"
	"github.com/serbench/serbench/dataset"
)

// lazyValues converts a decoded lazy message to the dataset value of each
// type handed to Prepare (*T, *[]T, *[]*T) through the generated getters,
// which decode each lazily kept message field as they first read it: the
// lazy codec's Value, timed with Decode, reads every field as a program
// would.
var lazyValues = func() map[reflect.Type]func(proto.Message) any {
	m := map[reflect.Type]func(proto.Message) any{}
	addLazy(m, tinyFrom, (*ls.TinyList).GetItems)
	addLazy(m, mediumFrom, (*ls.MediumList).GetItems)
	addLazy(m, bigFrom, (*ls.BigList).GetItems)
	addLazy(m, hugeFrom, (*ls.HugeList).GetItems)
	addLazy(m, complexMapFrom, (*ls.ComplexMapList).GetItems)
	addLazy(m, userFrom, (*ls.UserList).GetItems)
	addLazy(m, metricFrom, (*ls.MetricList).GetItems)
	addLazy(m, aFrom, (*ls.AList).GetItems)
	addLazy[dataset.ComplexData, ls.ComplexData, struct{}](m, complexDataFrom, nil)
	addLazy[dataset.Edge, ls.Edge, struct{}](m, edgeFrom, nil)
	addLazy[dataset.EdgeMaps, ls.EdgeMaps, struct{}](m, edgeMapsFrom, nil)
	return m
}()

// addLazy adds the conversions of dataset type T, whose message is *X and
// list message *L (nil items: T has the single shape only).
func addLazy[T, X, L any](m map[reflect.Type]func(proto.Message) any, from func(*X) T, items func(*L) []*X) {
	m[reflect.TypeFor[*T]()] = func(msg proto.Message) any {
		t := from(any(msg).(*X))
		return &t
	}
	if items == nil {
		return
	}
	m[reflect.TypeFor[*[]T]()] = func(msg proto.Message) any {
		s := shapes.SliceFrom(items(any(msg).(*L)), from)
		return &s
	}
	m[reflect.TypeFor[*[]*T]()] = func(msg proto.Message) any {
		s := shapes.PtrSliceFrom(items(any(msg).(*L)), from)
		return &s
	}
}

// opt returns v as a pointer if has, else nil: a proto3 optional field.
func opt[T any](has bool, v T) *T {
	if !has {
		return nil
	}
	return &v
}

func timeFrom(ts *timestamppb.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return ts.AsTime()
}

func tinyFrom(m *ls.Tiny) dataset.Tiny {
	return dataset.Tiny{ID: m.GetTinyId(), SomeStr: m.GetSomeStr()}
}

func mediumFrom(m *ls.Medium) dataset.Medium {
	return dataset.Medium{
		ID: m.GetMediumId(), FirstName: m.GetFirstName(),
		LastName: opt(m.HasLastName(), m.GetLastName()), MoneyBalance: opt(m.HasMoneyBalance(), m.GetMoneyBalance()),
		CreatedAt: timeFrom(m.GetCreatedAt()), Tiny: tinyFrom(m.GetTiny()),
	}
}

func bigFrom(m *ls.Big) dataset.Big {
	return dataset.Big{
		ID: m.GetBigId(), Age: m.GetAge(), Country: opt(m.HasCountry(), m.GetCountry()), CountryBytes: m.GetCountryBytes(),
		CreatedAt: timeFrom(m.GetCreatedAt()), UpdatedAt: timeFrom(m.GetUpdatedAt()), DeletedAt: timeFrom(m.GetDeletedAt()),
		Tiny: tinyFrom(m.GetTiny()), Medium: mediumFrom(m.GetMedium()), MediumPtr: shapes.PtrFrom(m.GetMediumPtr(), mediumFrom),
	}
}

func hugeFrom(m *ls.Huge) dataset.Huge {
	return dataset.Huge{
		BigSlice: shapes.SliceFrom(m.GetBigSlice(), bigFrom), BigPtrSlice: shapes.PtrSliceFrom(m.GetBigPtrSlice(), bigFrom),
		BiggerSlice: shapes.SliceFrom(m.GetBiggerSlice(), bigFrom), TheBiggestSlice: shapes.SliceFrom(m.GetTheBiggestSlice(), bigFrom),
	}
}

func complexMapFrom(m *ls.ComplexMap) dataset.ComplexMap {
	return shapes.MapTo(m.GetItems(), hugeFrom)
}

func userFrom(m *ls.User) dataset.User {
	return dataset.User{ID: int(m.GetId()), Name: m.GetName(), Email: m.GetEmail()}
}

func metricFrom(m *ls.Metric) dataset.Metric {
	return dataset.Metric{Timestamp: m.GetTimestamp(), NameHash: m.GetNameHash(), Value: m.GetValue()}
}

func complexDataFrom(m *ls.ComplexData) dataset.ComplexData {
	return dataset.ComplexData{
		Users: shapes.SliceFrom(m.GetUsers(), userFrom), Metadata: m.GetMetadata(), Count: int(m.GetCount()), Active: m.GetActive(),
	}
}

func bFrom(m *ls.B) dataset.B { return dataset.B{I2: int(m.GetI2()), Str2: m.GetStr2()} }

func aFrom(m *ls.A) dataset.A {
	return dataset.A{
		I1: int(m.GetI1()), I2: int(m.GetI2()), I3: int(m.GetI3()), I4: int(m.GetI4()), I5: int(m.GetI5()),
		I6: int(m.GetI6()), I7: int(m.GetI7()), I8: int(m.GetI8()), I9: int(m.GetI9()), I10: int(m.GetI10()),
		I11: int(m.GetI11()), I12: int(m.GetI12()), I13: int(m.GetI13()), I14: int(m.GetI14()), I15: int(m.GetI15()),
		Str1: m.GetStr1(), B1: shapes.PtrFrom(m.GetB1(), bFrom), Barr: shapes.PtrSliceFrom(m.GetBarr(), bFrom),
		Bmap1: shapes.MapTo(m.GetBmap1(), func(b *ls.B) *dataset.B { return shapes.PtrFrom(b, bFrom) }),
		Bmap2: shapes.MapTo(m.GetBmap2(), bFrom),
	}
}

func edgeFrom(m *ls.Edge) dataset.Edge {
	return dataset.Edge{
		NilSlice: m.GetNilSlice(), EmptySlice: m.GetEmptySlice(),
		NilPtr: opt(m.HasNilPtr(), m.GetNilPtr()), ZeroPtr: opt(m.HasZeroPtr(), m.GetZeroPtr()),
		Zoned: timeFrom(m.GetZoned()), Zero: m.GetZero(), MinInt: m.GetMinInt(), MaxUint: m.GetMaxUint(),
		Float: m.GetFloat(), Text: m.GetText(), Bytes: m.GetBytes(),
	}
}

func edgeMapsFrom(m *ls.EdgeMaps) dataset.EdgeMaps {
	return dataset.EdgeMaps{NilMap: m.GetNilMap(), EmptyMap: m.GetEmptyMap(), Full: m.GetFull()}
}
