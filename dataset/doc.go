// Package dataset holds the payloads serbench measures: the Go types and
// deterministic generators rebuilt from the seed articles (the size ladder,
// the web-service shapes, the game-server message, a lone int64).
//
// Every value is built from a fixed base time and fixed or index-derived
// field values, never from time.Now or the global random source, so two
// runs encode byte-identical payloads. Slices hold exactly their stated
// number of elements (one seed article padded them with zero values).
package dataset
