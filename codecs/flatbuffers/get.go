package flatbuffers

import (
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/flatbuffers/schema"
	"github.com/serbench/serbench/dataset"
)

// An accessor reads one field of a table through the generated accessors,
// in place: a string or a byte vector as a slice of the buffer, a scalar
// as it is, a nested table read whole into its dataset type. nil means
// the field is absent.
type accessor[F any] func(t *F) any

// tinyFields, mediumFields and bigFields read the fields of their tables
// by JSON name; "" reads the table whole.
var (
	tinyFields = map[string]accessor[schema.Tiny]{
		"":         func(t *schema.Tiny) any { return readTiny(t) },
		"tiny_id":  func(t *schema.Tiny) any { return t.Id() },
		"some_str": func(t *schema.Tiny) any { return t.SomeStr() },
	}
	mediumFields = nest(map[string]accessor[schema.Medium]{
		"":           func(t *schema.Medium) any { return readMedium(t) },
		"medium_id":  func(t *schema.Medium) any { return t.Id() },
		"first_name": func(t *schema.Medium) any { return t.FirstName() },
		"last_name":  func(t *schema.Medium) any { return t.LastName() },
		"money_balance": func(t *schema.Medium) any {
			if p := t.MoneyBalance(); p != nil {
				return *p
			}
			return nil
		},
		"created_at": func(t *schema.Medium) any { var ts schema.Timestamp; return readTime(t.CreatedAt(&ts)) },
	}, "tiny", func(t *schema.Medium) *schema.Tiny { return t.Tiny(nil) }, tinyFields)
	bigFields = nest(nest(nest(map[string]accessor[schema.Big]{
		"":              func(t *schema.Big) any { return readBig(t) },
		"big_id":        func(t *schema.Big) any { return t.Id() },
		"age":           func(t *schema.Big) any { return t.Age() },
		"country":       func(t *schema.Big) any { return t.Country() },
		"country_bytes": func(t *schema.Big) any { return t.CountryBytesBytes() },
		"created_at":    func(t *schema.Big) any { var ts schema.Timestamp; return readTime(t.CreatedAt(&ts)) },
		"updated_at":    func(t *schema.Big) any { var ts schema.Timestamp; return readTime(t.UpdatedAt(&ts)) },
		"deleted_at":    func(t *schema.Big) any { var ts schema.Timestamp; return readTime(t.DeletedAt(&ts)) },
	}, "tiny", func(t *schema.Big) *schema.Tiny { return t.Tiny(nil) }, tinyFields),
		"medium", func(t *schema.Big) *schema.Medium { return t.Medium(nil) }, mediumFields),
		"medium_ptr", func(t *schema.Big) *schema.Medium { return t.MediumPtr(nil) }, mediumFields)
)

// nest adds to fields the fields of the table child reads, under name.
func nest[F, C any](fields map[string]accessor[F], name string, child func(*F) *C, of map[string]accessor[C]) map[string]accessor[F] {
	for k, read := range of {
		key := name
		if k != "" {
			key += "." + k
		}
		fields[key] = func(t *F) any {
			if c := child(t); c != nil {
				return read(c)
			}
			return nil
		}
	}
	return fields
}

// hugeSlices are Huge's vectors of Big tables, by JSON name.
var hugeSlices = map[string]func(h *schema.Huge, b *schema.Big, j int) bool{
	"big_slice":         (*schema.Huge).BigSlice,
	"big_ptr_slice":     (*schema.Huge).BigPtrSlice,
	"bigger_slice":      (*schema.Huge).BiggerSlice,
	"the_biggest_slice": (*schema.Huge).TheBiggestSlice,
}

// getters returns the reader of path p in a message of dataset type t, or
// false when there is none: the fields of Big, and those of a Huge's Big.
func getter(t reflect.Type, p codec.Path) (func(data []byte) any, bool) {
	switch t {
	case reflect.TypeFor[dataset.Big]():
		read, ok := bigFields[p.String()]
		if !ok {
			return nil, false
		}
		return func(data []byte) any { return read(schema.GetRootAsBig(data, 0)) }, true
	case reflect.TypeFor[dataset.Huge]():
		if len(p) < 2 || p[1].Field != "" {
			return nil, false
		}
		at, ok := hugeSlices[p[0].Field]
		read, ok2 := bigFields[p[2:].String()]
		if !ok || !ok2 {
			return nil, false
		}
		j := p[1].Index
		return func(data []byte) any {
			var b schema.Big
			if !at(schema.GetRootAsHuge(data, 0), &b, j) {
				return nil
			}
			return read(&b)
		}, true
	}
	return nil, false
}

// Reader makes an fbCase a codec.Getter for the fields getter knows.
func (c *fbCase) Reader(fields []codec.Field) (*codec.Reader, error) {
	reads := make([]func([]byte) any, len(fields))
	for i, f := range fields {
		read, ok := getter(c.typ, f.Path)
		if !ok {
			return nil, &codec.UnsupportedError{Type: fmt.Sprint(c.typ), Reason: "no accessors written for " + f.Path.String()}
		}
		reads[i] = read
	}
	return &codec.Reader{Via: "generated accessors", Read: func(data []byte, out []any) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("flatbuffers: malformed buffer: %v", p)
			}
		}()
		for i, read := range reads {
			if out[i] = read(data); out[i] == nil {
				return fmt.Errorf("flatbuffers: %s is absent", fields[i].Path)
			}
		}
		return nil
	}}, nil
}
