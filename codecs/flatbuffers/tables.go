package flatbuffers

import (
	"maps"
	"slices"
	"time"

	fb "github.com/google/flatbuffers/go"

	"github.com/serbench/serbench/codecs/flatbuffers/schema"
	"github.com/serbench/serbench/dataset"
)

// The write functions build a table from a dataset value and return its
// offset. FlatBuffers builds children before their parent, so each first
// writes the strings, vectors and tables it refers to, then the table.
// An offset of 0 means absent: the generated Add functions skip it.
//
// The read functions read every field of a table into a new dataset value.

// str writes s, or nothing for "".
func str(b *fb.Builder, s string) fb.UOffsetT {
	if s == "" {
		return 0
	}
	return b.CreateString(s)
}

// strPtr writes *p, or nothing for nil.
func strPtr(b *fb.Builder, p *string) fb.UOffsetT {
	if p == nil {
		return 0
	}
	return b.CreateString(*p)
}

// readStrPtr returns a pointer to a copy of s, or nil for an absent string.
func readStrPtr(s []byte) *string {
	if s == nil {
		return nil
	}
	v := string(s)
	return &v
}

// byteVector writes p; a nil p is absent, an empty one an empty vector.
func byteVector(b *fb.Builder, p []byte) fb.UOffsetT {
	if p == nil {
		return 0
	}
	return b.CreateByteVector(p)
}

// readBytes copies a byte vector out of the buffer, which the accessor
// aliases; an absent vector is nil.
func readBytes(p []byte) []byte {
	if p == nil {
		return nil
	}
	return append([]byte{}, p...)
}

func timestamp(b *fb.Builder, t time.Time) fb.UOffsetT {
	return schema.CreateTimestamp(b, t.Unix(), int32(t.Nanosecond()))
}

// readTime reads a Timestamp as a UTC time; an absent one is the zero time.
func readTime(ts *schema.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return time.Unix(ts.Seconds(), int64(ts.Nanos())).UTC()
}

// vector writes a vector of table offsets, or nothing when it is empty.
func vector(b *fb.Builder, offs []fb.UOffsetT) fb.UOffsetT {
	if len(offs) == 0 {
		return 0
	}
	b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}

// writeVector writes a vector of tables, one per element of s.
func writeVector[T any](b *fb.Builder, s []T, write func(*fb.Builder, *T) fb.UOffsetT) fb.UOffsetT {
	if len(s) == 0 {
		return 0
	}
	offs := make([]fb.UOffsetT, len(s))
	for i := range s {
		offs[i] = write(b, &s[i])
	}
	return vector(b, offs)
}

// writePtrVector writes a vector of tables from pointers. A vector of
// tables has no nil element: a nil pointer is written as an empty table.
func writePtrVector[T any](b *fb.Builder, s []*T, write func(*fb.Builder, *T) fb.UOffsetT) fb.UOffsetT {
	if len(s) == 0 {
		return 0
	}
	offs := make([]fb.UOffsetT, len(s))
	for i, p := range s {
		if p == nil {
			p = new(T)
		}
		offs[i] = write(b, p)
	}
	return vector(b, offs)
}

// readVector reads n tables with at (a generated vector accessor) into a
// new slice; an empty or absent vector reads as nil.
func readVector[T, F any](n int, at func(*F, int) bool, read func(*F) T) []T {
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	var f F
	for j := range out {
		at(&f, j)
		out[j] = read(&f)
	}
	return out
}

// readPtrVector is readVector for a slice of pointers.
func readPtrVector[T, F any](n int, at func(*F, int) bool, read func(*F) T) []*T {
	if n == 0 {
		return nil
	}
	out := make([]*T, n)
	var f F
	for j := range out {
		at(&f, j)
		t := read(&f)
		out[j] = &t
	}
	return out
}

// writeMap writes a map as a vector of entry tables built by entry, sorted
// by key as the schema's (key) attribute asks. The order also makes the
// encoding deterministic: in Go's map order, string padding would vary the
// size from one message to the next.
func writeMap[V any](b *fb.Builder, m map[string]V, entry func(b *fb.Builder, key string, v V) fb.UOffsetT) fb.UOffsetT {
	if len(m) == 0 {
		return 0
	}
	offs := make([]fb.UOffsetT, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		offs = append(offs, entry(b, k, m[k]))
	}
	return vector(b, offs)
}

