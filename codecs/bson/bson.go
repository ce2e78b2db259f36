// Package bson adapts go.mongodb.org/mongo-driver/v2/bson, MongoDB's
// BSON.
package bson

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/serbench/serbench/codec"
)

// Driver is bson.Marshal and bson.Unmarshal.
var Driver = codec.Declare(codec.Info{
	Name: "bson", Family: "bson", Label: "mongo-driver/v2/bson", Module: "go.mongodb.org/mongo-driver/v2",
	URL: "https://pkg.go.dev/go.mongodb.org/mongo-driver/v2/bson", API: codec.Reflection,
	Losses: []codec.Loss{
		{Kind: codec.TimePrecision, Precision: time.Millisecond},
		{Kind: codec.TimeZone},
	},
	Notes: "A BSON datetime holds milliseconds since the epoch, decoded in UTC, so a non-UTC time loses its offset. " +
		"BSON integers are signed 64-bit: a uint64 above MaxInt64 is refused. " +
		"The top level must be a document: slices and scalars are wrapped in {items: ...}. " +
		"Struct fields keyed by lowercased Go field name (the datasets carry no bson tags).",
	New: func() codec.Codec {
		return codec.SignedInts("BSON", codec.Document("bson", "items", bson.Marshal, bson.Unmarshal))
	},
})
