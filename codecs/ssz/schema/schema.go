// Package schema holds serbench's datasets as SSZ containers: Go structs
// in the only types SSZ has (unsigned integers, booleans, byte lists,
// lists and containers, each list with the maximum length SSZ requires),
// and the code sszgen generates for them (schema_encoding.go), at the
// version go.mod's tool directive pins.
//
// SSZ has no signed integers, floats, strings, optional values or times:
// an int64 travels as the uint64 of the same bits, a float64 as its IEEE
// bits, a string as its bytes, a pointer as a flag and a value, a time as
// a Time container (Unix seconds and nanoseconds).
//
// Regenerate with `go generate ./...` from the module root.
package schema

//go:generate go tool sszgen --path schema.go --objs Time,Tiny,Medium,Big,Huge,User,Metric,TinyList,MediumList,BigList,HugeList,UserList,MetricList

// MaxBytes is the longest string or byte slice a container holds.
const MaxBytes = 1024

// MaxItems is the longest list a container holds: a Huge's largest slice
// and the datasets' top-level slices fit.
const MaxItems = 4096

type Time struct {
	Seconds uint64
	Nanos   uint32
}

type Tiny struct {
	ID      uint64
	SomeStr []byte `ssz-max:"1024"`
}

type Medium struct {
	ID           uint64
	FirstName    []byte `ssz-max:"1024"`
	HasLastName  bool
	LastName     []byte `ssz-max:"1024"`
	HasMoney     bool
	MoneyBalance uint64
	CreatedAt    *Time
	Tiny         *Tiny
}

type Big struct {
	ID           uint64
	Age          uint64
	HasCountry   bool
	Country      []byte `ssz-max:"1024"`
	CountryBytes []byte `ssz-max:"1024"`
	CreatedAt    *Time
	UpdatedAt    *Time
	DeletedAt    *Time
	Tiny         *Tiny
	Medium       *Medium
	HasMediumPtr bool
	MediumPtr    *Medium
}

type Huge struct {
	BigSlice        []*Big `ssz-max:"4096"`
	BigPtrSlice     []*Big `ssz-max:"4096"`
	BiggerSlice     []*Big `ssz-max:"4096"`
	TheBiggestSlice []*Big `ssz-max:"4096"`
}

type User struct {
	ID    uint64
	Name  []byte `ssz-max:"1024"`
	Email []byte `ssz-max:"1024"`
}

type Metric struct {
	Timestamp uint64
	NameHash  uint64
	Value     uint64
}

type TinyList struct {
	Items []*Tiny `ssz-max:"4096"`
}

type MediumList struct {
	Items []*Medium `ssz-max:"4096"`
}

type BigList struct {
	Items []*Big `ssz-max:"4096"`
}

type HugeList struct {
	Items []*Huge `ssz-max:"4096"`
}

type UserList struct {
	Items []*User `ssz-max:"4096"`
}

type MetricList struct {
	Items []*Metric `ssz-max:"4096"`
}
