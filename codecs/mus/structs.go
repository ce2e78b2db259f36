package mus

import (
	"github.com/mus-format/mus-go/raw"
	"github.com/mus-format/mus-go/varint"

	musgo "github.com/mus-format/mus-go"

	"github.com/serbench/serbench/dataset"
)

// The serializers of the dataset structs: each field in order, with
// mus-go's primitives. Every Unmarshal stops at the first error.

var (
	float64Ser = raw.Float64
	timeSer    = raw.TimeUnixNanoUTC
)

// un decodes one field with s into *dst, adding the bytes used to *n.
func un[T any](s musgo.Serializer[T], bs []byte, n *int, dst *T) error {
	v, m, err := s.Unmarshal(bs[*n:])
	*dst = v
	*n += m
	return err
}

type tinySer struct{ k kit }

func (s tinySer) Marshal(v dataset.Tiny, bs []byte) (n int) {
	n = varint.Int64.Marshal(v.ID, bs)
	return n + s.k.str.Marshal(v.SomeStr, bs[n:])
}

func (s tinySer) Unmarshal(bs []byte) (v dataset.Tiny, n int, err error) {
	if err = un(varint.Int64, bs, &n, &v.ID); err == nil {
		err = un(s.k.str, bs, &n, &v.SomeStr)
	}
	return
}

func (s tinySer) Size(v dataset.Tiny) int { return varint.Int64.Size(v.ID) + s.k.str.Size(v.SomeStr) }

func (s tinySer) Skip(bs []byte) (int, error) { return skip[dataset.Tiny](s, bs) }

type mediumSer struct {
	k      kit
	tiny   tinySer
	strP   musgo.Serializer[*string]
	moneyP musgo.Serializer[*float64]
}

func (s mediumSer) Marshal(v dataset.Medium, bs []byte) (n int) {
	n = varint.Int64.Marshal(v.ID, bs)
	n += s.k.str.Marshal(v.FirstName, bs[n:])
	n += s.strP.Marshal(v.LastName, bs[n:])
	n += s.moneyP.Marshal(v.MoneyBalance, bs[n:])
	n += timeSer.Marshal(v.CreatedAt, bs[n:])
	return n + s.tiny.Marshal(v.Tiny, bs[n:])
}

func (s mediumSer) Unmarshal(bs []byte) (v dataset.Medium, n int, err error) {
	if err = un(varint.Int64, bs, &n, &v.ID); err != nil {
		return
	}
	if err = un(s.k.str, bs, &n, &v.FirstName); err != nil {
		return
	}
	if err = un(s.strP, bs, &n, &v.LastName); err != nil {
		return
	}
	if err = un(s.moneyP, bs, &n, &v.MoneyBalance); err != nil {
		return
	}
	if err = un(timeSer, bs, &n, &v.CreatedAt); err != nil {
		return
	}
	err = un[dataset.Tiny](s.tiny, bs, &n, &v.Tiny)
	return
}

func (s mediumSer) Size(v dataset.Medium) int {
	return varint.Int64.Size(v.ID) + s.k.str.Size(v.FirstName) + s.strP.Size(v.LastName) +
		s.moneyP.Size(v.MoneyBalance) + timeSer.Size(v.CreatedAt) + s.tiny.Size(v.Tiny)
}

func (s mediumSer) Skip(bs []byte) (int, error) { return skip[dataset.Medium](s, bs) }

type bigSer struct {
	k       kit
	tiny    tinySer
	medium  mediumSer
	mediumP musgo.Serializer[*dataset.Medium]
}

func (s bigSer) Marshal(v dataset.Big, bs []byte) (n int) {
	n = varint.Int64.Marshal(v.ID, bs)
	n += varint.Uint64.Marshal(v.Age, bs[n:])
	n += s.medium.strP.Marshal(v.Country, bs[n:])
	n += s.k.bytes.Marshal(v.CountryBytes, bs[n:])
	n += timeSer.Marshal(v.CreatedAt, bs[n:])
	n += timeSer.Marshal(v.UpdatedAt, bs[n:])
	n += timeSer.Marshal(v.DeletedAt, bs[n:])
	n += s.tiny.Marshal(v.Tiny, bs[n:])
	n += s.medium.Marshal(v.Medium, bs[n:])
	return n + s.mediumP.Marshal(v.MediumPtr, bs[n:])
}

