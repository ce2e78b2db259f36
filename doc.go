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
// (Schema), and any other codec through WithCodec. A codec must return the
// value exactly, modulo only the tolerances the caller accepts
// (TimePrecision, FloatPrecision, Losses): one that loses part of it in a
// way its registry entry declares (a time's zone, its sub-seconds, a
// float's last digits) is skipped with the
// losses named, and one that changes it otherwise fails.
package serbench
