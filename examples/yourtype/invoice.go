// Package yourtype is a project of your own that benchmarks its own type
// with serbench: see invoice_test.go.
package yourtype

import "time"

// An Invoice is the type this project sends over the wire.
type Invoice struct {
	ID       int64
	Customer string
	Issued   time.Time
	Lines    []Line
	Paid     bool
	Tags     map[string]string
}

// A Line is one line of an invoice.
type Line struct {
	SKU   string
	Qty   int
	Price float64
}

// Sample returns a typical invoice.
func Sample() *Invoice {
	inv := &Invoice{
		ID: 1042, Customer: "Ada Lovelace", Issued: time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC),
		Tags: map[string]string{"channel": "web", "region": "eu-west"},
	}
	for i := range 20 {
		inv.Lines = append(inv.Lines, Line{SKU: "SKU-" + string(rune('A'+i)), Qty: i + 1, Price: 9.5 + float64(i)/4})
	}
	return inv
}
