package capnp

import (
	"time"

	capnplib "capnproto.org/go/capnp/v3"

	"github.com/serbench/serbench/codecs/capnp/schema"
	"github.com/serbench/serbench/dataset"
)

// The write functions fill a struct, already allocated in the message,
// from a dataset value; the read functions read every field of a struct
// into a new dataset value. A nil Go pointer, slice or map is a null
// pointer; an empty slice or map is an empty list.

// writeTime fills a Timestamp struct allocated by alloc.
func writeTime(alloc func() (schema.Timestamp, error), t time.Time) {
	ts := must(alloc())
	ts.SetSeconds(t.Unix())
	ts.SetNanos(int32(t.Nanosecond()))
}

// readTime reads a Timestamp as a UTC time; a null one is the zero time.
func readTime(has bool, get func() (schema.Timestamp, error)) time.Time {
	if !has {
		return time.Time{}
	}
	ts := must(get())
	return time.Unix(ts.Seconds(), int64(ts.Nanos())).UTC()
}

// readData copies a Data field out of the message, which the getter
// aliases; a null one is nil.
func readData(has bool, get func() ([]byte, error)) []byte {
	if !has {
		return nil
	}
	return append([]byte{}, must(get())...)
}

// readStrPtr reads an optional Text into a pointer: nil when null.
func readStrPtr(has bool, get func() (string, error)) *string {
	if !has {
		return nil
	}
	s := must(get())
	return &s
}

// writeList writes s into a list allocated by alloc; a nil s stays null.
func writeList[T any, S ~capnplib.StructKind](s []T, alloc func(int32) (capnplib.StructList[S], error), write func(S, *T)) {
	if s == nil {
		return
	}
	l := must(alloc(int32(len(s))))
	for i := range s {
		write(l.At(i), &s[i])
	}
}

// writePtrList is writeList for pointers. A list of structs has no null
// element: a nil pointer is written as a zero struct.
func writePtrList[T any, S ~capnplib.StructKind](s []*T, alloc func(int32) (capnplib.StructList[S], error), write func(S, *T)) {
	if s == nil {
		return
	}
	l := must(alloc(int32(len(s))))
	for i, p := range s {
		if p != nil {
			write(l.At(i), p)
		}
	}
}

// readList reads a list into a new slice; a null list reads as nil.
func readList[T any, S ~capnplib.StructKind](has bool, get func() (capnplib.StructList[S], error), read func(S) T) []T {
	if !has {
		return nil
	}
	l := must(get())
	out := make([]T, l.Len())
	for i := range out {
		out[i] = read(l.At(i))
	}
	return out
}

// readPtrList is readList for a slice of pointers.
func readPtrList[T any, S ~capnplib.StructKind](has bool, get func() (capnplib.StructList[S], error), read func(S) T) []*T {
	if !has {
		return nil
	}
	l := must(get())
	out := make([]*T, l.Len())
	for i := range out {
		t := read(l.At(i))
		out[i] = &t
	}
	return out
}

// writeMap writes m as a list of entries allocated by alloc; a nil m
// stays null.
func writeMap[V any, E ~capnplib.StructKind](m map[string]V, alloc func(int32) (capnplib.StructList[E], error), write func(E, string, V)) {
	if m == nil {
		return
	}
	l := must(alloc(int32(len(m))))
	i := 0
	for k, v := range m {
		write(l.At(i), k, v)
		i++
	}
}

// readMap reads a list of entries into a new map; a null list reads as nil.
func readMap[V any, E ~capnplib.StructKind](has bool, get func() (capnplib.StructList[E], error), read func(E) (string, V)) map[string]V {
	if !has {
		return nil
	}
	l := must(get())
	out := make(map[string]V, l.Len())
	for i := range l.Len() {
		k, v := read(l.At(i))
		out[k] = v
	}
	return out
}

func writeTiny(s schema.Tiny, v *dataset.Tiny) {
	s.SetId(v.ID)
	check(s.SetSomeStr(v.SomeStr))
}

