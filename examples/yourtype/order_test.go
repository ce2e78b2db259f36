package yourtype

import (
	"testing"

	"github.com/serbench/serbench"
)

// BenchmarkOrder measures Order with the codecs that return it exactly:
// go test prints, for each codec that loses part of it (cbor its time's
// sub-seconds and zone, msgpack the zone), a SKIP line naming the loss
// and the serbench.Losses option that accepts it.
func BenchmarkOrder(b *testing.B) {
	serbench.Benchmark(b, SampleOrder(), serbench.Codecs("json", "gob-stream", "msgpack", "cbor", "cbor-nano"))
}
