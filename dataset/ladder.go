package dataset

import (
	"strconv"
	"time"
)

// Tiny is the smallest rung of the size ladder (seeds 000 and 002).
type Tiny struct {
	ID      int64  `json:"tiny_id" xml:"tiny_id" yaml:"tiny_id"`
	SomeStr string `json:"some_str" xml:"some_str" yaml:"some_str"`
}

// Medium adds pointers, a float and a time.
type Medium struct {
	ID           int64     `json:"medium_id" xml:"medium_id" yaml:"medium_id"`
	FirstName    string    `json:"first_name" xml:"first_name" yaml:"first_name"`
	LastName     *string   `json:"last_name" xml:"last_name" yaml:"last_name"`
	MoneyBalance *float64  `json:"money_balance" xml:"money_balance" yaml:"money_balance"`
	CreatedAt    time.Time `json:"created_at" xml:"created_at" yaml:"created_at"`
	Tiny         Tiny      `json:"tiny" xml:"tiny" yaml:"tiny"`
}

// Big nests a Medium by value and by pointer.
type Big struct {
	ID           int64     `json:"big_id" xml:"big_id" yaml:"big_id"`
	Age          uint64    `json:"age" xml:"age" yaml:"age"`
	Country      *string   `json:"country" xml:"country" yaml:"country"`
	CountryBytes []byte    `json:"country_bytes" xml:"country_bytes" yaml:"country_bytes"`
	CreatedAt    time.Time `json:"created_at" xml:"created_at" yaml:"created_at"`
	UpdatedAt    time.Time `json:"updated_at" xml:"updated_at" yaml:"updated_at"`
	DeletedAt    time.Time `json:"deleted_at" xml:"deleted_at" yaml:"deleted_at"`
	Tiny         Tiny      `json:"tiny" xml:"tiny" yaml:"tiny"`
	Medium       Medium    `json:"medium" xml:"medium" yaml:"medium"`
	MediumPtr    *Medium   `json:"medium_ptr" xml:"medium_ptr" yaml:"medium_ptr"`
}

// Huge holds 1,380 Bigs in four slices.
type Huge struct {
	BigSlice        []Big  `json:"big_slice" xml:"big_slice" yaml:"big_slice"`
	BigPtrSlice     []*Big `json:"big_ptr_slice" xml:"big_ptr_slice" yaml:"big_ptr_slice"`
	BiggerSlice     []Big  `json:"bigger_slice" xml:"bigger_slice" yaml:"bigger_slice"`
	TheBiggestSlice []Big  `json:"the_biggest_slice" xml:"the_biggest_slice" yaml:"the_biggest_slice"`
}

// ComplexMap maps "0".."49" to Huge values (seed 002).
type ComplexMap map[string]Huge

// The element counts of Huge's slices and ComplexMap's keys.
const (
	hugeBigSlice     = 50
	hugeBigPtrSlice  = 50
	hugeBiggerSlice  = 256
	hugeBiggestSlice = 1024
	complexMapKeys   = 50

	// hugeBigs is the number of Bigs in a Huge, 1,380.
	hugeBigs = hugeBigSlice + hugeBigPtrSlice + hugeBiggerSlice + hugeBiggestSlice
)

// NewTiny returns the i-th Tiny: ID i+1, "foo bar".
func NewTiny(i int) Tiny { return Tiny{ID: int64(i + 1), SomeStr: "foo bar"} }

// NewMedium returns the i-th Medium: ID i+1, holding the i-th Tiny.
// Medium 0 has seed 000's balance, 10.24; the others a balance below
// 10,000 with every digit a float64 has, every fourth a whole number, as
// measured data holds floats (a codec that rounds them is caught).
func NewMedium(i int) Medium {
	last, money := "bar", 10.24
	if i > 0 {
		money = measured(i, 10000)
	}
	return Medium{
		ID: int64(i + 1), FirstName: "foo", LastName: &last, MoneyBalance: &money,
		CreatedAt: Base, Tiny: NewTiny(i),
	}
}

// NewBig returns the i-th Big: ID i+1, holding the i-th Tiny and the i-th
// Medium by value and by pointer, so that no two Bigs share a nested value.
func NewBig(i int) Big {
	country := "Ukraine"
	mp := NewMedium(i)
	return Big{
		ID: int64(i + 1), Age: 26, Country: &country, CountryBytes: []byte("Ukraine"),
		CreatedAt: Base.Add(-2 * day), UpdatedAt: Base.Add(-day), DeletedAt: Base,
		Tiny: NewTiny(i), Medium: NewMedium(i), MediumPtr: &mp,
	}
}

// NewHuge returns the i-th Huge: Bigs i*1380 to i*1380+1379, in
// order through its four slices, so that no Big repeats within a Huge or
// between two Huges. Huge 0's BigSlice holds Bigs 0 to 49.
func NewHuge(i int) Huge {
	next := i * hugeBigs
	bigs := func(n int) []Big {
		out := make([]Big, 0, n)
		for range n {
			out = append(out, NewBig(next))
			next++
		}
		return out
	}
	var h Huge
	h.BigSlice = bigs(hugeBigSlice)
	h.BigPtrSlice = make([]*Big, 0, hugeBigPtrSlice)
	for range hugeBigPtrSlice {
		b := NewBig(next)
		next++
		h.BigPtrSlice = append(h.BigPtrSlice, &b)
	}
	h.BiggerSlice = bigs(hugeBiggerSlice)
	h.TheBiggestSlice = bigs(hugeBiggestSlice)
	return h
}

// NewComplexMap returns the i-th ComplexMap: Huges i*50 to i*50+49, keyed
// "0" to "49".
func NewComplexMap(i int) ComplexMap {
	m := make(ComplexMap, complexMapKeys)
	for k := range complexMapKeys {
		m[strconv.Itoa(k)] = NewHuge(i*complexMapKeys + k)
	}
	return m
}