func readTiny(s schema.Tiny) dataset.Tiny {
	return dataset.Tiny{ID: s.Id(), SomeStr: must(s.SomeStr())}
}

func writeMedium(s schema.Medium, v *dataset.Medium) {
	s.SetId(v.ID)
	check(s.SetFirstName(v.FirstName))
	if v.LastName != nil {
		check(s.SetLastName(*v.LastName))
	}
	if v.MoneyBalance != nil {
		s.MoneyBalance().SetValue(*v.MoneyBalance)
	}
	writeTime(s.NewCreatedAt, v.CreatedAt)
	writeTiny(must(s.NewTiny()), &v.Tiny)
}

func readMedium(s schema.Medium) dataset.Medium {
	v := dataset.Medium{
		ID: s.Id(), FirstName: must(s.FirstName()), LastName: readStrPtr(s.HasLastName(), s.LastName),
		CreatedAt: readTime(s.HasCreatedAt(), s.CreatedAt),
	}
	if mb := s.MoneyBalance(); mb.Which() == schema.Medium_moneyBalance_Which_value {
		x := mb.Value()
		v.MoneyBalance = &x
	}
	if s.HasTiny() {
		v.Tiny = readTiny(must(s.Tiny()))
	}
	return v
}

func writeBig(s schema.Big, v *dataset.Big) {
	s.SetId(v.ID)
	s.SetAge(v.Age)
	if v.Country != nil {
		check(s.SetCountry(*v.Country))
	}
	check(s.SetCountryData(v.CountryBytes))
	writeTime(s.NewCreatedAt, v.CreatedAt)
	writeTime(s.NewUpdatedAt, v.UpdatedAt)
	writeTime(s.NewDeletedAt, v.DeletedAt)
	writeTiny(must(s.NewTiny()), &v.Tiny)
	writeMedium(must(s.NewMedium()), &v.Medium)
	if v.MediumPtr != nil {
		writeMedium(must(s.NewMediumPtr()), v.MediumPtr)
	}
}

func readBig(s schema.Big) dataset.Big {
	v := dataset.Big{
		ID: s.Id(), Age: s.Age(), Country: readStrPtr(s.HasCountry(), s.Country),
		CreatedAt: readTime(s.HasCreatedAt(), s.CreatedAt),
		UpdatedAt: readTime(s.HasUpdatedAt(), s.UpdatedAt),
		DeletedAt: readTime(s.HasDeletedAt(), s.DeletedAt),
	}
	v.CountryBytes = readData(s.HasCountryData(), s.CountryData)
	if s.HasTiny() {
		v.Tiny = readTiny(must(s.Tiny()))
	}
	if s.HasMedium() {
		v.Medium = readMedium(must(s.Medium()))
	}
	if s.HasMediumPtr() {
		m := readMedium(must(s.MediumPtr()))
		v.MediumPtr = &m
	}
	return v
}

func writeHuge(s schema.Huge, v *dataset.Huge) {
	writeList(v.BigSlice, s.NewBigSlice, writeBig)
	writePtrList(v.BigPtrSlice, s.NewBigPtrSlice, writeBig)
	writeList(v.BiggerSlice, s.NewBiggerSlice, writeBig)
	writeList(v.TheBiggestSlice, s.NewTheBiggestSlice, writeBig)
}

func readHuge(s schema.Huge) dataset.Huge {
	return dataset.Huge{
		BigSlice:        readList(s.HasBigSlice(), s.BigSlice, readBig),
		BigPtrSlice:     readPtrList(s.HasBigPtrSlice(), s.BigPtrSlice, readBig),
		BiggerSlice:     readList(s.HasBiggerSlice(), s.BiggerSlice, readBig),
		TheBiggestSlice: readList(s.HasTheBiggestSlice(), s.TheBiggestSlice, readBig),
	}
}

func writeComplexMap(s schema.ComplexMap, v *dataset.ComplexMap) {
	writeMap(*v, s.NewEntries, func(e schema.HugeEntry, k string, h dataset.Huge) {
		check(e.SetKey(k))
		writeHuge(must(e.NewValue()), &h)
	})
}

