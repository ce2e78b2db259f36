package codec

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// A Path names one part of a value to read from its encoding: struct
// fields by their name in the encodings (the JSON name of the dataset's
// types) and slice elements by index, outermost first. It is written
// "the_biggest_slice.999.big_id".
type Path []Step

// A Step is one step of a Path: a struct field, or (Field empty) a slice
// element.
type Step struct {
	Field string
	Index int
}

// ParsePath parses a path written "a.3.b": a step of digits is a slice
// index, any other a field name.
func ParsePath(s string) (Path, error) {
	if s == "" {
		return nil, fmt.Errorf("codec: empty path")
	}
	var p Path
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return nil, fmt.Errorf("codec: path %q has an empty step", s)
		}
		if i, err := strconv.Atoi(part); err == nil && i >= 0 {
			p = append(p, Step{Index: i})
		} else {
			p = append(p, Step{Field: part})
		}
	}
	return p, nil
}

// String writes p as ParsePath reads it.
func (p Path) String() string {
	parts := make([]string, len(p))
	for i, s := range p {
		if s.Field == "" {
			parts[i] = strconv.Itoa(s.Index)
		} else {
			parts[i] = s.Field
		}
	}
	return strings.Join(parts, ".")
}

// Keys returns p's steps as strings, indices in decimal: the form most
// in-place readers take a path in.
func (p Path) Keys() []string { return strings.Split(p.String(), ".") }

// A Field is one part of a value a get reads: its path, and the Go type
// read there, pointers followed (a *string field reads as a string; a
// nested struct as the struct).
type Field struct {
	Path Path
	Type reflect.Type
}

// A Getter is a Case that reads parts of an encoding without decoding
// the rest: an in-place reader (FlatBuffers' accessors, msgp's raw
// reading, gjson, ...). The get ops time its Reader where it has one, and
// a full decode otherwise.
type Getter interface {
	// Reader returns a reader of fields, prepared once outside the
	// timed loop, or an *UnsupportedError when it cannot read one of
	// them in place.
	Reader(fields []Field) (*Reader, error)
}

// A Reader reads fixed fields from encodings.
type Reader struct {
	// Read reads each field of data, an encoding Encode made, into
	// out[i] (len(out) is the number of fields): a value of the field's
	// Type, or, for a string or []byte field read without copying, a
	// []byte slice of data itself (a raw slice: the runner counts them
	// apart from materialised strings, and checks their bytes).
	Read func(data []byte, out []any) error
	// Via names the library call that reads, for reports:
	// "gjson.GetBytes", "msgp raw reading".
	Via string
}

// A TypeDecoder is a Case of a library that decodes into values of any
// type it can hold, through reflection: the get ops decode into a struct
// holding only the fields read, and into an empty struct (the floor: the
// cost of validating the input), as valyala/fastjson's benchmarks
// recommend for a fair comparison with in-place readers.
type TypeDecoder interface {
	// DecodeAs decodes data, produced by Encode, into v: a non-nil
	// pointer to a zero value of any type.
	DecodeAs(data []byte, v any) error
}

// DecodeAs makes a reflectCase a TypeDecoder: unmarshal(data, v).
func (c *reflectCase) DecodeAs(data []byte, v any) error { return c.unmarshal(data, v) }
