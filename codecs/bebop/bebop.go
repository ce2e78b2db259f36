// Package bebop adapts github.com/200sc/bebop, Bebop's Go compiler and
// runtime: the code bebopc-go generates from schema/serbench.bop, with its
// MarshalBebopTo, Size and UnmarshalBebop methods.
package bebop

import (
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/bebop/schema"
	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/dataset"
)

// Default is the generated MarshalBebopTo and UnmarshalBebop.
var Default = codec.Declare(codec.Info{
	ReusesBuffer: true, // Encode writes into a buffer kept across calls
	Name:         "bebop", Family: "bebop", Label: "200sc/bebop", Module: "github.com/200sc/bebop",
	URL: "https://github.com/200sc/bebop", API: codec.Codegen,
	Adopt:       codec.Adoption{Generator: "bebopc-go (go tool)"},
	Unsupported: codec.TopLevelScalar,
	Losses: []codec.Loss{
		{Kind: codec.TimePrecision, Precision: 100 * time.Nanosecond}, // a Bebop date counts 100 ns ticks
		{Kind: codec.TimeZone}, // and holds the UTC instant
	},
	Omits: dataset.Omits(map[string]string{
		"complexmap":    "serbench.bop covers the size ladder and the web records, not maps of Huge",
		"complexmap5":   "serbench.bop covers the size ladder and the web records, not maps of Huge",
		"complexmapptr": "serbench.bop covers the size ladder and the web records, not maps of Huge",
		"complexdata":   "serbench.bop covers the size ladder and the web records, not ComplexData's map",
		"game":          "serbench.bop covers the size ladder and the web records, not the game message's maps of pointers",
		"edge":          "serbench.bop covers the size ladder and the web records; the edge cases need a definition of their own",
		"edgeportable":  "serbench.bop covers the size ladder and the web records; the edge cases need a definition of their own",
		"edgemaps":      "serbench.bop covers the size ladder and the web records; the edge cases need a definition of their own",
	}),
	// Value converts the generated structs (message fields are pointers)
	// back to the dataset types: the harness's cost.
	ValueConverts: true,
	Notes: "Generated code (bebopc-go, the module's compiler). Medium and Big are Bebop messages, whose optional " +
		"fields keep Go pointers nil or set; times are Bebop dates (100 ns ticks, UTC). Dataset values are converted " +
		"to the generated types when the case is prepared; a buffer sized with Size is kept across messages.",
	New: func() codec.Codec { return codec.Func(prepare) },
})

// A message is a generated Bebop type.
type message interface {
	MarshalBebopTo(buf []byte) int
	UnmarshalBebop(buf []byte) error
	Size() int
}

var structs = shapes.Table[shapes.Binding[message]]{
	Types: []shapes.Type[shapes.Binding[message]]{
		shapes.Bind[message](tinyTo, tinyFrom, list(func(s []schema.Tiny) *schema.TinyList { return &schema.TinyList{Items: s} }), items(func(l *schema.TinyList) []schema.Tiny { return l.Items })),
		shapes.Bind[message](mediumTo, mediumFrom, list(func(s []schema.Medium) *schema.MediumList { return &schema.MediumList{Items: s} }), items(func(l *schema.MediumList) []schema.Medium { return l.Items })),
		shapes.Bind[message](bigTo, bigFrom, list(func(s []schema.Big) *schema.BigList { return &schema.BigList{Items: s} }), items(func(l *schema.BigList) []schema.Big { return l.Items })),
		shapes.Bind[message](hugeTo, hugeFrom, list(func(s []schema.Huge) *schema.HugeList { return &schema.HugeList{Items: s} }), items(func(l *schema.HugeList) []schema.Huge { return l.Items })),
		shapes.Bind[message](userTo, userFrom, list(func(s []schema.User) *schema.UserList { return &schema.UserList{Items: s} }), items(func(l *schema.UserList) []schema.User { return l.Items })),
		shapes.Bind[message](metricTo, metricFrom, list(func(s []schema.Metric) *schema.MetricList { return &schema.MetricList{Items: s} }), items(func(l *schema.MetricList) []schema.Metric { return l.Items })),
	},
	Missing: "serbench.bop has no definition for it",
}

// list adapts a list struct's constructor from values to the pointers
// shapes.Bind hands it.
func list[X, L any](wrap func([]X) *L) func([]*X) *L {
	return func(s []*X) *L { return wrap(vals(s)) }
}

// items adapts a list struct's items from values to pointers.
func items[X, L any](get func(*L) []X) func(*L) []*X {
	return func(l *L) []*X { return ptrs(get(l)) }
}

func vals[X any](s []*X) []X {
	out := make([]X, len(s))
	for i, p := range s {
		if p != nil {
			out[i] = *p
		}
	}
	return out
}

