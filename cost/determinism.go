package cost

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/verify"
)

// A Determinism is what one child found of a codec's output: the
// dataset it encoded (the first whose value has maps and round-trips
// through the codec, else the first that round-trips), the hash of its
// encoding, and whether encoding it again in the same process, and
// encoding a copy whose maps were filled in another order, gave the
// same bytes. The parent compares Hash across two children: the same
// value encoded in a fresh process.
type Determinism struct {
	Dataset string `json:"dataset"`
	Maps    bool   `json:"maps"` // the dataset's type has maps
	Hash    string `json:"hash"`
	Twice   bool   `json:"twice"`             // encoded again and again (encodings times): the same bytes
	Refill  bool   `json:"refill"`            // maps filled in another order: the same bytes
	Size    int    `json:"size"`              // the encoding's length
	Why     string `json:"why,omitempty"`     // why no dataset was encoded
	Reader  string `json:"reader,omitempty"`  // the entry reads another codec's encodings
	Sizable string `json:"sizable,omitempty"` // the first dataset that round-trips, for the main
}

// determine finds the dataset and encodes it as Determinism says.
func determine(info codec.Info, step func(string)) (Determinism, error) {
	var out Determinism
	out.Reader = info.ReadsOnly
	var pick *dataset.Dataset
	for _, d := range dataset.All {
		if d.XLSlices {
			continue // its single value alone is tens of thousands of records
		}
		step(d.Name)
		if roundTrips(info, d) != nil {
			continue
		}
		if out.Sizable == "" {
			out.Sizable = d.Name
		}
		if codec.FeaturesOf(d.Type())&codec.Map != 0 {
			pick = d
			break
		}
		if pick == nil {
			pick = d
		}
	}
	if pick == nil {
		out.Why = "no dataset round-trips through it"
		return out, nil
	}
	out.Dataset, out.Maps = pick.Name, codec.FeaturesOf(pick.Type())&codec.Map != 0
	step("encode " + pick.Name)
	v, _ := pick.Value(dataset.Single)
	first, err := encode(info, v)
	if err != nil {
		return out, err
	}
	// Go's map order may repeat by chance, more often the smaller the
	// map: encodings that may differ are made again and again.
	out.Twice = true
	for range encodings - 1 {
		again, err := encode(info, v)
		if err != nil {
			return out, err
		}
		out.Twice = out.Twice && string(first) == string(again)
	}
	refilled, err := encode(info, Refill(v))
	if err != nil {
		return out, err
	}
	sum := sha256.Sum256(first)
	out.Hash, out.Size = hex.EncodeToString(sum[:12]), len(first)
	out.Refill = string(first) == string(refilled)
	return out, nil
}

// encodings is how many times the value is encoded in one process.
const encodings = 8

// roundTrips reports whether d's single value round-trips through info.
func roundTrips(info codec.Info, d *dataset.Dataset) error {
	if err := info.Supports(d.Type().String(), codec.FeaturesOf(d.Type())); err != nil {
		return err
	}
	v, err := d.Value(dataset.Single)
	if err != nil {
		return err
	}
	c, err := info.New().Prepare(v)
	if err != nil {
		return err
	}
	b, err := c.Encode()
	if err != nil {
		return err
	}
	if err := c.Decode(b); err != nil {
		return err
	}
	got, err := c.Value()
	if err != nil {
		return err
	}
	return verify.Equal(v, got, info.Losses)
}

// encode returns a copy of the encoding of v by a fresh case of info.
func encode(info codec.Info, v any) ([]byte, error) {
	c, err := info.New().Prepare(v)
	if err != nil {
		return nil, err
	}
	b, err := c.Encode()
	return slices.Clone(b), err
}

// Refill returns a deep copy of v whose maps are filled in the reverse
// of their keys' printed order, so that an encoder writing a map in the
// order it was filled, or in the order Go's map iteration happens to
// give, writes other bytes.
func Refill(v any) any {
	return refill(reflect.ValueOf(v)).Interface()
}

func refill(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(refill(v.Elem()))
		return p
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		i := reflect.New(v.Type()).Elem()
		i.Set(refill(v.Elem()))
		return i
	case reflect.Struct:
		s := reflect.New(v.Type()).Elem()
		s.Set(v)
		for i := range s.NumField() {
			if f := s.Field(i); f.CanSet() {
				f.Set(refill(v.Field(i)))
			}
		}
		return s
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			s.Index(i).Set(refill(v.Index(i)))
		}
		return s
	case reflect.Array:
		a := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			a.Index(i).Set(refill(v.Index(i)))
		}
		return a
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return cmp.Compare(fmt.Sprint(b.Interface()), fmt.Sprint(a.Interface()))
		})
		m := reflect.MakeMapWithSize(v.Type(), len(keys))
		for _, k := range keys {
			m.SetMapIndex(k, refill(v.MapIndex(k)))
		}
		return m
	}
	return v
}
