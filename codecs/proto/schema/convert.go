package schema

import (
	"errors"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/dataset"
)

// Notes says, for a report, how the dataset values travel as messages.
const Notes = "Dataset values are converted to the generated messages when the case is prepared, outside the timer. " +
	"Go ints travel as int64, *string and *float64 as proto3 optional fields, nested structs as message fields, " +
	"times as google.protobuf.Timestamp (the UTC instant), a top-level slice as a list message. " +
	"Protobuf has no null list or map: empty ones decode as nil."

// Losses is what the messages do not preserve: a repeated or map field
// cannot tell nil from empty, and a Timestamp holds an instant, not a zone.
var Losses = []codec.Loss{{Kind: codec.NilEmpty}, {Kind: codec.TimeZone}}

// Omits lists the datasets serbench.proto has no message for, and why
// (codec.Info.Omits).
var Omits = dataset.Omits(map[string]string{
	"edgeportable": "Edge itself is covered: its uint64 above MaxInt64 travels as a uint64 and its tab in a string field, " +
		"so Edge without them would show nothing more",
})

// A Message is a generated message: protobuf-go's methods and
// vtprotobuf's (features marshal, unmarshal, unmarshal_unsafe, size and
// pool, every message pooled).
type Message interface {
	proto.Message
	MarshalVT() ([]byte, error)
	UnmarshalVT(data []byte) error
	// UnmarshalVTUnsafe decodes strings and bytes that point into data.
	UnmarshalVTUnsafe(data []byte) error
	// ResetVT clears the message for reuse, keeping the capacity of its
	// repeated fields and returning its nested messages to their
	// vtprotobuf pools, which the next UnmarshalVT takes them from.
	ResetVT()
}

// A Binding is a dataset value converted to its message, with what a codec
// needs to decode fresh messages of its type and convert them back.
type Binding = shapes.Binding[Message]

// Bind converts v, a *T, *[]T or *[]*T of a dataset type T, to its message.
// A top-level slice becomes the TList message of T. Bind returns a
// *codec.UnsupportedError when serbench.proto has no message for T.
func Bind(v any) (Binding, error) { return messages.Build(v) }

// messages lists the dataset types serbench.proto has messages for.
var messages = shapes.Table[Binding]{
	Types: []shapes.Type[Binding]{
		shapes.Bind[Message](tinyTo, tinyFrom, func(items []*Tiny) *TinyList { return &TinyList{Items: items} }, (*TinyList).GetItems),
		shapes.Bind[Message](mediumTo, mediumFrom, func(items []*Medium) *MediumList { return &MediumList{Items: items} }, (*MediumList).GetItems),
		shapes.Bind[Message](bigTo, bigFrom, func(items []*Big) *BigList { return &BigList{Items: items} }, (*BigList).GetItems),
		shapes.Bind[Message](hugeTo, hugeFrom, func(items []*Huge) *HugeList { return &HugeList{Items: items} }, (*HugeList).GetItems),
		shapes.Bind[Message](complexMapTo, complexMapFrom, func(items []*ComplexMap) *ComplexMapList { return &ComplexMapList{Items: items} }, (*ComplexMapList).GetItems),
		shapes.Bind[Message](userTo, userFrom, func(items []*User) *UserList { return &UserList{Items: items} }, (*UserList).GetItems),
		shapes.Bind[Message](metricTo, metricFrom, func(items []*Metric) *MetricList { return &MetricList{Items: items} }, (*MetricList).GetItems),
		shapes.Single(shapes.BindSingle[Message](complexDataTo, complexDataFrom)),
		shapes.Bind[Message](aTo, aFrom, func(items []*A) *AList { return &AList{Items: items} }, (*AList).GetItems),
		shapes.Single(shapes.BindSingle[Message](edgeTo, edgeFrom)),
		shapes.Single(shapes.BindSingle[Message](edgeMapsTo, edgeMapsFrom)),
	},
	Missing: "serbench.proto has no message for it",
}

func timeTo(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }

// timeFrom converts a Timestamp back; an absent one is the zero time.
func timeFrom(ts *timestamppb.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return ts.AsTime()
}

func tinyTo(v *dataset.Tiny) *Tiny { return &Tiny{TinyId: v.ID, SomeStr: v.SomeStr} }