// readMap reads n entry tables with at into a new map; an empty or absent
// vector reads as nil.
func readMap[V, E any](n int, at func(*E, int) bool, read func(*E) (string, V)) map[string]V {
	if n == 0 {
		return nil
	}
	out := make(map[string]V, n)
	var e E
	for j := range n {
		at(&e, j)
		k, v := read(&e)
		out[k] = v
	}
	return out
}

func writeTiny(b *fb.Builder, v *dataset.Tiny) fb.UOffsetT {
	s := str(b, v.SomeStr)
	schema.TinyStart(b)
	schema.TinyAddId(b, v.ID)
	schema.TinyAddSomeStr(b, s)
	return schema.TinyEnd(b)
}

// readTiny reads a Tiny; an absent one is the zero Tiny.
func readTiny(t *schema.Tiny) dataset.Tiny {
	if t == nil {
		return dataset.Tiny{}
	}
	return dataset.Tiny{ID: t.Id(), SomeStr: string(t.SomeStr())}
}

func writeMedium(b *fb.Builder, v *dataset.Medium) fb.UOffsetT {
	first, last := str(b, v.FirstName), strPtr(b, v.LastName)
	tiny := writeTiny(b, &v.Tiny)
	schema.MediumStart(b)
	schema.MediumAddId(b, v.ID)
	schema.MediumAddFirstName(b, first)
	schema.MediumAddLastName(b, last)
	if v.MoneyBalance != nil {
		schema.MediumAddMoneyBalance(b, *v.MoneyBalance)
	}
	schema.MediumAddCreatedAt(b, timestamp(b, v.CreatedAt))
	schema.MediumAddTiny(b, tiny)
	return schema.MediumEnd(b)
}

// readMedium reads a Medium; an absent one is the zero Medium.
func readMedium(t *schema.Medium) dataset.Medium {
	if t == nil {
		return dataset.Medium{}
	}
	var ts schema.Timestamp
	var tiny schema.Tiny
	return dataset.Medium{
		ID: t.Id(), FirstName: string(t.FirstName()), LastName: readStrPtr(t.LastName()),
		MoneyBalance: t.MoneyBalance(), CreatedAt: readTime(t.CreatedAt(&ts)), Tiny: readTiny(t.Tiny(&tiny)),
	}
}

func writeBig(b *fb.Builder, v *dataset.Big) fb.UOffsetT {
	country, countryBytes := strPtr(b, v.Country), byteVector(b, v.CountryBytes)
	tiny, medium := writeTiny(b, &v.Tiny), writeMedium(b, &v.Medium)
	var mediumPtr fb.UOffsetT
	if v.MediumPtr != nil {
		mediumPtr = writeMedium(b, v.MediumPtr)
	}
	schema.BigStart(b)
	schema.BigAddId(b, v.ID)
	schema.BigAddAge(b, v.Age)
	schema.BigAddCountry(b, country)
	schema.BigAddCountryBytes(b, countryBytes)
	schema.BigAddCreatedAt(b, timestamp(b, v.CreatedAt))
	schema.BigAddUpdatedAt(b, timestamp(b, v.UpdatedAt))
	schema.BigAddDeletedAt(b, timestamp(b, v.DeletedAt))
	schema.BigAddTiny(b, tiny)
	schema.BigAddMedium(b, medium)
	schema.BigAddMediumPtr(b, mediumPtr)
	return schema.BigEnd(b)
}

func readBig(t *schema.Big) dataset.Big {
	var ts schema.Timestamp
	var tiny schema.Tiny
	var medium schema.Medium
	v := dataset.Big{
		ID: t.Id(), Age: t.Age(), Country: readStrPtr(t.Country()),
		CreatedAt: readTime(t.CreatedAt(&ts)), UpdatedAt: readTime(t.UpdatedAt(&ts)), DeletedAt: readTime(t.DeletedAt(&ts)),
		Tiny: readTiny(t.Tiny(&tiny)), Medium: readMedium(t.Medium(&medium)),
	}
	v.CountryBytes = readBytes(t.CountryBytesBytes())
	if mp := t.MediumPtr(&medium); mp != nil {
		m := readMedium(mp)
		v.MediumPtr = &m
	}
	return v
}

