// Package msgp adapts github.com/tinylib/msgp, MessagePack through code
// generated for each Go type.
//
// msgp writes methods on types of the package it processes, so this
// package keeps mirror types of the dataset types (mirror_gen.go, written by
// mirrorgen from package dataset) with msgp's MarshalMsg and UnmarshalMsg
// beside them (msgp_gen.go). Prepare copies the dataset value into its
// mirror outside the timer; Value copies a decoded mirror back for
// verification. Run go generate to rebuild both files; see gen.go.
//
// Field names are the datasets' json tags (msgp's tag directive), and
// times decode in UTC (its timezone directive), as they were encoded.
package msgp
