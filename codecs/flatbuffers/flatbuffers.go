package flatbuffers

import (
	"fmt"
	"reflect"

	fb "github.com/google/flatbuffers/go"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/flatbuffers/schema"
	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/dataset"
)

// Default is FlatBuffers through its generated builders and accessors.
var Default = codec.Declare(codec.Info{
	Name: "flatbuffers", Family: "flatbuffers", Label: "FlatBuffers",
	Module: "github.com/google/flatbuffers", URL: "https://flatbuffers.dev/",
	API:         codec.Codegen,
	Adopt:       codec.Adoption{Generator: "flatc"},
	Unsupported: codec.TopLevelScalar,
	Losses:      []codec.Loss{{Kind: codec.NilEmpty}, {Kind: codec.TimeZone}},
	Omits: dataset.Omits(map[string]string{
		"edgeportable": "Edge itself is covered: its uint64 above MaxInt64 travels as a ulong and its tab in a string, " +
			"so Edge without them would show nothing more",
	}),

	Notes: "Encode builds the buffer from the Go value with the generated builders (one Builder, reset per message); " +
		"Decode reads every field with the generated accessors into a new Go value. " +
		"Go ints travel as longs, times as a (seconds, nanos) struct holding the UTC instant, maps as vectors of entry tables, " +
		"a top-level slice as a list table. Absent strings, tables and optional scalars keep Go's nil pointers; " +
		"the generated Go accessors give a vector's length but not its presence, so an empty slice or map reads back nil.",
	New: func() codec.Codec { return codec.Func(prepare) },

	ReusesBuffer: true, // Encode writes into a buffer kept across calls
})

// tables lists the dataset types serbench.fbs has tables for.
var tables = shapes.Table[codec.Case]{
	Types: []shapes.Type[codec.Case]{
		table[dataset.Tiny, schema.Tiny, *schema.TinyList]{
			single:    single[dataset.Tiny, schema.Tiny]{writeTiny, readTiny, schema.GetRootAsTiny},
			list:      schema.GetRootAsTinyList,
			writeList: listWriter(schema.TinyListStart, schema.TinyListAddItems, schema.TinyListEnd),
		}.cases(),
		table[dataset.Medium, schema.Medium, *schema.MediumList]{
			single:    single[dataset.Medium, schema.Medium]{writeMedium, readMedium, schema.GetRootAsMedium},
			list:      schema.GetRootAsMediumList,
			writeList: listWriter(schema.MediumListStart, schema.MediumListAddItems, schema.MediumListEnd),
		}.cases(),
		table[dataset.Big, schema.Big, *schema.BigList]{
			single:    single[dataset.Big, schema.Big]{writeBig, readBig, schema.GetRootAsBig},
			list:      schema.GetRootAsBigList,
			writeList: listWriter(schema.BigListStart, schema.BigListAddItems, schema.BigListEnd),
		}.cases(),
		table[dataset.Huge, schema.Huge, *schema.HugeList]{
			single:    single[dataset.Huge, schema.Huge]{writeHuge, readHuge, schema.GetRootAsHuge},
			list:      schema.GetRootAsHugeList,
			writeList: listWriter(schema.HugeListStart, schema.HugeListAddItems, schema.HugeListEnd),
		}.cases(),
		table[dataset.ComplexMap, schema.ComplexMap, *schema.ComplexMapList]{
			single:    single[dataset.ComplexMap, schema.ComplexMap]{writeComplexMap, readComplexMap, schema.GetRootAsComplexMap},
			list:      schema.GetRootAsComplexMapList,
			writeList: listWriter(schema.ComplexMapListStart, schema.ComplexMapListAddItems, schema.ComplexMapListEnd),
		}.cases(),
		table[dataset.User, schema.User, *schema.UserList]{
			single:    single[dataset.User, schema.User]{writeUser, readUser, schema.GetRootAsUser},
			list:      schema.GetRootAsUserList,
			writeList: listWriter(schema.UserListStart, schema.UserListAddItems, schema.UserListEnd),
		}.cases(),
		table[dataset.Metric, schema.Metric, *schema.MetricList]{
			single:    single[dataset.Metric, schema.Metric]{writeMetric, readMetric, schema.GetRootAsMetric},
			list:      schema.GetRootAsMetricList,
			writeList: listWriter(schema.MetricListStart, schema.MetricListAddItems, schema.MetricListEnd),
		}.cases(),
		shapes.Single(single[dataset.ComplexData, schema.ComplexData]{writeComplexData, readComplexData, schema.GetRootAsComplexData}.prepare),
		table[dataset.A, schema.A, *schema.AList]{
			single:    single[dataset.A, schema.A]{writeA, readA, schema.GetRootAsA},
			list:      schema.GetRootAsAList,
			writeList: listWriter(schema.AListStart, schema.AListAddItems, schema.AListEnd),
		}.cases(),
		shapes.Single(single[dataset.Edge, schema.Edge]{writeEdge, readEdge, schema.GetRootAsEdge}.prepare),
		shapes.Single(single[dataset.EdgeMaps, schema.EdgeMaps]{writeEdgeMaps, readEdgeMaps, schema.GetRootAsEdgeMaps}.prepare),
	},
	Missing: "serbench.fbs has no table for it",
}