func readComplexMap(s schema.ComplexMap) dataset.ComplexMap {
	return readMap(s.HasEntries(), s.Entries, func(e schema.HugeEntry) (string, dataset.Huge) {
		var h dataset.Huge
		if e.HasValue() {
			h = readHuge(must(e.Value()))
		}
		return must(e.Key()), h
	})
}

func writeUser(s schema.User, v *dataset.User) {
	s.SetId(int64(v.ID))
	check(s.SetName(v.Name))
	check(s.SetEmail(v.Email))
}

func readUser(s schema.User) dataset.User {
	return dataset.User{ID: int(s.Id()), Name: must(s.Name()), Email: must(s.Email())}
}

func writeMetric(s schema.Metric, v *dataset.Metric) {
	s.SetTimestamp(v.Timestamp)
	s.SetNameHash(v.NameHash)
	s.SetValue(v.Value)
}

func readMetric(s schema.Metric) dataset.Metric {
	return dataset.Metric{Timestamp: s.Timestamp(), NameHash: s.NameHash(), Value: s.Value()}
}

func writeComplexData(s schema.ComplexData, v *dataset.ComplexData) {
	writeList(v.Users, s.NewUsers, writeUser)
	writeMap(v.Metadata, s.NewMetadata, func(e schema.StringEntry, k, val string) {
		check(e.SetKey(k))
		check(e.SetValue(val))
	})
	s.SetCount(int64(v.Count))
	s.SetActive(v.Active)
}

func readComplexData(s schema.ComplexData) dataset.ComplexData {
	return dataset.ComplexData{
		Users: readList(s.HasUsers(), s.Users, readUser),
		Metadata: readMap(s.HasMetadata(), s.Metadata, func(e schema.StringEntry) (string, string) {
			return must(e.Key()), must(e.Value())
		}),
		Count: int(s.Count()), Active: s.Active(),
	}
}

func writeB(s schema.B, v *dataset.B) {
	s.SetI2(int64(v.I2))
	check(s.SetStr2(v.Str2))
}

func readB(s schema.B) dataset.B { return dataset.B{I2: int(s.I2()), Str2: must(s.Str2())} }

// writeBEntry fills a map entry whose value is a B; a nil value stays null.
func writeBEntry(e schema.BEntry, k string, v *dataset.B) {
	check(e.SetKey(k))
	if v != nil {
		writeB(must(e.NewValue()), v)
	}
}

func writeA(s schema.A, v *dataset.A) {
	s.SetI1(int64(v.I1))
	s.SetI2(int64(v.I2))
	s.SetI3(int64(v.I3))
	s.SetI4(int64(v.I4))
	s.SetI5(int64(v.I5))
	s.SetI6(int64(v.I6))
	s.SetI7(int64(v.I7))
	s.SetI8(int64(v.I8))
	s.SetI9(int64(v.I9))
	s.SetI10(int64(v.I10))
	s.SetI11(int64(v.I11))
	s.SetI12(int64(v.I12))
	s.SetI13(int64(v.I13))
	s.SetI14(int64(v.I14))
	s.SetI15(int64(v.I15))
	check(s.SetStr1(v.Str1))
	if v.B1 != nil {
		writeB(must(s.NewB1()), v.B1)
	}
	writePtrList(v.Barr, s.NewBarr, writeB)
	writeMap(v.Bmap1, s.NewBmap1, writeBEntry)
	writeMap(v.Bmap2, s.NewBmap2, func(e schema.BEntry, k string, b dataset.B) { writeBEntry(e, k, &b) })
}