func tinyFrom(m *Tiny) dataset.Tiny {
	return dataset.Tiny{ID: m.GetTinyId(), SomeStr: m.GetSomeStr()}
}

func mediumTo(v *dataset.Medium) *Medium {
	return &Medium{
		MediumId: v.ID, FirstName: v.FirstName, LastName: v.LastName, MoneyBalance: v.MoneyBalance,
		CreatedAt: timeTo(v.CreatedAt), Tiny: tinyTo(&v.Tiny),
	}
}

func mediumFrom(m *Medium) dataset.Medium {
	return dataset.Medium{
		ID: m.GetMediumId(), FirstName: m.GetFirstName(), LastName: m.LastName, MoneyBalance: m.MoneyBalance,
		CreatedAt: timeFrom(m.GetCreatedAt()), Tiny: tinyFrom(m.GetTiny()),
	}
}

func bigTo(v *dataset.Big) *Big {
	return &Big{
		BigId: v.ID, Age: v.Age, Country: v.Country, CountryBytes: v.CountryBytes,
		CreatedAt: timeTo(v.CreatedAt), UpdatedAt: timeTo(v.UpdatedAt), DeletedAt: timeTo(v.DeletedAt),
		Tiny: tinyTo(&v.Tiny), Medium: mediumTo(&v.Medium), MediumPtr: shapes.PtrTo(v.MediumPtr, mediumTo),
	}
}

func bigFrom(m *Big) dataset.Big {
	return dataset.Big{
		ID: m.GetBigId(), Age: m.GetAge(), Country: m.Country, CountryBytes: m.GetCountryBytes(),
		CreatedAt: timeFrom(m.GetCreatedAt()), UpdatedAt: timeFrom(m.GetUpdatedAt()), DeletedAt: timeFrom(m.GetDeletedAt()),
		Tiny: tinyFrom(m.GetTiny()), Medium: mediumFrom(m.GetMedium()), MediumPtr: shapes.PtrFrom(m.GetMediumPtr(), mediumFrom),
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
		BigSlice: shapes.SliceFrom(m.GetBigSlice(), bigFrom), BigPtrSlice: shapes.PtrSliceFrom(m.GetBigPtrSlice(), bigFrom),
		BiggerSlice: shapes.SliceFrom(m.GetBiggerSlice(), bigFrom), TheBiggestSlice: shapes.SliceFrom(m.GetTheBiggestSlice(), bigFrom),
	}
}

func complexMapTo(v *dataset.ComplexMap) *ComplexMap {
	return &ComplexMap{Items: shapes.MapTo(*v, func(h dataset.Huge) *Huge { return hugeTo(&h) })}
}

func complexMapFrom(m *ComplexMap) dataset.ComplexMap {
	return shapes.MapTo(m.GetItems(), hugeFrom)
}

func userTo(v *dataset.User) *User {
	return &User{Id: int64(v.ID), Name: v.Name, Email: v.Email}
}

func userFrom(m *User) dataset.User {
	return dataset.User{ID: int(m.GetId()), Name: m.GetName(), Email: m.GetEmail()}
}

func metricTo(v *dataset.Metric) *Metric {
	return &Metric{Timestamp: v.Timestamp, NameHash: v.NameHash, Value: v.Value}
}

func metricFrom(m *Metric) dataset.Metric {
	return dataset.Metric{Timestamp: m.GetTimestamp(), NameHash: m.GetNameHash(), Value: m.GetValue()}
}

func complexDataTo(v *dataset.ComplexData) *ComplexData {
	return &ComplexData{
		Users: shapes.SliceTo(v.Users, userTo), Metadata: v.Metadata, Count: int64(v.Count), Active: v.Active,
	}
}

func complexDataFrom(m *ComplexData) dataset.ComplexData {
	return dataset.ComplexData{
		Users: shapes.SliceFrom(m.GetUsers(), userFrom), Metadata: m.GetMetadata(), Count: int(m.GetCount()), Active: m.GetActive(),
	}
}

func bTo(v *dataset.B) *B { return &B{I2: int64(v.I2), Str2: v.Str2} }

func bFrom(m *B) dataset.B { return dataset.B{I2: int(m.GetI2()), Str2: m.GetStr2()} }

