package capnp

import (
	"errors"
	"math"
	"reflect"

	capnplib "capnproto.org/go/capnp/v3"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/capnp/schema"
	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/dataset"
)

// Default is Cap'n Proto through its generated accessors, unpacked framing.
var Default = codec.Declare(codec.Info{
	Name: "capnp", Family: "capnp", Label: "Cap'n Proto",
	Module: "capnproto.org/go/capnp/v3", URL: "https://capnproto.org/",
	API:         codec.Codegen,
	Adopt:       codec.Adoption{Generator: "capnp, capnpc-go (go tool)"},
	Unsupported: codec.TopLevelScalar,
	Losses:      []codec.Loss{{Kind: codec.TimeZone}},
	Omits: dataset.Omits(map[string]string{
		"edgeportable": "Edge itself is covered: its uint64 above MaxInt64 travels as a UInt64 and its tab in Text, " +
			"so Edge without them would show nothing more",
	}),

	Notes: "Encode builds a message from the Go value with the generated setters, then Message.Marshal (unpacked); " +
		"Decode is Unmarshal plus reading every field with the generated getters into a new Go value " +
		"(the traversal limit is lifted so the large datasets can be read whole). " +
		"Go ints travel as Int64, times as a (seconds, nanos) struct holding the UTC instant, maps as lists of entries, " +
		"a top-level slice as a list struct. Null pointers keep Go's nil pointers, slices and maps; " +
		"a pointer to an empty string would read back nil (capnp stores empty Text as null).",
	New: func() codec.Codec { return codec.Func(prepare) },
})

// structs lists the dataset types serbench.capnp has structs for.
var structs = shapes.Table[codec.Case]{
	Types: []shapes.Type[codec.Case]{
		table[dataset.Tiny, schema.Tiny, schema.TinyList]{
			single:  single[dataset.Tiny, schema.Tiny]{writeTiny, readTiny, schema.NewRootTiny, schema.ReadRootTiny},
			newList: schema.NewRootTinyList, readList: schema.ReadRootTinyList,
			newItems: schema.TinyList.NewItems, items: schema.TinyList.Items,
		}.cases(),
		table[dataset.Medium, schema.Medium, schema.MediumList]{
			single:  single[dataset.Medium, schema.Medium]{writeMedium, readMedium, schema.NewRootMedium, schema.ReadRootMedium},
			newList: schema.NewRootMediumList, readList: schema.ReadRootMediumList,
			newItems: schema.MediumList.NewItems, items: schema.MediumList.Items,
		}.cases(),
		table[dataset.Big, schema.Big, schema.BigList]{
			single:  single[dataset.Big, schema.Big]{writeBig, readBig, schema.NewRootBig, schema.ReadRootBig},
			newList: schema.NewRootBigList, readList: schema.ReadRootBigList,
			newItems: schema.BigList.NewItems, items: schema.BigList.Items,
		}.cases(),
		table[dataset.Huge, schema.Huge, schema.HugeList]{
			single:  single[dataset.Huge, schema.Huge]{writeHuge, readHuge, schema.NewRootHuge, schema.ReadRootHuge},
			newList: schema.NewRootHugeList, readList: schema.ReadRootHugeList,
			newItems: schema.HugeList.NewItems, items: schema.HugeList.Items,
		}.cases(),
		table[dataset.ComplexMap, schema.ComplexMap, schema.ComplexMapList]{
			single:  single[dataset.ComplexMap, schema.ComplexMap]{writeComplexMap, readComplexMap, schema.NewRootComplexMap, schema.ReadRootComplexMap},
			newList: schema.NewRootComplexMapList, readList: schema.ReadRootComplexMapList,
			newItems: schema.ComplexMapList.NewItems, items: schema.ComplexMapList.Items,
		}.cases(),
		table[dataset.User, schema.User, schema.UserList]{
			single:  single[dataset.User, schema.User]{writeUser, readUser, schema.NewRootUser, schema.ReadRootUser},
			newList: schema.NewRootUserList, readList: schema.ReadRootUserList,
			newItems: schema.UserList.NewItems, items: schema.UserList.Items,
		}.cases(),
		table[dataset.Metric, schema.Metric, schema.MetricList]{
			single:  single[dataset.Metric, schema.Metric]{writeMetric, readMetric, schema.NewRootMetric, schema.ReadRootMetric},
			newList: schema.NewRootMetricList, readList: schema.ReadRootMetricList,
			newItems: schema.MetricList.NewItems, items: schema.MetricList.Items,
		}.cases(),
		shapes.Single(single[dataset.ComplexData, schema.ComplexData]{writeComplexData, readComplexData, schema.NewRootComplexData, schema.ReadRootComplexData}.prepare),
		shapes.Single(single[dataset.Edge, schema.Edge]{writeEdge, readEdge, schema.NewRootEdge, schema.ReadRootEdge}.prepare),
		shapes.Single(single[dataset.EdgeMaps, schema.EdgeMaps]{writeEdgeMaps, readEdgeMaps, schema.NewRootEdgeMaps, schema.ReadRootEdgeMaps}.prepare),
		table[dataset.A, schema.A, schema.AList]{
			single:  single[dataset.A, schema.A]{writeA, readA, schema.NewRootA, schema.ReadRootA},
			newList: schema.NewRootAList, readList: schema.ReadRootAList,
			newItems: schema.AList.NewItems, items: schema.AList.Items,
		}.cases(),
	},
	Missing: "serbench.capnp has no struct for it",
}

