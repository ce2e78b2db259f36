// Package serbench benchmarks your own Go values across serialization
// codecs, verifying every round trip before anything is timed.
//
// Under go test, Benchmark gives a sub-benchmark per codec and operation
// that benchstat reads as it is:
//
//	func BenchmarkOrder(b *testing.B) {
//		serbench.Benchmark(b, &Order{ID: 7, Lines: lines()})
//	}
//
//	go test -bench Order -count 10 | tee new.txt; benchstat new.txt
//
// In a program, Run measures the same way the serbench command does and
// returns the run's record, which report.WriteFiles writes as
// results.json, results.bench, results.csv, report.html and summary.md.
//
// Every registered codec that can hold the value's type takes part; the
// schema-compiled ones (Protobuf, vtprotobuf, msgp, easyjson) join when
// given the type generated for the value and conversions to and from it
// (Schema), and any other codec through WithCodec. What a round trip may
// change is declared: each codec's losses in the registry, and the value's
// own tolerances (TimePrecision, Losses).
package serbench
