package cli

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
)

// The sample's value crosses from the worker that decodes the user's
// file to the process that measures it in a small tagged encoding of the
// generic values loadSample makes (see generic): gob would turn an empty
// list into a nil one and drop a time's zone, which changes the document
// measured.
const (
	wireNil      = 'z'
	wireTrue     = 't'
	wireFalse    = 'f'
	wireInt      = 'i'
	wireUint     = 'u'
	wireFloat    = 'd'
	wireString   = 's'
	wireBytes    = 'b'
	wireNilBytes = 'B'
	wireTime     = 'T'
	wireMap      = 'm'
	wireNilMap   = 'M'
	wireList     = 'a'
	wireNilList  = 'A'
)

// appendWire appends the encoding of v, a generic value, to b.
func appendWire(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, wireNil), nil
	case bool:
		if v {
			return append(b, wireTrue), nil
		}
		return append(b, wireFalse), nil
	case int64:
		return binary.AppendVarint(append(b, wireInt), v), nil
	case uint64:
		return binary.AppendUvarint(append(b, wireUint), v), nil
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, wireFloat), math.Float64bits(v)), nil
	case string:
		return append(binary.AppendUvarint(append(b, wireString), uint64(len(v))), v...), nil
	case []byte:
		if v == nil {
			return append(b, wireNilBytes), nil
		}
		return append(binary.AppendUvarint(append(b, wireBytes), uint64(len(v))), v...), nil
	case time.Time:
		t, err := v.MarshalBinary()
		if err != nil {
			return nil, err
		}
		return append(binary.AppendUvarint(append(b, wireTime), uint64(len(t))), t...), nil
	case map[string]any:
		if v == nil {
			return append(b, wireNilMap), nil
		}
		b = binary.AppendUvarint(append(b, wireMap), uint64(len(v)))
		for k, e := range v {
			b = append(binary.AppendUvarint(b, uint64(len(k))), k...)
			var err error
			if b, err = appendWire(b, e); err != nil {
				return nil, err
			}
		}
		return b, nil
	case []any:
		if v == nil {
			return append(b, wireNilList), nil
		}
		b = binary.AppendUvarint(append(b, wireList), uint64(len(v)))
		for _, e := range v {
			var err error
			if b, err = appendWire(b, e); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	return nil, fmt.Errorf("a value of type %T, which generic data does not hold", v)
}

// errWire says an encoding is cut short or malformed.
var errWire = errors.New("sample: malformed value from the worker")

// A wireReader decodes what appendWire encodes.
type wireReader struct{ b []byte }

func (r *wireReader) uvarint() (uint64, error) {
	n, k := binary.Uvarint(r.b)
	if k <= 0 {
		return 0, errWire
	}
	r.b = r.b[k:]
	return n, nil
}

func (r *wireReader) bytes() ([]byte, error) {
	n, err := r.uvarint()
	if err != nil || n > uint64(len(r.b)) {
		return nil, errWire
	}
	s := r.b[:n:n]
	r.b = r.b[n:]
	return s, nil
}

// value decodes one value.
func (r *wireReader) value() (any, error) {
	if len(r.b) == 0 {
		return nil, errWire
	}
	tag := r.b[0]
	r.b = r.b[1:]
	switch tag {
	case wireNil:
		return nil, nil
	case wireTrue:
		return true, nil
	case wireFalse:
		return false, nil
	case wireInt:
		n, k := binary.Varint(r.b)
		if k <= 0 {
			return nil, errWire
		}
		r.b = r.b[k:]
		return n, nil
	case wireUint:
		return r.uvarint()
	case wireFloat:
		if len(r.b) < 8 {
			return nil, errWire
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
		r.b = r.b[8:]
		return f, nil
	case wireString:
		s, err := r.bytes()
		return string(s), err
	case wireBytes:
		s, err := r.bytes()
		if err != nil {
			return nil, err
		}
		return append([]byte{}, s...), nil
	case wireNilBytes:
		return []byte(nil), nil
	case wireTime:
		s, err := r.bytes()
		if err != nil {
			return nil, err
		}
		var t time.Time
		return t, t.UnmarshalBinary(s)
	case wireNilMap:
		return map[string]any(nil), nil
	case wireMap:
		n, err := r.uvarint()
		if err != nil || n > uint64(len(r.b)) { // each entry takes a byte at least
			return nil, errWire
		}
		m := make(map[string]any, n)
		for range n {
			k, err := r.bytes()
			if err != nil {
				return nil, err
			}
			if m[string(k)], err = r.value(); err != nil {
				return nil, err
			}
		}
		return m, nil
	case wireNilList:
		return []any(nil), nil
	case wireList:
		n, err := r.uvarint()
		if err != nil || n > uint64(len(r.b)) {
			return nil, errWire
		}
		l := make([]any, n)
		for i := range l {
			if l[i], err = r.value(); err != nil {
				return nil, err
			}
		}
		return l, nil
	}
	return nil, errWire
}

// decodeWire decodes the one value of b.
func decodeWire(b []byte) (any, error) {
	r := &wireReader{b: b}
	v, err := r.value()
	if err == nil && len(r.b) > 0 {
		err = errWire
	}
	return v, err
}