func prepare(v any) (codec.Case, error) { return structs.Build(v) }

// single ties dataset type T to its generated struct S.
type single[T any, S ~capnplib.StructKind] struct {
	write    func(S, *T) // fills S from a T
	read     func(S) T   // reads every field of S
	newRoot  func(*capnplib.Segment) (S, error)
	readRoot func(*capnplib.Message) (S, error)
}

// prepare returns a case for a *T.
func (s single[T, S]) prepare(p *T) codec.Case {
	return &capCase{
		typ:   reflect.TypeFor[T](),
		build: func(seg *capnplib.Segment) { s.write(must(s.newRoot(seg)), p) },
		read: func(msg *capnplib.Message) any {
			t := s.read(must(s.readRoot(msg)))
			return &t
		},
	}
}

// table ties dataset type T to its struct S and its list struct L, which
// carries the slice shapes.
type table[T any, S ~capnplib.StructKind, L any] struct {
	single   single[T, S]
	newList  func(*capnplib.Segment) (L, error)
	readList func(*capnplib.Message) (L, error)
	newItems func(L, int32) (capnplib.StructList[S], error)
	items    func(L) (capnplib.StructList[S], error)
}

// cases returns the Type of T: its cases for a *T, a *[]T or a *[]*T.
func (t table[T, S, L]) cases() shapes.Type[codec.Case] {
	return shapes.All(t.single.prepare,
		func(p *[]T) codec.Case {
			return &capCase{
				build: func(seg *capnplib.Segment) {
					l := must(t.newList(seg))
					writeList(*p, func(n int32) (capnplib.StructList[S], error) { return t.newItems(l, n) }, t.single.write)
				},
				read: func(msg *capnplib.Message) any {
					l := must(t.readList(msg))
					s := readList(true, func() (capnplib.StructList[S], error) { return t.items(l) }, t.single.read)
					return &s
				},
			}
		},
		func(p *[]*T) codec.Case {
			return &capCase{
				build: func(seg *capnplib.Segment) {
					l := must(t.newList(seg))
					writePtrList(*p, func(n int32) (capnplib.StructList[S], error) { return t.newItems(l, n) }, t.single.write)
				},
				read: func(msg *capnplib.Message) any {
					l := must(t.readList(msg))
					s := readPtrList(true, func() (capnplib.StructList[S], error) { return t.items(l) }, t.single.read)
					return &s
				},
			}
		})
}

// capCase builds a new message per Encode and reads a new value per Decode.
type capCase struct {
	typ   reflect.Type                // the dataset type of a single value, for Reader; nil for a list
	build func(*capnplib.Segment)     // writes the value as the root
	read  func(*capnplib.Message) any // reads a new value, returns a pointer
	out   any
}

func (c *capCase) Encode() (data []byte, err error) {
	defer catch(&err)
	msg, seg, err := capnplib.NewMessage(capnplib.SingleSegment(nil))
	if err != nil {
		return nil, err
	}
	defer msg.Release() // returns the arena to the library's pool
	c.build(seg)
	return msg.Marshal()
}

func (c *capCase) Decode(data []byte) (err error) {
	defer catch(&err)
	c.out = nil
	msg, err := capnplib.Unmarshal(data)
	if err != nil {
		return err
	}
	// The default 64 MiB traversal limit guards servers against
	// amplification; the huge slices exceed it when read whole.
	msg.ResetReadLimit(math.MaxUint64)
	c.out = c.read(msg)
	return nil
}

func (c *capCase) Value() (any, error) {
	if c.out == nil {
		return nil, errors.New("capnp: Value called before a successful Decode")
	}
	return c.out, nil
}

// capnpError carries an error from the generated accessors up to Encode or
// Decode, so the write and read functions need not check every call.
type capnpError struct{ err error }

// must returns v, or unwinds to the enclosing Encode or Decode with err.
func must[T any](v T, err error) T {
	check(err)
	return v
}

// check unwinds to the enclosing Encode or Decode with err, if not nil.
func check(err error) {
	if err != nil {
		panic(capnpError{err})
	}
}

// catch turns the unwinding started by check into *err.
func catch(err *error) {
	if p := recover(); p != nil {
		e, ok := p.(capnpError)
		if !ok {
			panic(p)
		}
		*err = e.err
	}
}