func (s bigSer) Unmarshal(bs []byte) (v dataset.Big, n int, err error) {
	if err = un(varint.Int64, bs, &n, &v.ID); err != nil {
		return
	}
	if err = un(varint.Uint64, bs, &n, &v.Age); err != nil {
		return
	}
	if err = un(s.medium.strP, bs, &n, &v.Country); err != nil {
		return
	}
	if err = un(s.k.bytes, bs, &n, &v.CountryBytes); err != nil {
		return
	}
	if err = un(timeSer, bs, &n, &v.CreatedAt); err != nil {
		return
	}
	if err = un(timeSer, bs, &n, &v.UpdatedAt); err != nil {
		return
	}
	if err = un(timeSer, bs, &n, &v.DeletedAt); err != nil {
		return
	}
	if err = un[dataset.Tiny](s.tiny, bs, &n, &v.Tiny); err != nil {
		return
	}
	if err = un[dataset.Medium](s.medium, bs, &n, &v.Medium); err != nil {
		return
	}
	err = un(s.mediumP, bs, &n, &v.MediumPtr)
	return
}

func (s bigSer) Size(v dataset.Big) int {
	return varint.Int64.Size(v.ID) + varint.Uint64.Size(v.Age) + s.medium.strP.Size(v.Country) +
		s.k.bytes.Size(v.CountryBytes) + timeSer.Size(v.CreatedAt) + timeSer.Size(v.UpdatedAt) +
		timeSer.Size(v.DeletedAt) + s.tiny.Size(v.Tiny) + s.medium.Size(v.Medium) + s.mediumP.Size(v.MediumPtr)
}

func (s bigSer) Skip(bs []byte) (int, error) { return skip[dataset.Big](s, bs) }

type hugeSer struct {
	bigs    musgo.Serializer[[]dataset.Big]
	bigPtrs musgo.Serializer[[]*dataset.Big]
}

func (s hugeSer) Marshal(v dataset.Huge, bs []byte) (n int) {
	n = s.bigs.Marshal(v.BigSlice, bs)
	n += s.bigPtrs.Marshal(v.BigPtrSlice, bs[n:])
	n += s.bigs.Marshal(v.BiggerSlice, bs[n:])
	return n + s.bigs.Marshal(v.TheBiggestSlice, bs[n:])
}

func (s hugeSer) Unmarshal(bs []byte) (v dataset.Huge, n int, err error) {
	if err = un(s.bigs, bs, &n, &v.BigSlice); err != nil {
		return
	}
	if err = un(s.bigPtrs, bs, &n, &v.BigPtrSlice); err != nil {
		return
	}
	if err = un(s.bigs, bs, &n, &v.BiggerSlice); err != nil {
		return
	}
	err = un(s.bigs, bs, &n, &v.TheBiggestSlice)
	return
}

func (s hugeSer) Size(v dataset.Huge) int {
	return s.bigs.Size(v.BigSlice) + s.bigPtrs.Size(v.BigPtrSlice) + s.bigs.Size(v.BiggerSlice) + s.bigs.Size(v.TheBiggestSlice)
}

func (s hugeSer) Skip(bs []byte) (int, error) { return skip[dataset.Huge](s, bs) }

type userSer struct{ k kit }

func (s userSer) Marshal(v dataset.User, bs []byte) (n int) {
	n = varint.Int.Marshal(v.ID, bs)
	n += s.k.str.Marshal(v.Name, bs[n:])
	return n + s.k.str.Marshal(v.Email, bs[n:])
}

func (s userSer) Unmarshal(bs []byte) (v dataset.User, n int, err error) {
	if err = un(varint.Int, bs, &n, &v.ID); err != nil {
		return
	}
	if err = un(s.k.str, bs, &n, &v.Name); err != nil {
		return
	}
	err = un(s.k.str, bs, &n, &v.Email)
	return
}

func (s userSer) Size(v dataset.User) int {
	return varint.Int.Size(v.ID) + s.k.str.Size(v.Name) + s.k.str.Size(v.Email)
}

func (s userSer) Skip(bs []byte) (int, error) { return skip[dataset.User](s, bs) }

type metricSer struct{}

func (metricSer) Marshal(v dataset.Metric, bs []byte) (n int) {
	n = float64Ser.Marshal(v.Timestamp, bs)
	n += varint.Uint64.Marshal(v.NameHash, bs[n:])
	return n + float64Ser.Marshal(v.Value, bs[n:])
}

func (metricSer) Unmarshal(bs []byte) (v dataset.Metric, n int, err error) {
	if err = un(float64Ser, bs, &n, &v.Timestamp); err != nil {
		return
	}
	if err = un(varint.Uint64, bs, &n, &v.NameHash); err != nil {
		return
	}
	err = un(float64Ser, bs, &n, &v.Value)
	return
}

func (metricSer) Size(v dataset.Metric) int {
	return float64Ser.Size(v.Timestamp) + varint.Uint64.Size(v.NameHash) + float64Ser.Size(v.Value)
}

func (s metricSer) Skip(bs []byte) (int, error) { return skip[dataset.Metric](s, bs) }
