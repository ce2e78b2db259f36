// Package dataset holds the payloads serbench measures: the Go types and
// deterministic generators rebuilt from the seed articles (the size ladder,
// the web-service shapes, the game-server message, a lone int64).
//
// Every value is built from a fixed base time and fixed or index-derived
// field values, never from time.Now or the global random source, so two
// runs encode byte-identical payloads. Slices hold exactly their stated
// number of elements (one seed article padded them with zero values).
//
// No element of a slice or map, at any depth, is a zero value or equal to
// a sibling, and the values nested in an element vary with its index (the
// i-th Big holds the i-th Medium and Tiny; the Bigs of a Huge, and of two
// Huges, all differ): a decoder that filled every element from the first,
// or one element from another, fails verification. Strings and byte
// slices count as scalars and may repeat. Where a seed fixes element 0's
// values, element 0 keeps them; the verification datasets keep their nil,
// empty and zero values in every build.
package dataset
