package fidelity

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"time"
)

// The probes' named types. They are exported so that every codec sees
// their fields, and so that gob can name them.

// The probes' containers: one named struct type per field type, since
// encoding/xml names its root element after the type and gob prefers
// named types.
type (
	Time      struct{ T time.Time }
	Times     struct{ A, B time.Time }
	Dur       struct{ D time.Duration }
	Ints      struct{ S []int }
	StrMap    struct{ M map[string]int }
	IntPtr    struct{ P *int }
	IntKey    struct{ M map[int]string }
	BoolKey   struct{ M map[bool]int }
	StructKey struct{ M map[Key]string }
	ArrayKey  struct{ M map[[2]int]string }
	Uint64    struct{ U uint64 }
	Int64     struct{ I int64 }
	WideInts  struct {
		I int
		U uint
	}
	Any      struct{ V any }
	Float32s struct{ A, B, C float32 }
	// FullFloats holds a float64 and a float32 with every digit their type
	// has, the largest float64, a float32 near the top of its range, and
	// each type's smallest non-zero value.
	FullFloats struct {
		F64, Max64, Min64 float64
		F32, Big32, Min32 float32
	}
	Float    struct{ F float64 }
	Infs     struct{ P, N float64 }
	BigInt   struct{ N *big.Int }
	Number   struct{ N json.Number }
	Text     struct{ S string }
	Bytes    struct{ B []byte }
	Stringer struct{ S fmt.Stringer }
	Secrets  struct{ S Secret }
	Words    struct{ T Word }
	Arrays   struct {
		A [3]int
		S [2]string
	}
	Embedded struct {
		Inner
		C int
	}
	Clash struct {
		Inner
		A int
	}
)

// Alias holds two pointers that point at one int in the aliasing probe.
type Alias struct{ A, B *int }

// Node points back at itself in the cycle probe.
type Node struct {
	V    int
	Next *Node
}

// Nest is one level of the deep-nesting chain.
type Nest struct {
	V int
	N *Nest
}

// Key is a struct used as a map key and held in an any.
type Key struct{ X, Y int }

// Inner is embedded in the embedding probes.
type Inner struct {
	A int
	B string
}

// Unexported has an unexported field, which codecs do not see.
type Unexported struct {
	A int
	b int
}

// Celsius is a concrete type held in a fmt.Stringer field.
type Celsius float64

func (c Celsius) String() string { return strconv.FormatFloat(float64(c), 'f', -1, 64) + "°C" }

// Secret keeps its state unexported and encodes it with MarshalJSON: a
// codec that ignores json.Marshaler sees a struct with no fields.
type Secret struct{ v string }

// MarshalJSON encodes s as its string.
func (s Secret) MarshalJSON() ([]byte, error) { return json.Marshal(s.v) }

// UnmarshalJSON decodes a string into s.
func (s *Secret) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &s.v) }

// Word keeps its state unexported and encodes it with MarshalText.
type Word struct{ w string }

// MarshalText encodes w as its text.
func (w Word) MarshalText() ([]byte, error) { return []byte(w.w), nil }

// UnmarshalText decodes text into w.
func (w *Word) UnmarshalText(b []byte) error { w.w = string(b); return nil }

// Reused is encoded with B and E zero and decoded into a value where they
// are not.
type Reused struct {
	A, B int
	S, E string
	M    map[string]int
}

// Omit has a field left out of JSON-like encodings when empty.
type Omit struct {
	A int
	S string `json:",omitempty" msgpack:",omitempty" yaml:",omitempty" toml:",omitempty" cbor:",omitempty" bson:",omitempty" xml:",omitempty"`
}

// Newer is Older with two fields more, as a later version of a program
// writes it.
type Newer struct {
	A string
	B int
	C bool
}

// Older is Newer as an earlier program knows it.
type Older struct{ A string }

// Tagged and Retagged have different Go field names under one json tag.
type Tagged struct {
	Name string `json:"full_name"`
}

// Retagged is Tagged with its field renamed in Go, not on the wire.
type Retagged struct {
	FullName string `json:"full_name"`
}
