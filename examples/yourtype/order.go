package yourtype

import "time"

// An Order is a type whose time a codec may not keep whole: nanoseconds,
// in the zone of Central Europe.
type Order struct {
	ID    int64
	Lines []string
	At    time.Time
}

// SampleOrder returns an order placed at a nanosecond-precise time in CET.
func SampleOrder() *Order {
	return &Order{ID: 7, Lines: []string{"tea", "cake"}, At: time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("CET", 3600))}
}