func writeHuge(b *fb.Builder, v *dataset.Huge) fb.UOffsetT {
	bigSlice := writeVector(b, v.BigSlice, writeBig)
	bigPtrSlice := writePtrVector(b, v.BigPtrSlice, writeBig)
	biggerSlice := writeVector(b, v.BiggerSlice, writeBig)
	theBiggestSlice := writeVector(b, v.TheBiggestSlice, writeBig)
	schema.HugeStart(b)
	schema.HugeAddBigSlice(b, bigSlice)
	schema.HugeAddBigPtrSlice(b, bigPtrSlice)
	schema.HugeAddBiggerSlice(b, biggerSlice)
	schema.HugeAddTheBiggestSlice(b, theBiggestSlice)
	return schema.HugeEnd(b)
}

// readHuge reads a Huge; an absent one is the zero Huge.
func readHuge(t *schema.Huge) dataset.Huge {
	if t == nil {
		return dataset.Huge{}
	}
	return dataset.Huge{
		BigSlice:        readVector(t.BigSliceLength(), t.BigSlice, readBig),
		BigPtrSlice:     readPtrVector(t.BigPtrSliceLength(), t.BigPtrSlice, readBig),
		BiggerSlice:     readVector(t.BiggerSliceLength(), t.BiggerSlice, readBig),
		TheBiggestSlice: readVector(t.TheBiggestSliceLength(), t.TheBiggestSlice, readBig),
	}
}

func writeComplexMap(b *fb.Builder, v *dataset.ComplexMap) fb.UOffsetT {
	entries := writeMap(b, *v, func(b *fb.Builder, k string, h dataset.Huge) fb.UOffsetT {
		key, value := b.CreateString(k), writeHuge(b, &h)
		schema.HugeEntryStart(b)
		schema.HugeEntryAddKey(b, key)
		schema.HugeEntryAddValue(b, value)
		return schema.HugeEntryEnd(b)
	})
	schema.ComplexMapStart(b)
	schema.ComplexMapAddEntries(b, entries)
	return schema.ComplexMapEnd(b)
}

func readComplexMap(t *schema.ComplexMap) dataset.ComplexMap {
	var h schema.Huge
	return readMap(t.EntriesLength(), t.Entries, func(e *schema.HugeEntry) (string, dataset.Huge) {
		return string(e.Key()), readHuge(e.Value(&h))
	})
}

func writeUser(b *fb.Builder, v *dataset.User) fb.UOffsetT {
	name, email := str(b, v.Name), str(b, v.Email)
	schema.UserStart(b)
	schema.UserAddId(b, int64(v.ID))
	schema.UserAddName(b, name)
	schema.UserAddEmail(b, email)
	return schema.UserEnd(b)
}

func readUser(t *schema.User) dataset.User {
	return dataset.User{ID: int(t.Id()), Name: string(t.Name()), Email: string(t.Email())}
}

func writeMetric(b *fb.Builder, v *dataset.Metric) fb.UOffsetT {
	schema.MetricStart(b)
	schema.MetricAddTimestamp(b, v.Timestamp)
	schema.MetricAddNameHash(b, v.NameHash)
	schema.MetricAddValue(b, v.Value)
	return schema.MetricEnd(b)
}

func readMetric(t *schema.Metric) dataset.Metric {
	return dataset.Metric{Timestamp: t.Timestamp(), NameHash: t.NameHash(), Value: t.Value()}
}

func writeComplexData(b *fb.Builder, v *dataset.ComplexData) fb.UOffsetT {
	users := writeVector(b, v.Users, writeUser)
	metadata := writeMap(b, v.Metadata, func(b *fb.Builder, k, val string) fb.UOffsetT {
		key, value := b.CreateString(k), str(b, val)
		schema.StringEntryStart(b)
		schema.StringEntryAddKey(b, key)
		schema.StringEntryAddValue(b, value)
		return schema.StringEntryEnd(b)
	})
	schema.ComplexDataStart(b)
	schema.ComplexDataAddUsers(b, users)
	schema.ComplexDataAddMetadata(b, metadata)
	schema.ComplexDataAddCount(b, int64(v.Count))
	schema.ComplexDataAddActive(b, v.Active)
	return schema.ComplexDataEnd(b)
}

