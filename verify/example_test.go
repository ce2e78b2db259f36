package verify_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/verify"
)

// A codec that keeps milliseconds and no offset, as BSON does, declares
// both losses; Equal allows them and nothing else.
func ExampleEqual() {
	type Event struct {
		At   time.Time
		Tags []string
	}
	at := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.FixedZone("", 5*3600+1800))
	want := &Event{At: at, Tags: []string{"a"}}
	got := &Event{At: at.UTC().Truncate(time.Millisecond), Tags: []string{"a"}}
	bson := []codec.Loss{{Kind: codec.TimePrecision, Precision: time.Millisecond}, {Kind: codec.TimeZone}}

	fmt.Println(verify.Equal(want, got, bson))
	got.Tags[0] = "b"
	var mm *verify.MismatchError
	if err := verify.Equal(want, got, bson); errors.As(err, &mm) {
		fmt.Println(mm.Diff)
	}
	// Output:
	// <nil>
	// .Tags[0]: -"a" +"b"
}
