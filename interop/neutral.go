package interop

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Kind is the kind of a neutral Value.
type Kind string

// The kinds of neutral value. Num is a JavaScript number: the language
// has one number type, so what it stands for is the reader's to say.
const (
	Nil     Kind = "nil"
	Bool    Kind = "bool"
	Int     Kind = "int"
	Float   Kind = "float"
	Float32 Kind = "float32"
	Num     Kind = "num"
	Str     Kind = "str"
	Bytes   Kind = "bytes"
	Array   Kind = "array"
	Map     Kind = "map"
	Time    Kind = "time"
	Ext     Kind = "ext"
	Tag     Kind = "tag"
	Other   Kind = "other"
)

// A Value is a value in the neutral form the peers and Go exchange: exact
// in every language, typed by what the writer meant, not by what a
// language can hold (an int64 as decimal digits, a float as its bits, a
// string as its bytes, which need not be UTF-8). Its JSON is an object of
// one key, the kind: {"int": "9007199254740993"}, {"float": "8000000000000000"}.
type Value struct {
	Kind  Kind
	Bool  bool
	Int   *big.Int
	Bits  uint64  // Float and Num: float64 bits; Float32: float32 bits
	Bytes []byte  // Str, Bytes, Ext's data
	Elems []Value // Array
	Pairs []Pair  // Map, in the order written or read
	// Time: Unix seconds and nanoseconds, and the offset east of UTC in
	// seconds; a nil Offset is a time read without one (a naive time).
	Sec    int64
	Nsec   int
	Offset *int
	Type   int    // Ext's type
	TagNum string // Tag's number; Elems[0] is its content
	Text   string // Other: what the peer read, as it names it
}

// A Pair is one entry of a Map.
type Pair struct{ Key, Value Value }

type wireTime struct {
	S   string `json:"s"`
	NS  int    `json:"ns"`
	Off *int   `json:"off"`
}

type wireExt struct {
	Type int    `json:"type"`
	Data []byte `json:"data"`
}

type wireTag struct {
	Tag   string `json:"tag"`
	Value Value  `json:"value"`
}

// MarshalJSON writes v as an object of one key.
func (v Value) MarshalJSON() ([]byte, error) {
	var payload any
	switch v.Kind {
	case Nil:
		payload = true
	case Bool:
		payload = v.Bool
	case Int:
		payload = v.Int.String()
	case Float, Num:
		payload = fmt.Sprintf("%016x", v.Bits)
	case Float32:
		payload = fmt.Sprintf("%08x", uint32(v.Bits))
	case Str, Bytes:
		payload = base64.StdEncoding.EncodeToString(v.Bytes)
	case Array:
		payload = nonNil(v.Elems)
	case Map:
		pairs := make([][2]Value, len(v.Pairs))
		for i, p := range v.Pairs {
			pairs[i] = [2]Value{p.Key, p.Value}
		}
		payload = pairs
	case Time:
		payload = wireTime{S: strconv.FormatInt(v.Sec, 10), NS: v.Nsec, Off: v.Offset}
	case Ext:
		payload = wireExt{Type: v.Type, Data: nonNil(v.Bytes)}
	case Tag:
		payload = wireTag{Tag: v.TagNum, Value: v.Elems[0]}
	case Other:
		payload = v.Text
	default:
		return nil, fmt.Errorf("interop: a neutral value of no kind %q", v.Kind)
	}
	return json.Marshal(map[Kind]any{v.Kind: payload})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// UnmarshalJSON reads an object of one key.
func (v *Value) UnmarshalJSON(data []byte) error {
	var m map[Kind]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("interop: a neutral value: %w", err)
	}
	if len(m) != 1 {
		return fmt.Errorf("interop: a neutral value has one key, not %d: %.80s", len(m), data)
	}
	for k, raw := range m {
		*v = Value{Kind: k}
		var err error
		switch k {
		case Nil:
		case Bool:
			err = json.Unmarshal(raw, &v.Bool)
		case Int:
			var s string
			if err = json.Unmarshal(raw, &s); err == nil {
				var ok bool
				if v.Int, ok = new(big.Int).SetString(s, 10); !ok {
					err = fmt.Errorf("%q is not an integer", s)
				}
			}
		case Float, Num, Float32:
			var s string
			if err = json.Unmarshal(raw, &s); err == nil {
				var b []byte
				if b, err = hex.DecodeString(s); err == nil {
					switch {
					case k == Float32 && len(b) == 4:
						v.Bits = uint64(binary.BigEndian.Uint32(b))
					case k != Float32 && len(b) == 8:
						v.Bits = binary.BigEndian.Uint64(b)
					default:
						err = fmt.Errorf("%q is not the bits of a %s", s, k)
					}
				}
			}
		case Str, Bytes:
			err = json.Unmarshal(raw, &v.Bytes)
			if v.Bytes == nil {
				v.Bytes = []byte{}
			}
		case Array:
			err = json.Unmarshal(raw, &v.Elems)
		case Map:
			var pairs [][2]Value
			if err = json.Unmarshal(raw, &pairs); err == nil {
				v.Pairs = make([]Pair, len(pairs))
				for i, p := range pairs {
					v.Pairs[i] = Pair{p[0], p[1]}
				}
			}
		case Time:
			var t wireTime
			if err = json.Unmarshal(raw, &t); err == nil {
				v.Nsec, v.Offset = t.NS, t.Off
				v.Sec, err = strconv.ParseInt(t.S, 10, 64)
			}
		case Ext:
			var e wireExt
			if err = json.Unmarshal(raw, &e); err == nil {
				v.Type, v.Bytes = e.Type, e.Data
			}
		case Tag:
			var t wireTag
			if err = json.Unmarshal(raw, &t); err == nil {
				v.TagNum, v.Elems = t.Tag, []Value{t.Value}
			}
		case Other:
			err = json.Unmarshal(raw, &v.Text)
		default:
			err = fmt.Errorf("unknown kind")
		}
		if err != nil {
			return fmt.Errorf("interop: a neutral %q: %w", k, err)
		}
	}
	return nil
}

// Float64 returns the number a Float, Float32 or Num holds.
func (v Value) Float64() float64 {
	if v.Kind == Float32 {
		return float64(math.Float32frombits(uint32(v.Bits)))
	}
	return math.Float64frombits(v.Bits)
}

// String shows v briefly, as a diff names it: 9007199254740993, "a\xffb",
// a time in RFC 3339, map[1:"a"].
func (v Value) String() string {
	switch v.Kind {
	case Nil:
		return "nil"
	case Bool:
		return strconv.FormatBool(v.Bool)
	case Int:
		return v.Int.String()
	case Float, Float32:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 64) + " (" + string(v.Kind) + ")"
	case Num:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 64) + " (a JavaScript number)"
	case Str:
		if utf8.Valid(v.Bytes) {
			return strconv.Quote(string(v.Bytes))
		}
		return fmt.Sprintf("%q (not UTF-8)", v.Bytes)
	case Bytes:
		return fmt.Sprintf("bytes %x", v.Bytes)
	case Array:
		s := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			s[i] = e.String()
		}
		return "[" + strings.Join(s, " ") + "]"
	case Map:
		s := make([]string, len(v.Pairs))
		for i, p := range v.Pairs {
			s[i] = p.Key.String() + ":" + p.Value.String()
		}
		return "map[" + strings.Join(s, " ") + "]"
	case Time:
		return v.goTime().String()
	case Ext:
		return fmt.Sprintf("ext %d %x", v.Type, v.Bytes)
	case Tag:
		return "tag " + v.TagNum + " " + v.Elems[0].String()
	}
	return v.Text
}