func readComplexData(t *schema.ComplexData) dataset.ComplexData {
	return dataset.ComplexData{
		Users: readVector(t.UsersLength(), t.Users, readUser),
		Metadata: readMap(t.MetadataLength(), t.Metadata, func(e *schema.StringEntry) (string, string) {
			return string(e.Key()), string(e.Value())
		}),
		Count: int(t.Count()), Active: t.Active(),
	}
}

func writeB(b *fb.Builder, v *dataset.B) fb.UOffsetT {
	s := str(b, v.Str2)
	schema.BStart(b)
	schema.BAddI2(b, int64(v.I2))
	schema.BAddStr2(b, s)
	return schema.BEnd(b)
}

func readB(t *schema.B) dataset.B { return dataset.B{I2: int(t.I2()), Str2: string(t.Str2())} }

// writeBEntry writes a map entry whose value is a B; a nil value is absent.
func writeBEntry(b *fb.Builder, k string, v *dataset.B) fb.UOffsetT {
	key := b.CreateString(k)
	var value fb.UOffsetT
	if v != nil {
		value = writeB(b, v)
	}
	schema.BEntryStart(b)
	schema.BEntryAddKey(b, key)
	schema.BEntryAddValue(b, value)
	return schema.BEntryEnd(b)
}

func writeA(b *fb.Builder, v *dataset.A) fb.UOffsetT {
	str1 := str(b, v.Str1)
	var b1 fb.UOffsetT
	if v.B1 != nil {
		b1 = writeB(b, v.B1)
	}
	barr := writePtrVector(b, v.Barr, writeB)
	bmap1 := writeMap(b, v.Bmap1, writeBEntry)
	bmap2 := writeMap(b, v.Bmap2, func(b *fb.Builder, k string, v dataset.B) fb.UOffsetT { return writeBEntry(b, k, &v) })
	schema.AStart(b)
	schema.AAddI1(b, int64(v.I1))
	schema.AAddI2(b, int64(v.I2))
	schema.AAddI3(b, int64(v.I3))
	schema.AAddI4(b, int64(v.I4))
	schema.AAddI5(b, int64(v.I5))
	schema.AAddI6(b, int64(v.I6))
	schema.AAddI7(b, int64(v.I7))
	schema.AAddI8(b, int64(v.I8))
	schema.AAddI9(b, int64(v.I9))
	schema.AAddI10(b, int64(v.I10))
	schema.AAddI11(b, int64(v.I11))
	schema.AAddI12(b, int64(v.I12))
	schema.AAddI13(b, int64(v.I13))
	schema.AAddI14(b, int64(v.I14))
	schema.AAddI15(b, int64(v.I15))
	schema.AAddStr1(b, str1)
	schema.AAddB1(b, b1)
	schema.AAddBarr(b, barr)
	schema.AAddBmap1(b, bmap1)
	schema.AAddBmap2(b, bmap2)
	return schema.AEnd(b)
}

func readA(t *schema.A) dataset.A {
	var bt schema.B
	v := dataset.A{
		I1: int(t.I1()), I2: int(t.I2()), I3: int(t.I3()), I4: int(t.I4()), I5: int(t.I5()),
		I6: int(t.I6()), I7: int(t.I7()), I8: int(t.I8()), I9: int(t.I9()), I10: int(t.I10()),
		I11: int(t.I11()), I12: int(t.I12()), I13: int(t.I13()), I14: int(t.I14()), I15: int(t.I15()),
		Str1: string(t.Str1()),
		Barr: readPtrVector(t.BarrLength(), t.Barr, readB),
		Bmap1: readMap(t.Bmap1Length(), t.Bmap1, func(e *schema.BEntry) (string, *dataset.B) {
			if b := e.Value(&bt); b != nil {
				v := readB(b)
				return string(e.Key()), &v
			}
			return string(e.Key()), nil
		}),
		Bmap2: readMap(t.Bmap2Length(), t.Bmap2, func(e *schema.BEntry) (string, dataset.B) {
			if b := e.Value(&bt); b != nil {
				return string(e.Key()), readB(b)
			}
			return string(e.Key()), dataset.B{}
		}),
	}
	if b1 := t.B1(&bt); b1 != nil {
		b := readB(b1)
		v.B1 = &b
	}
	return v
}