func ptrs[X any](s []X) []*X {
	if s == nil {
		return nil
	}
	out := make([]*X, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

func prepare(v any) (codec.Case, error) {
	return shapes.NewCase(func() (shapes.Binding[message], error) { return structs.Build(v) }, marshal, message.UnmarshalBebop)
}

// marshal sizes m and fills buf, grown to that size.
func marshal(m message, buf []byte) ([]byte, error) {
	n := m.Size()
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	m.MarshalBebopTo(buf)
	return buf, nil
}

// deref returns *p, or the zero value for an unset message field.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func timeFrom(p *time.Time) time.Time { return deref(p).UTC() }

func tinyTo(v *dataset.Tiny) *schema.Tiny { return &schema.Tiny{TinyId: v.ID, SomeStr: v.SomeStr} }

func tinyFrom(m *schema.Tiny) dataset.Tiny { return dataset.Tiny{ID: m.TinyId, SomeStr: m.SomeStr} }

func mediumTo(v *dataset.Medium) *schema.Medium {
	return &schema.Medium{
		MediumId: &v.ID, FirstName: &v.FirstName, LastName: v.LastName, MoneyBalance: v.MoneyBalance,
		CreatedAt: &v.CreatedAt, Tiny: tinyTo(&v.Tiny),
	}
}

func mediumFrom(m *schema.Medium) dataset.Medium {
	return dataset.Medium{
		ID: deref(m.MediumId), FirstName: deref(m.FirstName), LastName: m.LastName, MoneyBalance: m.MoneyBalance,
		CreatedAt: timeFrom(m.CreatedAt), Tiny: tinyFrom(ptrOrZero(m.Tiny)),
	}
}

// ptrOrZero returns p, or a pointer to a zero value for an unset field.
func ptrOrZero[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}

func bigTo(v *dataset.Big) *schema.Big {
	m := &schema.Big{
		BigId: &v.ID, Age: &v.Age, Country: v.Country,
		CreatedAt: &v.CreatedAt, UpdatedAt: &v.UpdatedAt, DeletedAt: &v.DeletedAt,
		Tiny: tinyTo(&v.Tiny), Medium: mediumTo(&v.Medium), MediumPtr: shapes.PtrTo(v.MediumPtr, mediumTo),
	}
	if v.CountryBytes != nil {
		m.CountryBytes = &v.CountryBytes
	}
	return m
}

func bigFrom(m *schema.Big) dataset.Big {
	return dataset.Big{
		ID: deref(m.BigId), Age: deref(m.Age), Country: m.Country, CountryBytes: deref(m.CountryBytes),
		CreatedAt: timeFrom(m.CreatedAt), UpdatedAt: timeFrom(m.UpdatedAt), DeletedAt: timeFrom(m.DeletedAt),
		Tiny: tinyFrom(ptrOrZero(m.Tiny)), Medium: mediumFrom(ptrOrZero(m.Medium)), MediumPtr: shapes.PtrFrom(m.MediumPtr, mediumFrom),
	}
}

func bigsTo(s []dataset.Big) []schema.Big { return vals(shapes.SliceTo(s, bigTo)) }

func hugeTo(v *dataset.Huge) *schema.Huge {
	return &schema.Huge{
		BigSlice: bigsTo(v.BigSlice), BigPtrSlice: vals(shapes.PtrSliceTo(v.BigPtrSlice, bigTo)),
		BiggerSlice: bigsTo(v.BiggerSlice), TheBiggestSlice: bigsTo(v.TheBiggestSlice),
	}
}

func bigsFrom(s []schema.Big) []dataset.Big { return shapes.SliceFrom(ptrs(s), bigFrom) }

func hugeFrom(m *schema.Huge) dataset.Huge {
	return dataset.Huge{
		BigSlice: bigsFrom(m.BigSlice), BigPtrSlice: shapes.PtrSliceFrom(ptrs(m.BigPtrSlice), bigFrom),
		BiggerSlice: bigsFrom(m.BiggerSlice), TheBiggestSlice: bigsFrom(m.TheBiggestSlice),
	}
}

func userTo(v *dataset.User) *schema.User {
	return &schema.User{Id: int64(v.ID), Name: v.Name, Email: v.Email}
}

func userFrom(m *schema.User) dataset.User {
	return dataset.User{ID: int(m.Id), Name: m.Name, Email: m.Email}
}

func metricTo(v *dataset.Metric) *schema.Metric {
	return &schema.Metric{Timestamp: v.Timestamp, NameHash: v.NameHash, Value: v.Value}
}

func metricFrom(m *schema.Metric) dataset.Metric {
	return dataset.Metric{Timestamp: m.Timestamp, NameHash: m.NameHash, Value: m.Value}
}