func prepare(v any) (codec.Case, error) { return tables.Build(v) }

// single ties dataset type T to its generated table F.
type single[T, F any] struct {
	write func(*fb.Builder, *T) fb.UOffsetT // builds F from a T
	read  func(*F) T                        // reads every field of F
	root  func([]byte, fb.UOffsetT) *F      // the generated GetRootAsF
}

// prepare returns a case for a *T.
func (s single[T, F]) prepare(p *T) codec.Case {
	c := newCase(func(b *fb.Builder) fb.UOffsetT { return s.write(b, p) }, func(data []byte) any {
		t := s.read(s.root(data, 0))
		return &t
	})
	c.typ = reflect.TypeFor[T]()
	return c
}

// A lister is a generated list table of F: TinyList for Tiny, ...
type lister[F any] interface {
	Items(obj *F, j int) bool
	ItemsLength() int
}

// table ties dataset type T to its table F and its list table L, which
// carries the slice shapes.
type table[T, F any, L lister[F]] struct {
	single    single[T, F]
	list      func([]byte, fb.UOffsetT) L                        // the generated GetRootAsL
	writeList func(b *fb.Builder, items fb.UOffsetT) fb.UOffsetT // builds L
}

// cases returns the Type of T: its cases for a *T, a *[]T or a *[]*T.
func (t table[T, F, L]) cases() shapes.Type[codec.Case] {
	return shapes.All(t.single.prepare,
		func(p *[]T) codec.Case {
			return newCase(func(b *fb.Builder) fb.UOffsetT {
				return t.writeList(b, writeVector(b, *p, t.single.write))
			}, func(data []byte) any {
				l := t.list(data, 0)
				s := readVector(l.ItemsLength(), l.Items, t.single.read)
				return &s
			})
		},
		func(p *[]*T) codec.Case {
			return newCase(func(b *fb.Builder) fb.UOffsetT {
				return t.writeList(b, writePtrVector(b, *p, t.single.write))
			}, func(data []byte) any {
				l := t.list(data, 0)
				s := readPtrVector(l.ItemsLength(), l.Items, t.single.read)
				return &s
			})
		})
}

// listWriter returns a function that builds a list table from the
// generated Start, AddItems and End functions of its type.
func listWriter(start func(*fb.Builder), addItems func(*fb.Builder, fb.UOffsetT), end func(*fb.Builder) fb.UOffsetT) func(*fb.Builder, fb.UOffsetT) fb.UOffsetT {
	return func(b *fb.Builder, items fb.UOffsetT) fb.UOffsetT {
		start(b)
		addItems(b, items)
		return end(b)
	}
}

// fbCase encodes with a Builder kept across calls.
type fbCase struct {
	typ   reflect.Type // the dataset type of a single value, for Reader; nil for a list
	b     *fb.Builder
	build func(*fb.Builder) fb.UOffsetT // writes the value, returns the root
	read  func([]byte) any              // reads a new value, returns a pointer
	out   any
}

func newCase(build func(*fb.Builder) fb.UOffsetT, read func([]byte) any) *fbCase {
	return &fbCase{b: fb.NewBuilder(1024), build: build, read: read}
}

func (c *fbCase) Encode() ([]byte, error) {
	c.b.Reset()
	c.b.Finish(c.build(c.b))
	return c.b.FinishedBytes(), nil
}

// Decode reads data into a new value. The Go library has no verifier and
// panics on a malformed buffer; Decode turns that into an error.
func (c *fbCase) Decode(data []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			c.out, err = nil, fmt.Errorf("flatbuffers: malformed buffer: %v", p)
		}
	}()
	c.out = c.read(data)
	return nil
}

func (c *fbCase) Value() (any, error) { return c.out, nil }