// int32Vector writes a vector of int32, or nothing when s is empty.
func int32Vector(b *fb.Builder, s []int32) fb.UOffsetT {
	if len(s) == 0 {
		return 0
	}
	b.StartVector(4, len(s), 4)
	for i := len(s) - 1; i >= 0; i-- {
		b.PrependInt32(s[i])
	}
	return b.EndVector(len(s))
}

// readInt32s reads n int32 with at; an empty or absent vector reads as nil.
func readInt32s(n int, at func(int) int32) []int32 {
	if n == 0 {
		return nil
	}
	out := make([]int32, n)
	for j := range out {
		out[j] = at(j)
	}
	return out
}

func writeEdge(b *fb.Builder, v *dataset.Edge) fb.UOffsetT {
	nilSlice, emptySlice := int32Vector(b, v.NilSlice), int32Vector(b, v.EmptySlice)
	text, bytes := str(b, v.Text), byteVector(b, v.Bytes)
	schema.EdgeStart(b)
	schema.EdgeAddNilSlice(b, nilSlice)
	schema.EdgeAddEmptySlice(b, emptySlice)
	if v.NilPtr != nil {
		schema.EdgeAddNilPtr(b, *v.NilPtr)
	}
	if v.ZeroPtr != nil {
		schema.EdgeAddZeroPtr(b, *v.ZeroPtr)
	}
	schema.EdgeAddZoned(b, timestamp(b, v.Zoned))
	schema.EdgeAddZero(b, v.Zero)
	schema.EdgeAddMinInt(b, v.MinInt)
	schema.EdgeAddMaxUint(b, v.MaxUint)
	schema.EdgeAddFloat(b, v.Float)
	schema.EdgeAddText(b, text)
	schema.EdgeAddBytes(b, bytes)
	return schema.EdgeEnd(b)
}

func readEdge(t *schema.Edge) dataset.Edge {
	var ts schema.Timestamp
	return dataset.Edge{
		NilSlice: readInt32s(t.NilSliceLength(), t.NilSlice), EmptySlice: readInt32s(t.EmptySliceLength(), t.EmptySlice),
		NilPtr: t.NilPtr(), ZeroPtr: t.ZeroPtr(), Zoned: readTime(t.Zoned(&ts)),
		Zero: t.Zero(), MinInt: t.MinInt(), MaxUint: t.MaxUint(), Float: t.Float(),
		Text: string(t.Text()), Bytes: readBytes(t.BytesBytes()),
	}
}

func writeInt32Entry(b *fb.Builder, k string, v int32) fb.UOffsetT {
	key := b.CreateString(k)
	schema.Int32EntryStart(b)
	schema.Int32EntryAddKey(b, key)
	schema.Int32EntryAddValue(b, v)
	return schema.Int32EntryEnd(b)
}

func readInt32Entry(e *schema.Int32Entry) (string, int32) { return string(e.Key()), e.Value() }

func writeEdgeMaps(b *fb.Builder, v *dataset.EdgeMaps) fb.UOffsetT {
	nilMap := writeMap(b, v.NilMap, writeInt32Entry)
	emptyMap := writeMap(b, v.EmptyMap, writeInt32Entry)
	full := writeMap(b, v.Full, writeInt32Entry)
	schema.EdgeMapsStart(b)
	schema.EdgeMapsAddNilMap(b, nilMap)
	schema.EdgeMapsAddEmptyMap(b, emptyMap)
	schema.EdgeMapsAddFull(b, full)
	return schema.EdgeMapsEnd(b)
}

func readEdgeMaps(t *schema.EdgeMaps) dataset.EdgeMaps {
	return dataset.EdgeMaps{
		NilMap:   readMap(t.NilMapLength(), t.NilMap, readInt32Entry),
		EmptyMap: readMap(t.EmptyMapLength(), t.EmptyMap, readInt32Entry),
		Full:     readMap(t.FullLength(), t.Full, readInt32Entry),
	}
}