func readA(s schema.A) dataset.A {
	v := dataset.A{
		I1: int(s.I1()), I2: int(s.I2()), I3: int(s.I3()), I4: int(s.I4()), I5: int(s.I5()),
		I6: int(s.I6()), I7: int(s.I7()), I8: int(s.I8()), I9: int(s.I9()), I10: int(s.I10()),
		I11: int(s.I11()), I12: int(s.I12()), I13: int(s.I13()), I14: int(s.I14()), I15: int(s.I15()),
		Str1: must(s.Str1()),
		Barr: readPtrList(s.HasBarr(), s.Barr, readB),
		Bmap1: readMap(s.HasBmap1(), s.Bmap1, func(e schema.BEntry) (string, *dataset.B) {
			if !e.HasValue() {
				return must(e.Key()), nil
			}
			b := readB(must(e.Value()))
			return must(e.Key()), &b
		}),
		Bmap2: readMap(s.HasBmap2(), s.Bmap2, func(e schema.BEntry) (string, dataset.B) {
			var b dataset.B
			if e.HasValue() {
				b = readB(must(e.Value()))
			}
			return must(e.Key()), b
		}),
	}
	if s.HasB1() {
		b := readB(must(s.B1()))
		v.B1 = &b
	}
	return v
}

// writeInt32s writes s into a list allocated by alloc; a nil s stays null.
func writeInt32s(s []int32, alloc func(int32) (capnplib.Int32List, error)) {
	if s == nil {
		return
	}
	l := must(alloc(int32(len(s))))
	for i, x := range s {
		l.Set(i, x)
	}
}

// readInt32s reads a list of Int32; a null list reads as nil.
func readInt32s(has bool, get func() (capnplib.Int32List, error)) []int32 {
	if !has {
		return nil
	}
	l := must(get())
	out := make([]int32, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

func writeEdge(s schema.Edge, v *dataset.Edge) {
	writeInt32s(v.NilSlice, s.NewNilSlice)
	writeInt32s(v.EmptySlice, s.NewEmptySlice)
	if v.NilPtr != nil {
		s.NilPtr().SetValue(*v.NilPtr)
	}
	if v.ZeroPtr != nil {
		s.ZeroPtr().SetValue(*v.ZeroPtr)
	}
	writeTime(s.NewZoned, v.Zoned)
	s.SetZero(v.Zero)
	s.SetMinInt(v.MinInt)
	s.SetMaxUint(v.MaxUint)
	s.SetFloat(v.Float)
	check(s.SetText(v.Text))
	check(s.SetBytes(v.Bytes))
}

func readEdge(s schema.Edge) dataset.Edge {
	v := dataset.Edge{
		NilSlice: readInt32s(s.HasNilSlice(), s.NilSlice), EmptySlice: readInt32s(s.HasEmptySlice(), s.EmptySlice),
		Zoned: readTime(s.HasZoned(), s.Zoned),
		Zero:  s.Zero(), MinInt: s.MinInt(), MaxUint: s.MaxUint(), Float: s.Float(),
		Text: must(s.Text()), Bytes: readData(s.HasBytes(), s.Bytes),
	}
	if p := s.NilPtr(); p.Which() == schema.Edge_nilPtr_Which_value {
		x := p.Value()
		v.NilPtr = &x
	}
	if p := s.ZeroPtr(); p.Which() == schema.Edge_zeroPtr_Which_value {
		x := p.Value()
		v.ZeroPtr = &x
	}
	return v
}

func writeInt32Entry(e schema.Int32Entry, k string, v int32) {
	check(e.SetKey(k))
	e.SetValue(v)
}

func readInt32Entry(e schema.Int32Entry) (string, int32) { return must(e.Key()), e.Value() }

func writeEdgeMaps(s schema.EdgeMaps, v *dataset.EdgeMaps) {
	writeMap(v.NilMap, s.NewNilMap, writeInt32Entry)
	writeMap(v.EmptyMap, s.NewEmptyMap, writeInt32Entry)
	writeMap(v.Full, s.NewFull, writeInt32Entry)
}

func readEdgeMaps(s schema.EdgeMaps) dataset.EdgeMaps {
	return dataset.EdgeMaps{
		NilMap:   readMap(s.HasNilMap(), s.NilMap, readInt32Entry),
		EmptyMap: readMap(s.HasEmptyMap(), s.EmptyMap, readInt32Entry),
		Full:     readMap(s.HasFull(), s.Full, readInt32Entry),
	}
}
