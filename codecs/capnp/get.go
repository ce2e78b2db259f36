package capnp

import (
	"fmt"
	"reflect"

	capnplib "capnproto.org/go/capnp/v3"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/capnp/schema"
	"github.com/serbench/serbench/dataset"
)

// An accessor reads one field of a struct through the generated getters,
// in place: Text and Data as slices of the message, a scalar as it is, a
// nested struct read whole into its dataset type. nil means the field is
// null. A getter's error unwinds to Reader's Read (must).
type accessor[S any] func(s S) any

// tinyFields, mediumFields and bigFields read the fields of their structs
// by JSON name; "" reads the struct whole.
var (
	tinyFields = map[string]accessor[schema.Tiny]{
		"":         func(s schema.Tiny) any { return readTiny(s) },
		"tiny_id":  func(s schema.Tiny) any { return s.Id() },
		"some_str": func(s schema.Tiny) any { return must(s.SomeStrBytes()) },
	}
	mediumFields = nest(map[string]accessor[schema.Medium]{
		"":           func(s schema.Medium) any { return readMedium(s) },
		"medium_id":  func(s schema.Medium) any { return s.Id() },
		"first_name": func(s schema.Medium) any { return must(s.FirstNameBytes()) },
		"last_name": func(s schema.Medium) any {
			return orNil(s.HasLastName(), func() any { return must(s.LastNameBytes()) })
		},
		"money_balance": func(s schema.Medium) any {
			mb := s.MoneyBalance()
			return orNil(mb.Which() == schema.Medium_moneyBalance_Which_value, func() any { return mb.Value() })
		},
		"created_at": func(s schema.Medium) any { return readTime(s.HasCreatedAt(), s.CreatedAt) },
	}, "tiny", schema.Medium.HasTiny, schema.Medium.Tiny, tinyFields)
	bigFields = nest(nest(nest(map[string]accessor[schema.Big]{
		"":              func(s schema.Big) any { return readBig(s) },
		"big_id":        func(s schema.Big) any { return s.Id() },
		"age":           func(s schema.Big) any { return s.Age() },
		"country":       func(s schema.Big) any { return orNil(s.HasCountry(), func() any { return must(s.CountryBytes()) }) },
		"country_bytes": func(s schema.Big) any { return orNil(s.HasCountryData(), func() any { return must(s.CountryData()) }) },
		"created_at":    func(s schema.Big) any { return readTime(s.HasCreatedAt(), s.CreatedAt) },
		"updated_at":    func(s schema.Big) any { return readTime(s.HasUpdatedAt(), s.UpdatedAt) },
		"deleted_at":    func(s schema.Big) any { return readTime(s.HasDeletedAt(), s.DeletedAt) },
	}, "tiny", schema.Big.HasTiny, schema.Big.Tiny, tinyFields),
		"medium", schema.Big.HasMedium, schema.Big.Medium, mediumFields),
		"medium_ptr", schema.Big.HasMediumPtr, schema.Big.MediumPtr, mediumFields)
)

// orNil returns read() when has, else nil.
func orNil(has bool, read func() any) any {
	if !has {
		return nil
	}
	return read()
}

// nest adds to fields the fields of the struct child reads, under name.
func nest[S, C any](fields map[string]accessor[S], name string, has func(S) bool, child func(S) (C, error), of map[string]accessor[C]) map[string]accessor[S] {
	for k, read := range of {
		key := name
		if k != "" {
			key += "." + k
		}
		fields[key] = func(s S) any { return orNil(has(s), func() any { return read(must(child(s))) }) }
	}
	return fields
}

// hugeLists are Huge's lists of Big structs, by JSON name.
var hugeLists = map[string]func(schema.Huge) (schema.Big_List, error){
	"big_slice":         schema.Huge.BigSlice,
	"big_ptr_slice":     schema.Huge.BigPtrSlice,
	"bigger_slice":      schema.Huge.BiggerSlice,
	"the_biggest_slice": schema.Huge.TheBiggestSlice,
}

// getter returns the reader of path p in a message of dataset type t, or
// false when there is none: the fields of Big, and those of a Huge's Big.
func getter(t reflect.Type, p codec.Path) (func(msg *capnplib.Message) any, bool) {
	switch t {
	case reflect.TypeFor[dataset.Big]():
		read, ok := bigFields[p.String()]
		if !ok {
			return nil, false
		}
		return func(msg *capnplib.Message) any { return read(must(schema.ReadRootBig(msg))) }, true
	case reflect.TypeFor[dataset.Huge]():
		if len(p) < 2 || p[1].Field != "" {
			return nil, false
		}
		list, ok := hugeLists[p[0].Field]
		read, ok2 := bigFields[p[2:].String()]
		if !ok || !ok2 {
			return nil, false
		}
		j := p[1].Index
		return func(msg *capnplib.Message) any {
			l := must(list(must(schema.ReadRootHuge(msg))))
			if j >= l.Len() {
				return nil
			}
			return read(l.At(j))
		}, true
	}
	return nil, false
}

// Reader makes a capCase a codec.Getter for the fields getter knows: each
// message is unmarshalled (which reads its segment table, not its
// content), then each field is reached through the generated getters.
func (c *capCase) Reader(fields []codec.Field) (*codec.Reader, error) {
	reads := make([]func(*capnplib.Message) any, len(fields))
	for i, f := range fields {
		read, ok := getter(c.typ, f.Path)
		if !ok {
			return nil, &codec.UnsupportedError{Type: fmt.Sprint(c.typ), Reason: "no getters written for " + f.Path.String()}
		}
		reads[i] = read
	}
	return &codec.Reader{Via: "capnp.Unmarshal, then generated getters", Read: func(data []byte, out []any) (err error) {
		defer catch(&err)
		msg, err := capnplib.Unmarshal(data)
		if err != nil {
			return err
		}
		for i, read := range reads {
			if out[i] = read(msg); out[i] == nil {
				return fmt.Errorf("capnp: %s is null", fields[i].Path)
			}
		}
		return nil
	}}, nil
}
