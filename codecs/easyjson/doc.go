// Package easyjson adapts github.com/mailru/easyjson, JSON through code
// generated for each Go type.
//
// easyjson writes methods on types of the package it processes, so this
// package keeps mirror types of the dataset types (mirror_gen.go, written by
// mirrorgen from package dataset, each marked easyjson:json) with easyjson's
// MarshalEasyJSON and UnmarshalEasyJSON beside them (easyjson_gen.go).
// Prepare copies the dataset value into its mirror outside the timer; Value
// copies a decoded mirror back for verification. Run go generate to rebuild
// both files; see gen.go.
//
// Field names are the datasets' json tags, so the JSON is the same as
// encoding/json's; times go through time.Time's own MarshalJSON and
// UnmarshalJSON (RFC 3339 with nanoseconds and the offset).
package easyjson