func aTo(v *dataset.A) *A {
	return &A{
		I1: int64(v.I1), I2: int64(v.I2), I3: int64(v.I3), I4: int64(v.I4), I5: int64(v.I5),
		I6: int64(v.I6), I7: int64(v.I7), I8: int64(v.I8), I9: int64(v.I9), I10: int64(v.I10),
		I11: int64(v.I11), I12: int64(v.I12), I13: int64(v.I13), I14: int64(v.I14), I15: int64(v.I15),
		Str1: v.Str1, B1: shapes.PtrTo(v.B1, bTo), Barr: shapes.PtrSliceTo(v.Barr, bTo),
		Bmap1: shapes.MapTo(v.Bmap1, func(b *dataset.B) *B { return shapes.PtrTo(b, bTo) }),
		Bmap2: shapes.MapTo(v.Bmap2, func(b dataset.B) *B { return bTo(&b) }),
	}
}

func aFrom(m *A) dataset.A {
	return dataset.A{
		I1: int(m.GetI1()), I2: int(m.GetI2()), I3: int(m.GetI3()), I4: int(m.GetI4()), I5: int(m.GetI5()),
		I6: int(m.GetI6()), I7: int(m.GetI7()), I8: int(m.GetI8()), I9: int(m.GetI9()), I10: int(m.GetI10()),
		I11: int(m.GetI11()), I12: int(m.GetI12()), I13: int(m.GetI13()), I14: int(m.GetI14()), I15: int(m.GetI15()),
		Str1: m.GetStr1(), B1: shapes.PtrFrom(m.GetB1(), bFrom), Barr: shapes.PtrSliceFrom(m.GetBarr(), bFrom),
		Bmap1: shapes.MapTo(m.GetBmap1(), func(b *B) *dataset.B { return shapes.PtrFrom(b, bFrom) }),
		Bmap2: shapes.MapTo(m.GetBmap2(), bFrom),
	}
}

func edgeTo(v *dataset.Edge) *Edge {
	return &Edge{
		NilSlice: v.NilSlice, EmptySlice: v.EmptySlice, NilPtr: v.NilPtr, ZeroPtr: v.ZeroPtr,
		Zoned: timeTo(v.Zoned), Zero: v.Zero, MinInt: v.MinInt, MaxUint: v.MaxUint,
		Float: v.Float, Text: v.Text, Bytes: v.Bytes,
	}
}

func edgeFrom(m *Edge) dataset.Edge {
	return dataset.Edge{
		NilSlice: m.GetNilSlice(), EmptySlice: m.GetEmptySlice(), NilPtr: m.NilPtr, ZeroPtr: m.ZeroPtr,
		Zoned: timeFrom(m.GetZoned()), Zero: m.GetZero(), MinInt: m.GetMinInt(), MaxUint: m.GetMaxUint(),
		Float: m.GetFloat(), Text: m.GetText(), Bytes: m.GetBytes(),
	}
}

func edgeMapsTo(v *dataset.EdgeMaps) *EdgeMaps {
	return &EdgeMaps{NilMap: v.NilMap, EmptyMap: v.EmptyMap, Full: v.Full}
}

func edgeMapsFrom(m *EdgeMaps) dataset.EdgeMaps {
	return dataset.EdgeMaps{NilMap: m.GetNilMap(), EmptyMap: m.GetEmptyMap(), Full: m.GetFull()}
}

// A Case is a prepared protobuf case, generic over the library's marshal
// and unmarshal functions.
type Case struct {
	b         Binding
	out       Message
	marshal   func(Message) ([]byte, error)
	unmarshal func([]byte, Message) error
}

// NewCase binds v (see Bind) and returns a Case that encodes its message
// with marshal and decodes into a new message with unmarshal.
func NewCase(v any, marshal func(Message) ([]byte, error), unmarshal func([]byte, Message) error) (*Case, error) {
	b, err := Bind(v)
	if err != nil {
		return nil, err
	}
	return &Case{b: b, marshal: marshal, unmarshal: unmarshal}, nil
}

// Encode marshals the prepared message.
func (c *Case) Encode() ([]byte, error) { return c.marshal(c.b.Msg) }

// Decode unmarshals data into a new message.
func (c *Case) Decode(data []byte) error {
	c.out = c.b.New()
	return c.unmarshal(data, c.out)
}

// Value converts the last decoded message back to the dataset type.
func (c *Case) Value() (any, error) {
	if c.out == nil {
		return nil, errors.New("schema: Value called before Decode")
	}
	return c.b.Value(c.out), nil
}
